package output

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
)

// ReorderWindow is the number of rows a Reorder holds in memory ahead of
// the next one; rows farther ahead are spilled.
const ReorderWindow = 8192

// spillBatch is the number of rows spilled at once, as one sorted run;
// runBuffer the number of a run's records read back at once.
const (
	spillBatch = 8192
	runBuffer  = 32
)

// Reorder hands rows that are made in any order on in the order of their
// indices 0, 1, 2, ...: a row goes to out as soon as every row before it
// has. A row made ahead of its turn waits: within ReorderWindow rows of
// the next one in memory, farther ahead in a spill file, written in runs
// of spillBatch rows sorted by index (one write each, codec's records
// after their index) and merged back as their turn comes, runBuffer
// records of each run at a time. So what it holds in memory grows by
// about runBuffer records for each spillBatch rows spilled, not by the
// rows, whatever their order. The spill file is made in dir only when
// needed and removed by Close and Abort.
//
// A Reorder is not safe for concurrent use.
type Reorder[T any] struct {
	next    int    // index of the next row to hand on
	ring    []T    // rows next..next+ReorderWindow-1, slot index & (len-1)
	have    []bool // as ring
	out     func(*T)
	dir     string
	codec   RowCodec[T]
	rec     int          // bytes of a spilled record: index and row
	batch   []spilled[T] // rows to spill, not yet written (a row handed on from it leaves a hole)
	keys    []batchKey   // the rows of batch still waiting: a min-heap by index
	spill   *os.File     // nil until a run is written
	size    int64        // bytes written to spill
	runs    runHeap[T]   // runs with rows left, by the index of their next row
	enc     []byte       // one run's records
	waiting int          // rows put and not handed on
	err     error        // first spill error; returned by Close
}

type spilled[T any] struct {
	i   int
	row T
}

// batchKey is a row of the batch: its index and its position in batch.
// NB: the batch is ordered through these small keys (a heap to find the
// next row, a sort to write a run) instead of a map and a sort of whole
// rows: rows are large, and a map assignment per row spilled cost more
// than the heap (a profile of the 1,024-host OSU all-to-all).
type batchKey struct {
	i int
	k int32
}

// run is a sorted run of the spill file: its records at off..end, and
// those read back and not handed on.
type run[T any] struct {
	off, end int64
	buf      []spilled[T]
}

type runHeap[T any] []*run[T]

// NewReorder starts handing rows on to out, with its spill file (if one is
// needed) in dir, its rows written with codec.
func NewReorder[T any](dir string, codec RowCodec[T], out func(*T)) *Reorder[T] {
	return &Reorder[T]{ring: make([]T, ReorderWindow), have: make([]bool, ReorderWindow), out: out, dir: dir,
		codec: codec, rec: 8 + codec.Size}
}

// Put takes row i (a copy of it). Each index is put once.
func (o *Reorder[T]) Put(i int, row *T) {
	if i < o.next || o.err != nil {
		if o.err == nil {
			o.err = fmt.Errorf("output: row %d put twice", i)
		}
		return
	}
	o.waiting++
	if i >= o.next+len(o.ring) {
		o.pushKey(batchKey{i, int32(len(o.batch))})
		o.batch = append(o.batch, spilled[T]{i, *row})
		if len(o.batch) == spillBatch {
			o.writeRun()
		}
		return
	}
	slot := i & (len(o.ring) - 1)
	o.ring[slot], o.have[slot] = *row, true
	if i == o.next {
		o.drain()
	}
}

// drain hands on the next rows while they are here: in the ring, in the
// batch not yet spilled, or at the head of a run.
func (o *Reorder[T]) drain() {
	var zero T
	for o.err == nil {
		slot := o.next & (len(o.ring) - 1)
		if o.have[slot] {
			o.out(&o.ring[slot])
			o.ring[slot], o.have[slot] = zero, false
		} else if len(o.keys) > 0 && o.keys[0].i == o.next {
			k := o.keys[0].k
			o.out(&o.batch[k].row)
			o.batch[k] = spilled[T]{}
			o.popKey()
		} else if len(o.runs) > 0 && o.runs[0].buf[0].i == o.next {
			r := o.runs[0]
			o.out(&r.buf[0].row)
			r.buf = r.buf[1:]
			if err := o.refill(r); err != nil {
				o.err = err
				return
			}
			if len(r.buf) == 0 {
				o.runs.pop()
			} else {
				o.runs.fix()
			}
		} else {
			return
		}
		o.next++
		o.waiting--
	}
}

