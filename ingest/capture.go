package ingest

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// maxPacketBytes bounds the captured length of one packet (the largest
// snap length tcpdump and Wireshark use). pcapgo trusts the lengths in the
// file when it allocates, so a damaged or hostile file could otherwise ask
// for gigabytes.
const maxPacketBytes = 262144

// Magic numbers at the start of capture files (read little-endian).
const (
	magicPcapMicro    = 0xa1b2c3d4 // classic pcap, microsecond timestamps
	magicPcapNano     = 0xa1b23c4d // classic pcap, nanosecond timestamps
	magicPcapModified = 0xa1b2cd34 // Kuznetzov's modified pcap (not supported)
	magicPcapng       = 0x0a0d0d0a // pcapng section header block type
)

// source is an open capture: packets with their capture info and link
// type, in file order.
type source interface {
	// next returns the next packet; the data is valid until the following
	// call. It returns io.EOF at a clean end of the file.
	next() ([]byte, gopacket.CaptureInfo, linkType, error)
}

// capture describes an open capture file.
type capture struct {
	src source
	// format is "pcap" or "pcapng", with " (gzip)" when compressed.
	format string
	// ng is set for pcapng, whose interfaces each have a link type, known
	// packet by packet.
	ng bool
	// linkType is the link type of a classic pcap file.
	linkType linkType
	// resolution is "ns" or "us" for classic pcap files, "" for pcapng.
	resolution string
	// inflate bounds a gzip-compressed capture's decompression; nil
	// when not compressed.
	inflate *inflateGuard
}

// inflateGuard reads a gzip stream's decompressed bytes and fails once
// they pass limits.MaxCaptureInflatedBytes, or pass
// limits.MaxCaptureInflateFloor and more than
// limits.MaxCaptureInflateRatio times the compressed bytes read: a gzip
// bomb (deflate inflates up to 1,032 times) is refused after 64 MiB
// (about a second) instead of being read for many seconds.
type inflateGuard struct {
	z   io.Reader
	in  *limits.CountingReader // the compressed stream
	out int64                  // decompressed bytes served
	err error                  // the refusal, once made
}

func (g *inflateGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.z.Read(p)
	g.out += int64(n)
	switch {
	case g.out > limits.MaxCaptureInflatedBytes:
		g.err = fmt.Errorf("the gzip stream inflates to more than %s, the limit of a compressed capture (docs/LIMITS.md)",
			limits.SizeString(limits.MaxCaptureInflatedBytes))
	case g.out > limits.MaxCaptureInflateFloor && g.out > limits.MaxCaptureInflateRatio*g.in.N:
		g.err = fmt.Errorf("the gzip stream inflates more than %d times (%d bytes from %d), the limit of a compressed capture: a gzip bomb? (docs/LIMITS.md)",
			limits.MaxCaptureInflateRatio, g.out, g.in.N)
	}
	if g.err != nil {
		return 0, g.err
	}
	return n, err
}

// openCapture recognises a pcap or pcapng stream (optionally gzip
// compressed) by its first bytes and opens it with gopacket's pcapgo.
func openCapture(r io.Reader) (*capture, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(4)
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("not a packet capture: only %d bytes", len(head))
		}
		return nil, err
	}
	gz := ""
	var guard *inflateGuard
	if head[0] == 0x1f && head[1] == 0x8b {
		cr := &limits.CountingReader{R: br}
		zr, err := gzip.NewReader(cr)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		guard = &inflateGuard{z: zr, in: cr}
		br = bufio.NewReaderSize(guard, 1<<16)
		gz = " (gzip)"
		if head, err = br.Peek(4); err != nil {
			if guard.err != nil {
				return nil, guard.err
			}
			return nil, fmt.Errorf("gzip-compressed but not a packet capture: %v", err)
		}
	}
	le, be := binary.LittleEndian.Uint32(head), binary.BigEndian.Uint32(head)
	switch {
	case le == magicPcapMicro || le == magicPcapNano || be == magicPcapMicro || be == magicPcapNano:
		hdr, _ := br.Peek(24)
		pr, err := pcapgo.NewReader(br)
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				err = fmt.Errorf("%d bytes, need 24", len(hdr))
			}
			return nil, fmt.Errorf("pcap header: %v", err)
		}
		// pcapgo keeps 8 bits of the link type; the header has 16 (and FCS
		// flags above them).
		lt := linkType(binary.LittleEndian.Uint32(hdr[20:24]) & 0xffff)
		if be == magicPcapMicro || be == magicPcapNano {
			lt = linkType(binary.BigEndian.Uint32(hdr[20:24]) & 0xffff)
		}
		// NB: a larger snap length than the header's is deliberate: some
		// writers exceed their own (pcapgo's SetSnaplen explains), and it
		// bounds pcapgo's buffer.
		pr.SetSnaplen(maxPacketBytes)
		res := "us"
		if le == magicPcapNano || be == magicPcapNano {
			res = "ns"
		}
		return &capture{src: &pcapSource{r: pr, lt: lt}, format: "pcap" + gz, linkType: lt, resolution: res, inflate: guard}, nil
	case le == magicPcapng:
		g := &ngGuard{r: br}
		nr, err := pcapgo.NewNgReader(g, pcapgo.NgReaderOptions{WantMixedLinkType: true})
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("pcapng header: %v", err)
		}
		return &capture{src: &ngSource{r: nr, g: g}, format: "pcapng" + gz, ng: true, inflate: guard}, nil
	case le == magicPcapModified || be == magicPcapModified:
		return nil, errors.New("modified (Kuznetzov) pcap format is not supported: convert it with editcap -F pcap")
	}
	return nil, fmt.Errorf("not a pcap or pcapng file (starts with % x)", head)
}

