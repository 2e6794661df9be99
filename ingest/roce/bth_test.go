package roce

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// fixture is one byte fixture with what decoding it must give.
type fixture struct {
	name  string
	hex   string
	off   int                  // offset of the BTH in the frame
	stack []gopacket.LayerType // the layers gopacket must find
	want  BTH                  // BaseLayer is filled in from off and the opcode
}

var (
	stack4     = []gopacket.LayerType{layers.LayerTypeEthernet, layers.LayerTypeIPv4, layers.LayerTypeUDP, LayerTypeBTH, gopacket.LayerTypePayload}
	stack6     = []gopacket.LayerType{layers.LayerTypeEthernet, layers.LayerTypeIPv6, layers.LayerTypeUDP, LayerTypeBTH, gopacket.LayerTypePayload}
	stackNoPay = []gopacket.LayerType{layers.LayerTypeEthernet, layers.LayerTypeIPv4, layers.LayerTypeUDP, LayerTypeBTH}
	stackVLAN  = []gopacket.LayerType{layers.LayerTypeEthernet, layers.LayerTypeDot1Q, layers.LayerTypeIPv4, layers.LayerTypeUDP, LayerTypeBTH}
)

var fixtures = []fixture{
	{"write_first", writeFirstHex, 42, stack4, BTH{
		Opcode: RCWriteFirst, MigReq: true, PKey: 0xffff, DestQP: 0x45, PSN: 0xabcd,
		RETH: RETH{VirtualAddress: 0x7f0000001000, RKey: 0x1234abcd, DMALength: 4096}, ICRC: 0xd7fa1656,
	}},
	{"ack_vlan", ackHex, 46, stackVLAN, BTH{
		Opcode: RCAcknowledge, MigReq: true, PKey: 0xffff, DestQP: 0x48, PSN: 42,
		AETH: AETH{Syndrome: 0x06, MSN: 3}, ICRC: 0x37668e5d,
	}},
	{"send_last_imm", sendLastImmHex, 42, stack4, BTH{
		Opcode: RCSendLastImmediate, SolicitedEvent: true, MigReq: true, PadCount: 2, PKey: 0x8001,
		DestQP: 0x123456, AckReq: true, PSN: 0xffffff, ImmDt: 0xdeadbeef, ICRC: 0x0dfffa3a,
	}},
	{"cnp", cnpHex, 42, stack4, BTH{
		Opcode: CNP, PKey: 0xffff, BECN: true, DestQP: 0xd2, PSN: 0, ICRC: 0x72d64596,
	}},
	{"ud_send_only_ipv6", udSendOnly6Hex, 62, stack6, BTH{
		Opcode: UDSendOnly, PKey: 0xffff, DestQP: 1, PSN: 16,
		DETH: DETH{QKey: 0x80010000, SrcQP: 0xc}, ICRC: 0xdca175eb,
	}},
	{"nak", nakHex, 42, stackNoPay, BTH{
		Opcode: RCAcknowledge, MigReq: true, PKey: 0xffff, DestQP: 0x48, PSN: 16,
		AETH: AETH{Syndrome: 0x60, MSN: 7}, ICRC: 0xd6aa3faf,
	}},
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	return testfiles.Must(t, b, err)
}

// wantBTH returns f.want with Contents and Payload slicing frame.
func (f fixture) wantBTH(frame []byte) *BTH {
	w := f.want
	hl := w.Opcode.HeaderLen()
	w.Contents = frame[f.off : f.off+hl]
	w.Payload = frame[f.off+hl : len(frame)-ICRCLen]
	return &w
}

func TestDecodeFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			frame := mustHex(t, f.hex)
			p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
			if el := p.ErrorLayer(); el != nil {
				t.Fatalf("decode error: %v", el.Error())
			}
			var got []gopacket.LayerType
			for _, l := range p.Layers() {
				got = append(got, l.LayerType())
			}
			if !reflect.DeepEqual(got, f.stack) {
				t.Fatalf("layers %v, want %v", got, f.stack)
			}
			bth := p.Layer(LayerTypeBTH).(*BTH)
			if want := f.wantBTH(frame); !reflect.DeepEqual(bth, want) {
				t.Errorf("decoded\n%#v\nwant\n%#v", *bth, *want)
			}
			ip := p.NetworkLayer().LayerContents()
			udp := p.Layer(layers.LayerTypeUDP).LayerContents()
			if !bth.VerifyICRC(ip, udp) {
				c, err := bth.ComputeICRC(ip, udp)
				t.Errorf("ICRC %#08x does not verify: computed %#08x (%v)", bth.ICRC, c, err)
			}
		})
	}
}

