package fabric

// Ring is a growable FIFO queue backed by a power-of-two circular buffer.
// Push and Pop allocate nothing once the buffer has grown to the working
// size.
type Ring[T any] struct {
	buf        []T
	head, size int
}

// Len is the number of queued items.
func (r *Ring[T]) Len() int { return r.size }

// Push appends v at the tail.
func (r *Ring[T]) Push(v T) {
	if r.size == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.size)&(len(r.buf)-1)] = v
	r.size++
}

// Peek returns a pointer to the head item; the ring must not be empty.
func (r *Ring[T]) Peek() *T { return &r.buf[r.head] }

// At returns a pointer to the i-th item from the head (0 <= i < Len).
func (r *Ring[T]) At(i int) *T { return &r.buf[(r.head+i)&(len(r.buf)-1)] }

// Pop removes and returns the head item; the ring must not be empty.
func (r *Ring[T]) Pop() T {
	var zero T
	v := r.buf[r.head]
	r.buf[r.head] = zero
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.size--
	return v
}

func (r *Ring[T]) grow() {
	n := len(r.buf) * 2
	if n == 0 {
		n = 16
	}
	nb := make([]T, n)
	for i := 0; i < r.size; i++ {
		nb[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = nb, 0
}
