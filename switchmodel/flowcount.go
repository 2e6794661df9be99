package switchmodel

import "fmt"

// flowSet is one egress port's flow counter, FDCC (Zhang 2023) Algorithm 2
// ("Flow number count on switch"): the set Egress_port_flow of the flows
// whose data crossed the port since their last WRITE LAST packet.
//
// Algorithm 2 line 1 keys the set by hash32(sip, dip, sport, dport); the
// key here is the flow (queue pair) id the packet carries
// (fabric.Packet.Flow), which names the same queue pair without hash
// collisions. Flow ids are dense small integers (replay numbers the flows
// 0, 1, 2, ... in trace order), so the set is a bitset indexed by flow id,
// grown to the highest id the port has seen. Once it has, an update
// allocates nothing; the set costs (highest id + 1) / 8 bytes per port.
//
// NB: "WRITE LAST" is read as fabric.Packet.Last, the last packet of a
// message. That flag is also set on the only packet of a one-packet
// message (an IB WRITE ONLY), so such a packet removes a flow already in
// the set; one whose flow is not in the set adds it (line 9) and the flow
// stays until a later Last packet of it crosses the port.
type flowSet struct {
	bits []uint64 // bit f%64 of word f/64 is set when flow f is in the set
	n    int32    // the set's size
}

// update runs Algorithm 2 lines 2-10 for a data packet of flow f (the last
// packet of its message when last) and returns the set's size after that
// update (line 11).
func (s *flowSet) update(f int32, last bool) int32 {
	w, b := int(uint32(f)>>6), uint64(1)<<(f&63)
	if w >= len(s.bits) {
		s.grow(f) // a flow id above any this port has seen (or a bad one)
	}
	switch {
	case s.bits[w]&b == 0: // line 9: an unseen flow is added
		s.bits[w] |= b
		s.n++
	case last: // line 6: a seen flow's WRITE LAST packet removes it
		s.bits[w] &^= b
		s.n--
	} // line 4: any other packet of a seen flow: pass
	return s.n
}

// grow extends the set to hold flow f. Appending a make allocates once,
// and append's capacity doubling amortizes the growth over the ids seen.
func (s *flowSet) grow(f int32) {
	if f < 0 {
		panic(fmt.Sprintf("switchmodel: flowSet.update: data packet with flow id %d", f))
	}
	s.bits = append(s.bits, make([]uint64, int(f>>6)+1-len(s.bits))...)
}

// FlowCount is the number of flows this port's counter holds (FDCC, Zhang
// 2023, Algorithm 2): what the next hop it stamps would carry before that
// packet's own update. It stays 0 unless Config.FlowCounter and
// Config.INT are both on.
func (e *Egress) FlowCount() int32 { return e.flows.n }
