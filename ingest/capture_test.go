package ingest

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/internal/examplegen"
)

// smallCapture is a 3-host write all-to-all: 6 messages.
func smallCapture(t testing.TB, f examplegen.Format) ([]byte, *examplegen.Truth) {
	return generate(t, examplegen.Config{Hosts: 3, MessageBytes: 3000, Format: f})
}

// recordEnds returns the byte offset where each packet record of a
// classic pcap ends.
func recordEnds(data []byte) []int {
	var ends []int
	for off := 24; off+16 <= len(data); {
		off += 16 + int(binary.LittleEndian.Uint32(data[off+8:off+12]))
		ends = append(ends, off)
	}
	return ends
}

// TestIngestTruncated cuts a capture inside packet records: the packets
// before the cut are used, the report names the packet, Load succeeds.
func TestIngestTruncated(t *testing.T) {
	data, truth := smallCapture(t, examplegen.PcapNano)
	ends := recordEnds(data)
	if len(ends) != int(truth.Packets) || ends[len(ends)-1] != len(data) {
		t.Fatalf("record walk found %d records ending at %d, want %d ending at %d", len(ends), ends[len(ends)-1], truth.Packets, len(data))
	}
	for _, c := range []struct {
		name string
		cut  int   // bytes kept
		want int64 // packets read
	}{
		{"inside the 3rd record header", ends[1] + 7, 2},
		{"inside the 3rd record data", ends[2] - 5, 2},
		{"after the 3rd record header", ends[1] + 16, 2},
		{"inside the last record", len(data) - 1, truth.Packets - 1},
	} {
		tr, rep, err := Read(bytes.NewReader(data[:c.cut]), "cut.pcap", Options{})
		if err != nil && !errors.Is(err, ErrNoMessages) {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkReport(t, rep)
		if rep.Packets != c.want || rep.Truncated == nil || rep.Truncated.Packet != c.want+1 {
			t.Errorf("%s: %d packets, truncated %+v; want %d packets, truncated at %d", c.name, rep.Packets, rep.Truncated, c.want, c.want+1)
		}
		if len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], "truncated or damaged at packet") {
			t.Errorf("%s: warnings %q", c.name, rep.Warnings)
		}
		if c.want == truth.Packets-1 && len(tr.Messages) != 6 {
			t.Errorf("%s: %d messages, want 6 (the last packet is an ACK)", c.name, len(tr.Messages))
		}
	}
	// A record claiming more than the largest snap length is damage too.
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[ends[0]+8:], 1<<30)
	binary.LittleEndian.PutUint32(bad[ends[0]+12:], 1<<30)
	_, rep, err := Read(bytes.NewReader(bad), "bad.pcap", Options{})
	if err != nil && !errors.Is(err, ErrNoMessages) {
		t.Fatal(err)
	}
	if rep.Truncated == nil || rep.Truncated.Packet != 2 || !strings.Contains(rep.Truncated.Error, "exceeds snap length") {
		t.Errorf("huge record: truncated %+v", rep.Truncated)
	}
}

// TestIngestPcapngTruncatedAndDamaged does the same for pcapng, where
// ngGuard checks the blocks.
func TestIngestPcapngTruncatedAndDamaged(t *testing.T) {
	data, truth := smallCapture(t, examplegen.Pcapng)
	_, rep := load(t, data, Options{})
	if rep.Packets != truth.Packets || rep.Format != "pcapng" || rep.LinkType != "Ethernet (1)" {
		t.Fatalf("pcapng: %d packets, %s, %s", rep.Packets, rep.Format, rep.LinkType)
	}
	_, rep, _ = Read(bytes.NewReader(data[:len(data)-3]), "cut.pcapng", Options{})
	if rep.Truncated == nil || rep.Truncated.Packet != truth.Packets || rep.Packets != truth.Packets-1 {
		t.Errorf("cut pcapng: %d packets, truncated %+v", rep.Packets, rep.Truncated)
	}
	// Damage the 5th block (the 3rd packet): its captured length runs
	// past the block.
	off := 0
	for i := 0; i < 4; i++ {
		off += int(binary.LittleEndian.Uint32(data[off+4:]))
	}
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[off+20:], 1<<31)
	_, rep, _ = Read(bytes.NewReader(bad), "bad.pcapng", Options{})
	if rep.Truncated == nil || rep.Truncated.Packet != 3 || !strings.Contains(rep.Truncated.Error, "captured bytes") {
		t.Errorf("damaged pcapng: %d packets, truncated %+v", rep.Packets, rep.Truncated)
	}
	// A timestamp resolution pcapgo would divide by zero with.
	bad = bytes.Clone(data)
	shb := int(binary.LittleEndian.Uint32(data[4:]))
	idb := bad[shb:]
	for o := 16; o+4 <= int(binary.LittleEndian.Uint32(idb[4:]))-4; {
		code, n := binary.LittleEndian.Uint16(idb[o:]), int(binary.LittleEndian.Uint16(idb[o+2:]))
		if code == 9 {
			idb[o+4] = 0xff // 2^-127
		}
		o += (4 + n + 3) &^ 3
	}
	if _, _, err := Read(bytes.NewReader(bad), "tsresol.pcapng", Options{}); err == nil ||
		!strings.Contains(err.Error(), "cannot read packet 1: pcapng block at byte") || !strings.Contains(err.Error(), "timestamp resolution") {
		t.Errorf("bad if_tsresol: %v", err)
	}
}