// TestDecodingLayerParser checks that the registration lets the fast
// parser find the BTH after UDP port 4791, with and without VLAN tags.
func TestDecodingLayerParser(t *testing.T) {
	var (
		eth     layers.Ethernet
		dot1q   layers.Dot1Q
		ip4     layers.IPv4
		ip6     layers.IPv6
		udp     layers.UDP
		bth     BTH
		payload gopacket.Payload
	)
	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &dot1q, &ip4, &ip6, &udp, &bth, &payload)
	var decoded []gopacket.LayerType
	for _, f := range fixtures {
		frame := mustHex(t, f.hex)
		if err := parser.DecodeLayers(frame, &decoded); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !reflect.DeepEqual(decoded, f.stack) {
			t.Errorf("%s: decoded %v, want %v", f.name, decoded, f.stack)
		}
		// The struct is reused: nothing of the previous packet may leak.
		if want := f.wantBTH(frame); !reflect.DeepEqual(&bth, want) {
			t.Errorf("%s: decoded\n%#v\nwant\n%#v", f.name, bth, *want)
		}
	}
}

// TestSerializeRoundTrip decodes each fixture and serializes its layers
// back: the bytes must be identical.
func TestSerializeRoundTrip(t *testing.T) {
	for _, f := range fixtures {
		frame := mustHex(t, f.hex)
		p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
		var ls []gopacket.SerializableLayer
		for _, l := range p.Layers() {
			ls = append(ls, l.(gopacket.SerializableLayer))
		}
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, ls...); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Equal(buf.Bytes(), frame) {
			t.Errorf("%s: round trip\n got %x\nwant %x", f.name, buf.Bytes(), frame)
		}
	}
}

// TestBuildDecode builds a packet from fields (lengths, padding and ICRC
// computed), then decodes it.
func TestBuildDecode(t *testing.T) {
	for _, v6 := range []bool{false, true} {
		eth := &layers.Ethernet{SrcMAC: []byte{2, 0, 0, 0, 0, 1}, DstMAC: []byte{2, 0, 0, 0, 0, 2}}
		udp := &layers.UDP{SrcPort: 0xd000, DstPort: UDPPort}
		var ip gopacket.SerializableLayer
		if v6 {
			eth.EthernetType = layers.EthernetTypeIPv6
			ip = &layers.IPv6{Version: 6, TrafficClass: 0x6b, FlowLabel: 7, NextHeader: layers.IPProtocolUDP, HopLimit: 9,
				SrcIP: bytes.Repeat([]byte{0xfd}, 16), DstIP: bytes.Repeat([]byte{0xfe}, 16)}
		} else {
			eth.EthernetType = layers.EthernetTypeIPv4
			ip = &layers.IPv4{Version: 4, IHL: 5, TOS: 0x6b, TTL: 9, Protocol: layers.IPProtocolUDP,
				SrcIP: []byte{10, 1, 2, 3}, DstIP: []byte{10, 3, 2, 1}}
		}
		in := &BTH{Opcode: RCWriteOnlyImmediate, PKey: 0xffff, DestQP: 0xabcdef, AckReq: true, PSN: 0x123456,
			RETH: RETH{VirtualAddress: 1, RKey: 2, DMALength: 5}, ImmDt: 0x01020304}
		buf := gopacket.NewSerializeBuffer()
		opts := gopacket.SerializeOptions{FixLengths: true}
		if err := gopacket.SerializeLayers(buf, opts, eth, ip, udp, in, gopacket.Payload("hello")); err != nil {
			t.Fatal(err)
		}
		frame := buf.Bytes()
		ipLen := 20
		if v6 {
			ipLen = 40
		}
		if err := SetICRC(frame[14:14+ipLen], frame[14+ipLen:22+ipLen], frame[22+ipLen:]); err != nil {
			t.Fatal(err)
		}
		p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
		got, ok := p.Layer(LayerTypeBTH).(*BTH)
		if !ok {
			t.Fatalf("v6=%v: no BTH in %v", v6, p)
		}
		if got.PadCount != 3 || string(got.Data()) != "hello" || len(got.Payload) != 8 {
			t.Errorf("v6=%v: pad %d data %q payload %d bytes, want pad 3, \"hello\", 8 bytes", v6, got.PadCount, got.Data(), len(got.Payload))
		}
		if got.Opcode != in.Opcode || got.DestQP != in.DestQP || got.PSN != in.PSN || got.RETH != in.RETH ||
			got.ImmDt != in.ImmDt || !got.AckReq || got.PKey != 0xffff {
			t.Errorf("v6=%v: decoded %v, built %v", v6, got, in)
		}
		if !got.VerifyICRC(p.NetworkLayer().LayerContents(), p.Layer(layers.LayerTypeUDP).LayerContents()) {
			t.Errorf("v6=%v: ICRC written by SetICRC does not verify", v6)
		}
	}
}

