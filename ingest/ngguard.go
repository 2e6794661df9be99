package ingest

import (
	"encoding/binary"
	"fmt"
	"io"
)

// pcapng block types (draft-ietf-opsawg-pcapng §4).
const (
	ngSHB = 0x0a0d0d0a // section header
	ngIDB = 0x00000001 // interface description
	ngPB  = 0x00000002 // packet (obsolete)
	ngSPB = 0x00000003 // simple packet
	ngEPB = 0x00000006 // enhanced packet

	ngByteOrderMagic = 0x1a2b3c4d
	ngMaxBlock       = maxPacketBytes + 1<<16 // a packet and generous options
	ngOptTSResol     = 9                      // if_tsresol

	// ngBigLinkType replaces link types above 255 in interface blocks:
	// pcapgo keeps 8 bits and would alias them to others (276 to 20).
	ngBigLinkType = 255
)

// ngGuard passes a pcapng stream to pcapgo one whole block at a time,
// after checking the block's framing and the fields pcapgo uses to size
// allocations or to divide:
//
//   - the block length is a multiple of 4, at least 12, at most
//     ngMaxBlock, and repeated at the block's end;
//   - an enhanced or obsolete packet block's captured length fits in the
//     block;
//   - an interface's snap length (0 means unlimited) is lowered to
//     maxPacketBytes, which bounds pcapgo's packet buffer and the captured
//     length of simple packet blocks;
//   - an interface's link type above 255 becomes ngBigLinkType (the
//     original is kept in bigLinkType, for messages);
//   - an interface's if_tsresol option is a power of 10 up to 10^-19 or a
//     power of 2 up to 2^-63 (beyond, pcapgo divides by zero).
//
// The first bad block ends the stream with an error: packets before it
// are read normally.
type ngGuard struct {
	r      io.Reader
	order  binary.ByteOrder
	block  []byte // the current block
	unread []byte // what is left of it for pcapgo
	off    int64  // file offset of the current block
	err    error
	// bigLinkType is the last link type above 255 seen, or 0.
	bigLinkType linkType
}

// Read serves the checked blocks, then the error that ended them.
func (g *ngGuard) Read(p []byte) (int, error) {
	for len(g.unread) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		g.err = g.nextBlock()
	}
	n := copy(p, g.unread)
	g.unread = g.unread[n:]
	return n, nil
}

// nextBlock reads and checks one block into g.block.
func (g *ngGuard) nextBlock() error {
	g.off += int64(len(g.block))
	var hdr [12]byte
	if n, err := io.ReadFull(g.r, hdr[:8]); err != nil {
		if n == 0 && err == io.EOF {
			return io.EOF
		}
		return io.ErrUnexpectedEOF
	}
	if binary.LittleEndian.Uint32(hdr[:4]) == ngSHB {
		if _, err := io.ReadFull(g.r, hdr[8:12]); err != nil {
			return io.ErrUnexpectedEOF
		}
		switch {
		case binary.LittleEndian.Uint32(hdr[8:12]) == ngByteOrderMagic:
			g.order = binary.LittleEndian
		case binary.BigEndian.Uint32(hdr[8:12]) == ngByteOrderMagic:
			g.order = binary.BigEndian
		default:
			return g.errorf("section header with a bad byte-order magic")
		}
	}
	if g.order == nil {
		return g.errorf("pcapng does not start with a section header")
	}
	typ := g.order.Uint32(hdr[:4])
	length := g.order.Uint32(hdr[4:8])
	if length < 12 || length%4 != 0 || length > ngMaxBlock || (typ == ngSHB && length < 28) {
		return g.errorf("block type %#x has length %d (want a multiple of 4 in 12..%d)", typ, length, ngMaxBlock)
	}
	if cap(g.block) < int(length) {
		g.block = make([]byte, length)
	}
	b := g.block[:length]
	head := 8
	if typ == ngSHB {
		head = 12
	}
	copy(b, hdr[:head])
	if _, err := io.ReadFull(g.r, b[head:]); err != nil {
		g.block = b[:0]
		return io.ErrUnexpectedEOF
	}
	g.block = b
	if g.order.Uint32(b[length-4:]) != length {
		return g.errorf("block type %#x: trailing length %d differs from %d", typ, g.order.Uint32(b[length-4:]), length)
	}
	if err := g.check(typ, b); err != nil {
		return err
	}
	g.unread = b
	return nil
}

// check validates (and for interfaces, adjusts) one framed block.
func (g *ngGuard) check(typ uint32, b []byte) error {
	body := b[8 : len(b)-4]
	switch typ {
	case ngEPB, ngPB:
		if len(body) < 20 {
			return g.errorf("packet block of %d bytes", len(b))
		}
		if caplen := g.order.Uint32(body[12:16]); uint64(caplen) > uint64(len(body)-20) {
			return g.errorf("packet block claims %d captured bytes in %d", caplen, len(body)-20)
		}
	case ngSPB:
		if len(body) < 4 {
			return g.errorf("simple packet block of %d bytes", len(b))
		}
	case ngIDB:
		if len(body) < 8 {
			return g.errorf("interface block of %d bytes", len(b))
		}
		if lt := g.order.Uint16(body[0:2]); lt > 255 {
			g.bigLinkType = linkType(lt)
			g.order.PutUint16(body[0:2], ngBigLinkType)
		}
		if snap := g.order.Uint32(body[4:8]); snap == 0 || snap > maxPacketBytes {
			g.order.PutUint32(body[4:8], maxPacketBytes)
		}
		return g.checkOptions(body[8:])
	}
	return nil
}

// checkOptions walks an interface block's options and rejects a
// timestamp resolution pcapgo cannot convert.
func (g *ngGuard) checkOptions(opts []byte) error {
	for len(opts) >= 4 {
		code, n := g.order.Uint16(opts[:2]), int(g.order.Uint16(opts[2:4]))
		if code == 0 {
			return nil
		}
		if 4+n > len(opts) {
			return g.errorf("interface option %d of %d bytes overruns its block", code, n)
		}
		if code == ngOptTSResol && n >= 1 {
			v := opts[4]
			if (v&0x80 != 0 && v&0x7f > 63) || (v&0x80 == 0 && v > 19) {
				return g.errorf("interface timestamp resolution %#x is out of range", v)
			}
		}
		step := (4 + n + 3) &^ 3
		if step > len(opts) {
			return nil // the last option's padding is missing: harmless
		}
		opts = opts[step:]
	}
	return nil
}

func (g *ngGuard) errorf(format string, a ...any) error {
	return fmt.Errorf("pcapng block at byte %d: "+format, append([]any{g.off}, a...)...)
}