// linkType is a capture's LINKTYPE_ value (tcpdump.org/linktypes.html).
// NB: gopacket's layers.LinkType has 8 bits, too few for values such as
// 276 (Linux cooked v2), which it would alias to others.
type linkType uint16

// pcapSource reads a classic pcap file.
type pcapSource struct {
	r  *pcapgo.Reader
	lt linkType
}

func (s *pcapSource) next() ([]byte, gopacket.CaptureInfo, linkType, error) {
	data, ci, err := s.r.ZeroCopyReadPacketData()
	if err == io.EOF && ci.CaptureLength > 0 {
		// The record header was read but none of its data: pcapgo says
		// EOF as at the end of the last record.
		err = io.ErrUnexpectedEOF
	}
	return data, ci, s.lt, err
}

// ngSource reads a pcapng file, whose interfaces may differ in link type.
type ngSource struct {
	r *pcapgo.NgReader
	g *ngGuard
}

func (s *ngSource) next() (data []byte, ci gopacket.CaptureInfo, lt linkType, err error) {
	// NB: pcapgo's pcapng reader indexes and divides by values from the
	// file; ngGuard screens the blocks, and this turns anything it missed
	// into an error instead of a crash.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("damaged pcapng block: %v", r)
		}
	}()
	data, ci, err = s.r.ZeroCopyReadPacketData()
	if err != nil {
		return nil, ci, 0, err
	}
	if len(ci.AncillaryData) > 0 {
		l, _ := ci.AncillaryData[0].(layers.LinkType)
		lt = linkType(l)
	}
	if lt == ngBigLinkType && s.g.bigLinkType != 0 {
		lt = s.g.bigLinkType
	}
	return data, ci, lt, nil
}

// linkTypeNames names the link types ingest reports on; gopacket knows
// fewer of them.
var linkTypeNames = map[linkType]string{
	0: "BSD loopback", 1: "Ethernet", 101: "raw IP", 105: "IEEE 802.11", 113: "Linux cooked (SLL)",
	127: "802.11 radiotap", 197: "ERF", 228: "raw IPv4", 229: "raw IPv6", 247: "InfiniBand", 276: "Linux cooked v2 (SLL2)",
}

// linkTypeName returns "Ethernet (1)", "ERF (197)", "link type 42".
func linkTypeName(lt linkType) string {
	if n, ok := linkTypeNames[lt]; ok {
		return fmt.Sprintf("%s (%d)", n, uint16(lt))
	}
	return fmt.Sprintf("link type %d", uint16(lt))
}

// firstLayer returns the layer a packet of link type lt starts with, or
// false when ingest does not decode that link type. Raw IP packets start
// with IPv4 or IPv6 according to their version nibble.
func firstLayer(lt linkType, data []byte) (gopacket.LayerType, bool) {
	switch lt {
	case linkType(layers.LinkTypeEthernet):
		return layers.LayerTypeEthernet, true
	case linkType(layers.LinkTypeLinuxSLL):
		return layers.LayerTypeLinuxSLL, true
	case linkType(layers.LinkTypeIPv4):
		return layers.LayerTypeIPv4, true
	case linkType(layers.LinkTypeIPv6):
		return layers.LayerTypeIPv6, true
	case linkType(layers.LinkTypeRaw):
		if len(data) > 0 && data[0]>>4 == 6 {
			return layers.LayerTypeIPv6, true
		}
		return layers.LayerTypeIPv4, true
	}
	return gopacket.LayerTypeZero, false
}

// linkTypeOK reports whether ingest decodes link type lt.
func linkTypeOK(lt linkType) bool {
	_, ok := firstLayer(lt, nil)
	return ok
}

// errLinkType refuses a capture whose link type ingest does not decode.
func errLinkType(lt linkType) error {
	why := ""
	if lt == 197 || lt == 247 {
		why = "; native InfiniBand captures have no IP addresses to map to hosts (capture RoCEv2 on Ethernet instead)"
	}
	return fmt.Errorf("%s is not supported: ingest reads Ethernet (1), Linux cooked (113) and raw IP (101, 228, 229) captures%s",
		linkTypeName(lt), why)
}