// TestIngestNotCaptures: garbage, empty and short inputs are refused with
// a one-line error naming the file.
func TestIngestNotCaptures(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("hello, not a capture"))
	zw.Close()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a packet capture: only 0 bytes"},
		{"text", []byte("id,src,dst\n1,2,3\n"), "not a pcap or pcapng file (starts with 69 64 2c 73)"},
		{"short pcap header", []byte{0xd4, 0xc3, 0xb2, 0xa1, 2, 0}, "pcap header"},
		{"modified pcap", []byte{0x34, 0xcd, 0xb2, 0xa1, 0, 0, 0, 0}, "Kuznetzov"},
		{"gzip of text", gz.Bytes(), "not a pcap or pcapng file"},
		{"pcapng without byte-order magic", []byte{0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 1, 2, 3, 4}, "pcapng header"},
	} {
		_, rep, err := Read(bytes.NewReader(c.data), "x.pcap", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "x.pcap: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
		if rep != nil {
			t.Errorf("%s: a report with an error", c.name)
		}
	}
}

// TestIngestGzip reads a gzip-compressed capture.
func TestIngestGzip(t *testing.T) {
	data, truth := smallCapture(t, examplegen.Pcapng)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	tr, rep := load(t, gz.Bytes(), Options{})
	if rep.Format != "pcapng (gzip)" || len(tr.Messages) != len(truth.Messages) {
		t.Errorf("gzip: format %q, %d messages", rep.Format, len(tr.Messages))
	}
}

// TestIngestLinkTypes reads one RoCEv2 frame under each supported link
// type and refuses the others by name.
func TestIngestLinkTypes(t *testing.T) {
	data, _ := generate(t, examplegen.Config{Hosts: 2, MessageBytes: 100}) // WRITE ONLY, ACK, ...
	var eth []byte
	filterCapture(t, data, func(i int, f []byte) bool {
		if i == 0 {
			eth = f
		}
		return true
	})
	ip := eth[14:]
	sll := append([]byte{0, 4, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00}, ip...)
	for _, c := range []struct {
		lt    uint16
		frame []byte
		name  string
	}{
		{1, eth, "Ethernet (1)"},
		{101, ip, "raw IP (101)"},
		{228, ip, "raw IPv4 (228)"},
		{113, sll, "Linux cooked (SLL) (113)"},
	} {
		tr, rep := load(t, writePcap(t, c.lt, []frameAt{{data: c.frame}}), Options{})
		if rep.LinkType != c.name || len(tr.Messages) != 1 || tr.Messages[0].Bytes != 100 {
			t.Errorf("link type %d: %q, %d messages", c.lt, rep.LinkType, len(tr.Messages))
		}
	}
	for _, c := range []struct {
		lt   uint16
		want string
	}{
		{197, "ERF (197) is not supported"},
		{247, "InfiniBand (247) is not supported"},
		{276, "Linux cooked v2 (SLL2) (276) is not supported"}, // not aliased to 20 as gopacket's 8 bits would
		{257, "link type 257 is not supported"},                // not aliased to Ethernet
	} {
		_, _, err := Read(bytes.NewReader(writePcap(t, c.lt, []frameAt{{data: eth}})), "lt.pcap", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("link type %d: %v, want %q", c.lt, err, c.want)
		}
	}
}

// TestIngestPcapngBigLinkType checks that the guard keeps pcapgo from
// aliasing a 16-bit link type of a pcapng interface.
func TestIngestPcapngBigLinkType(t *testing.T) {
	data, _ := smallCapture(t, examplegen.Pcapng)
	shb := int(binary.LittleEndian.Uint32(data[4:]))
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint16(bad[shb+8:], 257) // would alias to Ethernet
	_, _, err := Read(bytes.NewReader(bad), "big.pcapng", Options{})
	if err == nil || !strings.Contains(err.Error(), "link type 257 is not supported") {
		t.Errorf("pcapng link type 257: %v", err)
	}
}

func TestIsCapture(t *testing.T) {
	for path, want := range map[string]bool{
		"a.pcap": true, "b.PCAPNG": true, "c.cap": true, "d.pcap.gz": true, "e.csv": false, "f.parquet": false, "pcap": false,
	} {
		if IsCapture(path) != want {
			t.Errorf("IsCapture(%q) = %v", path, !want)
		}
	}
}

// TestGzipBombRefused: a gzip-compressed capture that inflates past
// limits.MaxCaptureInflateFloor at more than limits.MaxCaptureInflateRatio
// times its compressed size (here a pcap header and 80 MiB of zero
// records, about 1,000 to 1) is refused with an error saying so, not read
// to its end nor taken for a truncated capture.
func TestGzipBombRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 65 MiB")
	}
	hdr := writePcap(t, 1, nil) // Ethernet, no packets
	member := func(b []byte) []byte {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return z.Bytes()
	}
	// A gzip stream may be several members, read one after the other.
	gz := bytes.NewBuffer(member(hdr))
	zero := member(make([]byte, 1<<20))
	for i := 0; i < 80; i++ {
		gz.Write(zero)
	}
	_, _, err := Read(bytes.NewReader(gz.Bytes()), "bomb.pcap.gz", Options{})
	if err == nil || !strings.Contains(err.Error(), "bomb.pcap.gz: the gzip stream inflates more than 250 times") {
		t.Fatalf("err %v, want the inflate ratio refused", err)
	}
}