// writeRun writes the rows of the batch still waiting as one run sorted
// by index.
func (o *Reorder[T]) writeRun() {
	if len(o.keys) == 0 {
		clear(o.batch)
		o.batch = o.batch[:0]
		return
	}
	slices.SortFunc(o.keys, func(a, b batchKey) int { return cmp.Compare(a.i, b.i) })
	if o.spill == nil {
		f, err := os.CreateTemp(o.dir, ".rows-*.spill")
		if err != nil {
			o.err = fmt.Errorf("output: spill file: %w", err)
			return
		}
		o.spill = f
	}
	o.enc = slices.Grow(o.enc[:0], len(o.keys)*o.rec)[:len(o.keys)*o.rec]
	for j, key := range o.keys {
		b := o.enc[j*o.rec:]
		binary.LittleEndian.PutUint64(b, uint64(key.i))
		o.codec.Encode(b[8:], &o.batch[key.k].row)
	}
	if _, err := o.spill.WriteAt(o.enc, o.size); err != nil {
		o.err = fmt.Errorf("output: spill file: %w", err)
		return
	}
	r := &run[T]{off: o.size, end: o.size + int64(len(o.enc))}
	o.size = r.end
	clear(o.batch)
	o.batch = o.batch[:0]
	o.keys = o.keys[:0]
	if err := o.refill(r); err != nil {
		o.err = err
		return
	}
	o.runs.push(r)
}

// refill reads the next records of r when its buffer is empty.
func (o *Reorder[T]) refill(r *run[T]) error {
	if len(r.buf) > 0 || r.off == r.end {
		return nil
	}
	n := min(int64(runBuffer*o.rec), r.end-r.off)
	b := make([]byte, n)
	if _, err := o.spill.ReadAt(b, r.off); err != nil {
		return fmt.Errorf("output: spill file: %w", err)
	}
	r.off += n
	r.buf = make([]spilled[T], n/int64(o.rec))
	for k := range r.buf {
		rb := b[k*o.rec:]
		r.buf[k].i = int(binary.LittleEndian.Uint64(rb))
		o.codec.Decode(rb[8:], &r.buf[k].row)
	}
	return nil
}

// pushKey adds a row of the batch to the heap of keys.
func (o *Reorder[T]) pushKey(key batchKey) {
	o.keys = append(o.keys, key)
	h := o.keys
	for k := len(h) - 1; k > 0; {
		p := (k - 1) / 2
		if h[p].i <= h[k].i {
			break
		}
		h[p], h[k] = h[k], h[p]
		k = p
	}
}

// popKey removes the smallest key from the heap.
func (o *Reorder[T]) popKey() {
	last := len(o.keys) - 1
	o.keys[0] = o.keys[last]
	o.keys = o.keys[:last]
	h := o.keys
	for k := 0; ; {
		m, l, r := k, 2*k+1, 2*k+2
		if l < len(h) && h[l].i < h[m].i {
			m = l
		}
		if r < len(h) && h[r].i < h[m].i {
			m = r
		}
		if m == k {
			return
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
}

func (h *runHeap[T]) push(r *run[T]) {
	*h = append(*h, r)
	for k := len(*h) - 1; k > 0; {
		p := (k - 1) / 2
		if (*h)[p].buf[0].i <= (*h)[k].buf[0].i {
			break
		}
		(*h)[p], (*h)[k] = (*h)[k], (*h)[p]
		k = p
	}
}

func (h *runHeap[T]) pop() {
	last := len(*h) - 1
	(*h)[0] = (*h)[last]
	(*h)[last] = nil
	*h = (*h)[:last]
	h.fix()
}

// fix restores the heap after the first run's head changed.
func (h runHeap[T]) fix() {
	for k := 0; ; {
		m, l, r := k, 2*k+1, 2*k+2
		if l < len(h) && h[l].buf[0].i < h[m].buf[0].i {
			m = l
		}
		if r < len(h) && h[r].buf[0].i < h[m].buf[0].i {
			m = r
		}
		if m == k {
			return
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
}

// Close checks that every row put was handed on (no index below one put
// is missing) and removes the spill file. It returns the first error met.
func (o *Reorder[T]) Close() error {
	o.Abort()
	if o.err != nil {
		return o.err
	}
	if o.waiting > 0 {
		return fmt.Errorf("output: %d rows wait for row %d, never put", o.waiting, o.next)
	}
	return nil
}

// Next is the number of rows handed on: every index below it.
func (o *Reorder[T]) Next() int { return o.next }

// Abort removes the spill file.
func (o *Reorder[T]) Abort() {
	if o.spill != nil {
		o.spill.Close()
		os.Remove(o.spill.Name())
		o.spill = nil
	}
}
