package kernel

// heap4 is the 4-ary heap the kernel used before the radix heap, kept to
// compare the two in benchmarks (BenchmarkQueue*).
type heap4 struct{ h []event }

func (q *heap4) len() int { return len(q.h) }

func (q *heap4) push(e event) {
	q.h = append(q.h, e)
	siftUp(q.h, len(q.h)-1, e, 4)
}

// pop removes the earliest event by bottom-up deletion.
func (q *heap4) pop() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	q.h = h
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].less(&h[m]) {
				m = j
			}
		}
		h[i] = h[m]
		i = m
	}
	siftUp(h, i, last, 4)
	return top
}
