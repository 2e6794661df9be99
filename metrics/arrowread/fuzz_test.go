package arrowread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/output"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// FuzzReadRunParquet feeds arbitrary bytes to every reader of a run
// folder's Parquet files (flows, messages, ports and packets, the last by
// ScanPacketStats and NumRows as metrics does): each returns rows or a
// one-line error naming the file, and none panics (arrow's panics on a
// damaged footer or page are errors).
func FuzzReadRunParquet(f *testing.F) {
	dir := f.TempDir()
	seed := func(name string, write func(string) error) {
		p := filepath.Join(dir, name)
		if err := write(p); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
		flipped := append([]byte(nil), b...)
		flipped[len(b)/3] ^= 0x5a
		f.Add(flipped)
	}
	seed("flows.parquet", func(p string) error { return output.WriteRows(p, randomRows[v2.FlowRow](20, 1)) })
	seed("messages.parquet", func(p string) error { return output.WriteRows(p, randomRows[v2.MessageRow](20, 2)) })
	seed("ports.parquet", func(p string) error { return output.WriteRows(p, randomRows[v2.PortRow](20, 3)) })
	seed("packets.parquet", func(p string) error {
		return output.WriteRows(p, []v2.PacketRow{simPacket(0), simPacket(1), simPacket(2)})
	})
	f.Add([]byte{})
	f.Add([]byte("PAR1PAR1"))
	readers := []func(string) error{
		func(p string) error { _, err := ReadFlows(p); return err },
		func(p string) error { _, err := ReadMessages(p); return err },
		func(p string) error { _, err := ReadPorts(p); return err },
		func(p string) error { _, err := ScanPacketStats(p); return err },
		func(p string) error { _, err := NumRows(p); return err },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "run.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for k, read := range readers {
			if err := read(path); err != nil && (!strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n")) {
				t.Errorf("reader %d: error %q: want one line naming the file", k, err)
			}
		}
	})
}
