package kernel

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/units"
)

// ring is a toy network for Group tests: n nodes on a ring and n tokens
// going round it. Each event at a node appends to the node's log; a
// token's arrival may also schedule a local event (at the same time or
// later) and passes the token to the next node d or 2d later, through a
// key taken now and scheduled at the barrier when the next node runs in
// another partition (what fabric does with packets).
type ring struct {
	n     int
	d     units.Time
	end   units.Time
	sims  []*Sim // per node: the Sim running it
	ids   []HandlerID
	logs  [][]string
	rngs  []*rand.Rand
	out   [][]transfer // per partition: sent to other partitions this window
	parts []int
}

type transfer struct {
	sim *Sim
	at  units.Time
	k   Key
	h   HandlerID
	arg int32
}

type ringNode struct {
	r    *ring
	node int
}

func (x *ringNode) Handle(now units.Time, kind uint8, arg int32) {
	r, i := x.r, x.node
	r.logs[i] = append(r.logs[i], fmt.Sprintf("%d:%d:%d", now, kind, arg))
	s := r.sims[i]
	rng := r.rngs[i]
	if kind == 1 || now+r.d > r.end {
		return
	}
	// Local work, some of it at this very time (ties at one node).
	if rng.IntN(2) == 0 {
		s.Schedule(now+units.Time(rng.IntN(3))*r.d/2, r.ids[i], 1, arg+1)
	}
	// A message to the next node, d or 2d later, sometimes at the same
	// time as another node's (ties across nodes).
	nx := (i + 1) % r.n
	at := now + r.d*units.Time(1+rng.IntN(2))
	k := s.NewKey(r.ids[i])
	if r.sims[nx] == s {
		s.ScheduleKeyed(at, k, r.ids[nx], 2, arg)
	} else {
		p := r.parts[i]
		r.out[p] = append(r.out[p], transfer{r.sims[nx], at, k, r.ids[nx], arg})
	}
}

// runRing runs the ring with its nodes split among parts partitions
// (node i in partition i*parts/n) and returns every node's log.
func runRing(t *testing.T, n, parts int) [][]string {
	t.Helper()
	g := NewGroup(parts, 7)
	defer g.Close()
	r := &ring{n: n, d: 10, end: 2000, logs: make([][]string, n), out: make([][]transfer, parts)}
	for i := 0; i < n; i++ {
		p := i * parts / n
		r.parts = append(r.parts, p)
		r.sims = append(r.sims, g.Sims[p])
		r.rngs = append(r.rngs, rand.New(rand.NewPCG(uint64(i), 1)))
		r.ids = append(r.ids, g.Sims[p].RegisterAt(&ringNode{r, i}, int32(i)))
	}
	for i := 0; i < n; i++ {
		r.sims[i].Schedule(units.Time(i%3)*5, r.ids[i], 0, int32(i))
	}
	windows := 0
	for next := g.NextAt(); next != units.Never; next = g.NextAt() {
		g.RunWindow(next + r.d)
		for p := range r.out {
			for _, x := range r.out[p] {
				x.sim.ScheduleKeyed(x.at, x.k, x.h, 2, x.arg)
			}
			r.out[p] = r.out[p][:0]
		}
		windows++
	}
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	if windows < 100 {
		t.Fatalf("only %d windows", windows)
	}
	return r.logs
}

// Every node sees the same events in the same order whether the nodes run
// in one partition or are split among two, three or four run at once: the
// order of simultaneous events (Key) depends on what each node did, not on
// the partition (the property replay's byte-identical outputs rest on).
func TestGroupSameOrderAnyPartitions(t *testing.T) {
	want := runRing(t, 12, 1)
	events := 0
	for _, l := range want {
		events += len(l)
	}
	if events < 2000 {
		t.Fatalf("only %d events: the ring should be busy", events)
	}
	for _, parts := range []int{2, 3, 4} {
		if got := runRing(t, 12, parts); !reflect.DeepEqual(got, want) {
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("%d partitions: node %d saw %v..., want %v...", parts, i, got[i][:min(8, len(got[i]))], want[i][:min(8, len(want[i]))])
				}
			}
		}
	}
}

// A window runs every partition's events before its end and none at or
// after it; a partition's goroutine that waited longer than spinWait
// sleeps and still wakes for the next window; Close is safe twice.
func TestGroupWindows(t *testing.T) {
	g := NewGroup(2, 1)
	var ran [2][]units.Time
	for p := 0; p < 2; p++ {
		h := g.Sims[p].Register(fnHandler(func(now units.Time) { ran[p] = append(ran[p], now) }))
		for _, at := range []units.Time{5, 10, 15, 30} {
			g.Sims[p].Schedule(at, h, 0, 0)
		}
	}
	g.RunWindow(15)
	if len(ran[0]) != 2 || len(ran[1]) != 2 || g.NextAt() != 15 || g.Events() != 4 {
		t.Fatalf("after the window [0, 15): ran %v, next %v, events %d", ran, g.NextAt(), g.Events())
	}
	time.Sleep(2 * spinWait) // the worker goes to sleep
	g.RunWindow(31)
	if len(ran[0]) != 4 || len(ran[1]) != 4 || g.NextAt() != units.Never {
		t.Fatalf("after the window [15, 31): ran %v, next %v", ran, g.NextAt())
	}
	g.Close()
	g.Close()
}

type fnHandler func(now units.Time)

func (f fnHandler) Handle(now units.Time, _ uint8, _ int32) { f(now) }
