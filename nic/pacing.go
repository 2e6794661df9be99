package nic

// pacingHeap holds flows waiting for their next send time, earliest first
// (ties by flow id, so the order never depends on insertion history).
type pacingHeap struct{ h []*Flow }

func (p *pacingHeap) len() int   { return len(p.h) }
func (p *pacingHeap) min() *Flow { return p.h[0] }
func earlier(a, b *Flow) bool {
	return a.nextAvail < b.nextAvail || (a.nextAvail == b.nextAvail && a.ID < b.ID)
}

func (p *pacingHeap) push(f *Flow) {
	p.h = append(p.h, f)
	p.up(len(p.h) - 1)
}

func (p *pacingHeap) pop() *Flow {
	top := p.h[0]
	p.removeAt(0)
	return top
}

// remove takes f out of the heap (a linear search: a NIC paces few flows
// at a time).
func (p *pacingHeap) remove(f *Flow) {
	for i, g := range p.h {
		if g == f {
			p.removeAt(i)
			return
		}
	}
}

// removeAt takes out the flow at index i and restores the heap order.
func (p *pacingHeap) removeAt(i int) {
	last := len(p.h) - 1
	p.h[i] = p.h[last]
	p.h[last] = nil
	p.h = p.h[:last]
	if i == last {
		return
	}
	// The moved flow may belong above i (it came from another subtree)
	// or below it.
	i = p.up(i)
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && earlier(p.h[l], p.h[m]) {
			m = l
		}
		if r < last && earlier(p.h[r], p.h[m]) {
			m = r
		}
		if m == i {
			break
		}
		p.h[i], p.h[m] = p.h[m], p.h[i]
		i = m
	}
}

// up moves the flow at index i towards the root while it is earlier than
// its parent, and returns where it stops.
func (p *pacingHeap) up(i int) int {
	for i > 0 {
		parent := (i - 1) / 2
		if !earlier(p.h[i], p.h[parent]) {
			break
		}
		p.h[i], p.h[parent] = p.h[parent], p.h[i]
		i = parent
	}
	return i
}