// TestTruncated feeds prefixes of UDP payloads to DecodeFromBytes: it
// must fail (and flag truncation) while the headers are incomplete, and
// decode with Truncated set when only the ICRC is missing.
func TestTruncated(t *testing.T) {
	writeFirst := mustHex(t, writeFirstHex)[42:] // BTH 12 + RETH 16 + 16 payload + ICRC 4 = 48
	ack := mustHex(t, ackHex)[46:]               // BTH 12 + AETH 4 + ICRC 4 = 20
	cases := []struct {
		name      string
		data      []byte
		wantErr   string // "" = decodes
		truncated bool   // BTH.Truncated after a successful decode
	}{
		{"empty", nil, "0 bytes, need 12", false},
		{"one byte", writeFirst[:1], "1 bytes, need 12", false},
		{"bth minus one", writeFirst[:11], "11 bytes, need 12", false},
		{"bth without reth", writeFirst[:12], "RC_RDMA_WRITE_FIRST: 12 bytes, need 28", false},
		{"reth minus one", writeFirst[:27], "27 bytes, need 28", false},
		{"headers only", writeFirst[:28], "", true},
		{"headers and 3 bytes", writeFirst[:31], "", true},
		{"headers and 4 bytes", writeFirst[:32], "", false},
		{"whole", writeFirst, "", false},
		{"ack without aeth", ack[:15], "RC_ACKNOWLEDGE: 15 bytes, need 16", false},
		{"ack without icrc", ack[:16], "", true},
		{"ack whole", ack, "", false},
	}
	for _, c := range cases {
		var b BTH
		df := &feedback{}
		err := b.DecodeFromBytes(c.data, df)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		case c.wantErr != "" && !df.truncated:
			t.Errorf("%s: decode failed without flagging truncation", c.name)
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.wantErr == "" && (b.Truncated != c.truncated || df.truncated != c.truncated):
			t.Errorf("%s: Truncated %v, feedback %v, want %v", c.name, b.Truncated, df.truncated, c.truncated)
		}
	}
}

type feedback struct{ truncated bool }

func (f *feedback) SetTruncated() { f.truncated = true }

// TestICRCMasks checks the fields the ICRC ignores (IBA §7.8.1, Annex
// A17.3.3) and one it covers.
func TestICRCMasks(t *testing.T) {
	frame := mustHex(t, writeFirstHex)
	ip, udp, tr := frame[14:34], frame[34:42], frame[42:len(frame)-4]
	base, err := ICRC(ip, udp, tr)
	if err != nil || base != 0xd7fa1656 {
		t.Fatalf("ICRC = %#08x, %v; want 0xd7fa1656", base, err)
	}
	mutate := func(b []byte, i int, v byte) []byte {
		c := append([]byte(nil), b...)
		c[i] = v
		return c
	}
	for _, m := range []struct {
		name          string
		ip, udp, tr   []byte
		wantUnchanged bool
	}{
		{"IPv4 ECN set to CE", mutate(ip, 1, 0x6b), udp, tr, true},
		{"IPv4 TTL", mutate(ip, 8, 1), udp, tr, true},
		{"IPv4 checksum", mutate(ip, 10, 0), udp, tr, true},
		{"UDP checksum", ip, mutate(udp, 6, 0x55), tr, true},
		{"BTH FECN/BECN", ip, udp, mutate(tr, 4, 0xc0), true},
		{"UDP source port", ip, mutate(udp, 0, 0), tr, false},
		{"PSN", ip, udp, mutate(tr, 11, 0), false},
		{"payload", ip, udp, mutate(tr, 40, 0xee), false},
		{"IPv4 source", mutate(ip, 12, 11), udp, tr, false},
	} {
		c, err := ICRC(m.ip, m.udp, m.tr)
		if err != nil {
			t.Fatal(err)
		}
		if (c == base) != m.wantUnchanged {
			t.Errorf("%s: ICRC %#08x, base %#08x, want unchanged=%v", m.name, c, base, m.wantUnchanged)
		}
	}
	if _, err := ICRC([]byte{0x55}, udp, tr); err == nil {
		t.Error("ICRC accepted IP version 5")
	}
	if _, err := ICRC(ip, udp[:4], tr); err == nil {
		t.Error("ICRC accepted a 4-byte UDP header")
	}
}

