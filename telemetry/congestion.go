package telemetry

import "github.com/ccreplay/ccreplay/units"

// Congestion finds the most congested hop of a path from successive INT
// stacks, as FDCC (Zhang 2023), Section 4.2 ("Observations") defines it:
// per hop, QLEN = queue length / (link rate x base RTT) and SWITCHRATE =
// bytes the port sent since the previous sample x 8 / elapsed time / link
// rate; the most congested hop maximises QLEN + SWITCHRATE. A hop's first
// sample only seeds its rate. The FDCC controller (cca/fdcc) and the reward
// datasets (rl/dataset) share it, so both read the same features. The zero
// value is ready to use.
type Congestion struct {
	prev [MaxHops]Hop
	n    int // valid entries of prev
}

// Observe compares the stack hops with the previous one and returns the
// most congested hop's QLEN and SWITCHRATE (fractions) and its index in
// hops; ok is false when no hop had a previous sample with a positive
// link rate and a later timestamp (the caller keeps its previous values).
// baseRTT is the RTT the queue is normalised by, picoseconds. The stack is
// remembered for the next call.
func (c *Congestion) Observe(hops []Hop, baseRTT units.Time) (qlen, switchRate float64, hop int, ok bool) {
	best := 0.0
	n := min(len(hops), MaxHops)
	for j := range n {
		h := &hops[j]
		if j >= c.n || h.LinkRate <= 0 {
			continue
		}
		dt := h.TS - c.prev[j].TS
		if dt <= 0 {
			continue
		}
		q := 0.0
		if bdp := float64(h.LinkRate) * baseRTT.Seconds() / 8; bdp > 0 {
			q = float64(h.QLen) / bdp
		}
		tx := float64(h.TxBytes-c.prev[j].TxBytes) * 8 / dt.Seconds() / float64(h.LinkRate)
		if !ok || q+tx > best {
			best, qlen, switchRate, hop, ok = q+tx, q, tx, j, true
		}
	}
	c.n = n
	copy(c.prev[:n], hops[:n])
	return qlen, switchRate, hop, ok
}

// Reset forgets the previous stack.
func (c *Congestion) Reset() { c.n = 0 }
