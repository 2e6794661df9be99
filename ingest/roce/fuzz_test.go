package roce

import (
	"bytes"
	"testing"

	"github.com/google/gopacket"
)

// FuzzDecodeBTH decodes arbitrary UDP payloads. It must never panic, and
// whatever decodes completely (ICRC present) must serialize back to the
// same bytes, reserved bits included.
func FuzzDecodeBTH(f *testing.F) {
	for _, fx := range fixtures {
		f.Add(mustHex(f, fx.hex)[fx.off:])
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		var b BTH
		df := &feedback{}
		err := b.DecodeFromBytes(data, df)
		if err != nil {
			if !df.truncated {
				t.Fatalf("error %v without truncation", err)
			}
			return
		}
		_ = b.String()
		_ = b.Data()
		_ = b.NextLayerType()
		if b.Truncated {
			if len(data)-b.Opcode.HeaderLen() >= ICRCLen {
				t.Fatalf("Truncated with %d bytes after %d header bytes", len(data), b.Opcode.HeaderLen())
			}
			return
		}
		if len(b.Contents)+len(b.Payload)+ICRCLen != len(data) {
			t.Fatalf("contents %d + payload %d + ICRC != %d bytes", len(b.Contents), len(b.Payload), len(data))
		}
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, &b, gopacket.Payload(b.Payload)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("round trip:\n got %x\nwant %x", buf.Bytes(), data)
		}
	})
}