func TestOpcodes(t *testing.T) {
	for _, c := range []struct {
		op      Opcode
		name    string
		kind    Kind
		pos     Position
		headers ExtHeaders
	}{
		{RCSendFirst, "RC_SEND_FIRST", KindSend, PosFirst, 0},
		{RCSendLastImmediate, "RC_SEND_LAST_WITH_IMMEDIATE", KindSend, PosLast, HasImmDt},
		{RCWriteFirst, "RC_RDMA_WRITE_FIRST", KindWrite, PosFirst, HasRETH},
		{RCWriteMiddle, "RC_RDMA_WRITE_MIDDLE", KindWrite, PosMiddle, 0},
		{RCWriteOnlyImmediate, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", KindWrite, PosOnly, HasRETH | HasImmDt},
		{RCReadRequest, "RC_RDMA_READ_REQUEST", KindReadRequest, PosNone, HasRETH},
		{RCReadResponseFirst, "RC_RDMA_READ_RESPONSE_FIRST", KindReadResponse, PosFirst, HasAETH},
		{RCReadResponseMiddle, "RC_RDMA_READ_RESPONSE_MIDDLE", KindReadResponse, PosMiddle, 0},
		{RCReadResponseOnly, "RC_RDMA_READ_RESPONSE_ONLY", KindReadResponse, PosOnly, HasAETH},
		{RCAcknowledge, "RC_ACKNOWLEDGE", KindAck, PosNone, HasAETH},
		{RCAtomicAcknowledge, "RC_ATOMIC_ACKNOWLEDGE", KindAtomicAck, PosNone, HasAETH | HasAtomicAckETH},
		{RCFetchAdd, "RC_FETCH_ADD", KindAtomic, PosNone, HasAtomicETH},
		{RCSendOnlyInvalidate, "RC_SEND_ONLY_WITH_INVALIDATE", KindSend, PosOnly, HasIETH},
		{0x2a, "UC_RDMA_WRITE_ONLY", KindWrite, PosOnly, HasRETH},
		{0x2c, "OPCODE_0x2c", KindOther, PosNone, 0}, // UC has no READ
		{UDSendOnly, "UD_SEND_ONLY", KindSend, PosOnly, HasDETH},
		{UDSendOnlyImmediate, "UD_SEND_ONLY_WITH_IMMEDIATE", KindSend, PosOnly, HasDETH | HasImmDt},
		{0x46, "RD_RDMA_WRITE_FIRST", KindWrite, PosFirst, HasRDETH | HasDETH | HasRETH},
		{0x51, "RD_ACKNOWLEDGE", KindAck, PosNone, HasRDETH | HasAETH},
		{0xa6, "XRC_RDMA_WRITE_FIRST", KindWrite, PosFirst, HasXRCETH | HasRETH},
		{0xb0, "XRC_RDMA_READ_RESPONSE_ONLY", KindReadResponse, PosOnly, HasAETH},
		{CNP, "CNP", KindCNP, PosNone, 0},
		{0x80, "OPCODE_0x80", KindOther, PosNone, 0},
		{0x15, "OPCODE_0x15", KindOther, PosNone, 0}, // RESYNC is RD only
		{0xff, "OPCODE_0xff", KindOther, PosNone, 0},
	} {
		if c.op.String() != c.name || c.op.Kind() != c.kind || c.op.Position() != c.pos || c.op.Headers() != c.headers {
			t.Errorf("%#02x: %q %v %v %#x, want %q %v %v %#x", uint8(c.op), c.op.String(), c.op.Kind(), c.op.Position(),
				c.op.Headers(), c.name, c.kind, c.pos, c.headers)
		}
	}
	if got := (HasRDETH | HasDETH | HasRETH | HasImmDt).Len(); got != 32 {
		t.Errorf("RDETH+DETH+RETH+ImmDt = %d bytes, want 32", got)
	}
	if got := (AETH{Syndrome: 0x60}).Type(); got != AckTypeNAK {
		t.Errorf("syndrome 0x60 is %v, want NAK", got)
	}
	if got := (AETH{Syndrome: 0x3f}).Type(); got != AckTypeRNRNAK {
		t.Errorf("syndrome 0x3f is %v, want RNR_NAK", got)
	}
}

func TestString(t *testing.T) {
	p := gopacket.NewPacket(mustHex(t, writeFirstHex), layers.LayerTypeEthernet, gopacket.Default)
	if got, want := p.Layer(LayerTypeBTH).(*BTH).String(), "RC_RDMA_WRITE_FIRST dqp=0x000045 psn=43981 len=4096"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
