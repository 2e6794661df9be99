package hpccfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
)

// FCTRow is one line of the simulator's fct.txt: a finished flow.
type FCTRow struct {
	// ID is the flow id the research fork's fct.txt (Parsimon and m3
	// backends of the simulator) prints before the eight fields; -1 on a
	// line of the original layout. WriteFCT does not write it.
	ID int64
	// Src and Dst are HPCC node ids, 0..65535 (printed as their IPs).
	Src, Dst int
	// SPort and DPort are the UDP ports, 0..65535 (see SourcePorts).
	SPort, DPort int
	// Size is the payload in bytes.
	Size int64
	// StartNs is when the flow started, FCTNs its completion time and
	// StandaloneNs its ideal FCT alone in the network (base RTT plus
	// size with headers at the bottleneck rate), all nanoseconds.
	StartNs, FCTNs, StandaloneNs int64
}

// MaxNode is the largest node id an HPCC IP address can hold.
const MaxNode = 0xffff

// NodeIP is the simulator's node_id_to_ip: 0x0b000001 + (id/256)*0x10000
// + (id%256)*0x100, e.g. node 1 is 0x0b000101 (11.0.1.1). id must be in
// 0..MaxNode.
func NodeIP(id int) uint32 {
	return 0x0b000001 + uint32(id/256)*0x10000 + uint32(id%256)*0x100
}

// IPNode is the simulator's ip_to_node_id, (ip >> 8) & 0xffff.
func IPNode(ip uint32) int { return int(ip>>8) & 0xffff }

// WriteFCT writes rows in the simulator's fct.txt layout, one line each:
// "%08x %08x %u %u %lu %lu %lu %lu" (src IP, dst IP, sport, dport, size,
// start, FCT, standalone FCT).
func WriteFCT(w io.Writer, rows []FCTRow) error {
	bw := bufio.NewWriter(w)
	for i, r := range rows {
		switch {
		case r.Src < 0 || r.Src > MaxNode || r.Dst < 0 || r.Dst > MaxNode:
			return fmt.Errorf("fct row %d: nodes %d and %d must be in 0..%d (an HPCC IP holds 16 bits of node id)", i, r.Src, r.Dst, MaxNode)
		case r.SPort < 0 || r.SPort > 65535 || r.DPort < 0 || r.DPort > 65535:
			return fmt.Errorf("fct row %d: ports %d and %d must be in 0..65535", i, r.SPort, r.DPort)
		case r.Size < 0 || r.StartNs < 0 || r.FCTNs < 0 || r.StandaloneNs < 0:
			return fmt.Errorf("fct row %d: size and times must be >= 0, got %+v", i, r)
		}
		fmt.Fprintf(bw, "%08x %08x %d %d %d %d %d %d\n", NodeIP(r.Src), NodeIP(r.Dst), r.SPort, r.DPort, r.Size, r.StartNs, r.FCTNs, r.StandaloneNs)
	}
	return bw.Flush()
}

// ReadFCT reads an fct.txt as WriteFCT and the simulator write it, and
// the research fork's lines with a flow id before the eight fields (each
// line's field count tells which). name is used in errors ("fct.txt:3:
// ..."). Blank lines are skipped.
func ReadFCT(r io.Reader, name string) ([]FCTRow, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), limits.MaxTableLineBytes)
	var rows []FCTRow
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		row, err := parseFCT(f)
		if err != nil {
			return nil, &trace.ParseError{File: name, Line: line, Err: err}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, line+1, err)
	}
	return rows, nil
}

func parseFCT(f []string) (FCTRow, error) {
	r := FCTRow{ID: -1}
	switch len(f) {
	case 8:
	case 9:
		id, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || id < 0 {
			return r, fmt.Errorf("flow id %q: want an integer >= 0", f[0])
		}
		r.ID, f = id, f[1:]
	default:
		return r, fmt.Errorf("want 8 fields (src_ip dst_ip sport dport size_bytes start_ns fct_ns standalone_fct_ns), or 9 with a flow id first, got %d", len(f))
	}
	for i, dst := range []*int{&r.Src, &r.Dst} {
		ip, err := strconv.ParseUint(f[i], 16, 32)
		if err != nil {
			return r, fmt.Errorf("ip %q: want 8 hex digits", f[i])
		}
		id := IPNode(uint32(ip))
		if NodeIP(id) != uint32(ip) {
			return r, fmt.Errorf("ip %q is not an HPCC node address (0x0b000001 + (id/256)*0x10000 + (id%%256)*0x100)", f[i])
		}
		*dst = id
	}
	for i, dst := range []*int{&r.SPort, &r.DPort} {
		p, err := strconv.Atoi(f[2+i])
		if err != nil || p < 0 || p > 65535 {
			return r, fmt.Errorf("port %q: want 0..65535", f[2+i])
		}
		*dst = p
	}
	for i, dst := range []*int64{&r.Size, &r.StartNs, &r.FCTNs, &r.StandaloneNs} {
		v, err := strconv.ParseInt(f[4+i], 10, 64)
		if err != nil || v < 0 {
			return r, errors.New([]string{"size", "start_ns", "fct_ns", "standalone_fct_ns"}[i] + " " + strconv.Quote(f[4+i]) + ": want an integer >= 0")
		}
		*dst = v
	}
	return r, nil
}

// scanError names the file of a line reader's error, and the line when
// it is longer than limits.MaxTableLineBytes.
func scanError(name string, line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &trace.ParseError{File: name, Line: line, Err: fmt.Errorf("line longer than %s (docs/LIMITS.md)",
			limits.SizeString(limits.MaxTableLineBytes))}
	}
	return fmt.Errorf("%s: %w", name, err)
}
