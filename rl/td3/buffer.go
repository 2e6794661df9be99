package td3

import (
	"fmt"
	"math"
	"slices"
)

// Transition is one step of experience with its observation histories
// (paper 002, Section 4.3: the memory buffer stores <o_t, a_t, r_t,
// o_{t+1}> with up to k <= 8 past observations before t and t+1).
type Transition struct {
	// Obs is the history up to and including o_t: Steps rows of Inputs
	// values, row-major, oldest first (len >= Steps*Inputs; values after
	// them are padding and ignored). 1 <= Steps <= Config.Seq.
	Obs   []float64
	Steps int
	// Action is a_t in [-1, 1], the actor's output scale.
	Action float64
	// Reward is r_t, the (n-step) reward.
	Reward float64
	// Next is the history up to and including o_{t+1}, in the layout of
	// Obs, NextSteps rows (0 <= NextSteps <= Config.Seq; it must be >= 1
	// when Discount > 0).
	Next      []float64
	NextSteps int
	// Discount is gamma^n for the bootstrap term of Eq. 4.1, 0 when o_{t+1}
	// is terminal (then Next is not read); in [0, 1].
	Discount float64
}

// buffer is the replay memory: a ring of Cap fixed-size slots, grown on
// demand (a slot holds Seq*Inputs floats for each history, so a full
// buffer takes Cap x 2 x Seq x Inputs x 8 bytes plus 40 bytes a slot).
type buffer struct {
	inputs, seq, cap int
	n, next          int // stored transitions, slot written next
	obs, nxt         []float64
	steps, nextSteps []int32
	action, reward   []float64
	discount         []float64
}

func newBuffer(inputs, seq, capacity int) buffer {
	return buffer{inputs: inputs, seq: seq, cap: capacity}
}

// check validates t against the buffer's shape.
func (b *buffer) check(t *Transition) error {
	if t.Steps < 1 || t.Steps > b.seq || len(t.Obs) < t.Steps*b.inputs {
		return fmt.Errorf("td3: transition has %d steps (want 1..%d) and %d observation values (want >= %d)", t.Steps, b.seq, len(t.Obs), t.Steps*b.inputs)
	}
	if t.NextSteps < 0 || t.NextSteps > b.seq || len(t.Next) < t.NextSteps*b.inputs {
		return fmt.Errorf("td3: transition has %d next steps (want 0..%d) and %d next values (want >= %d)", t.NextSteps, b.seq, len(t.Next), t.NextSteps*b.inputs)
	}
	if !(t.Discount >= 0 && t.Discount <= 1) {
		return fmt.Errorf("td3: discount must be in [0, 1], got %v", t.Discount)
	}
	if t.Discount > 0 && t.NextSteps < 1 {
		return fmt.Errorf("td3: a transition with discount %v needs a next observation", t.Discount)
	}
	if !(t.Action >= -1 && t.Action <= 1) {
		return fmt.Errorf("td3: action must be in [-1, 1], got %v", t.Action)
	}
	if math.IsNaN(t.Reward) || math.IsInf(t.Reward, 0) {
		return fmt.Errorf("td3: reward is not finite (%v)", t.Reward)
	}
	for _, v := range t.Obs[:t.Steps*b.inputs] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("td3: observation is not finite (%v)", v)
		}
	}
	for _, v := range t.Next[:t.NextSteps*b.inputs] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("td3: next observation is not finite (%v)", v)
		}
	}
	return nil
}

// add copies t into the next slot, overwriting the oldest when full.
func (b *buffer) add(t *Transition) {
	slot := b.seq * b.inputs
	i := b.next
	if i == len(b.steps) { // not yet allocated: grow by one slot
		b.obs = b.grow(b.obs, slot)
		b.nxt = b.grow(b.nxt, slot)
		b.steps = append(b.steps, 0)
		b.nextSteps = append(b.nextSteps, 0)
		b.action = append(b.action, 0)
		b.reward = append(b.reward, 0)
		b.discount = append(b.discount, 0)
	}
	o, nx := b.obs[i*slot:(i+1)*slot], b.nxt[i*slot:(i+1)*slot]
	clear(o[copy(o, t.Obs[:t.Steps*b.inputs]):])
	clear(nx[copy(nx, t.Next[:t.NextSteps*b.inputs]):])
	b.steps[i], b.nextSteps[i] = int32(t.Steps), int32(t.NextSteps)
	b.action[i], b.reward[i], b.discount[i] = t.Action, t.Reward, t.Discount
	b.next = (i + 1) % b.cap
	b.n = min(b.n+1, b.cap)
}

// grow extends v by n values, doubling its capacity when it must but never
// beyond the full buffer's size.
func (b *buffer) grow(v []float64, n int) []float64 {
	if len(v)+n > cap(v) {
		c := min(max(2*cap(v), 64*n), b.cap*n)
		v = slices.Grow(v, c-len(v))
	}
	return v[:len(v)+n]
}

// at returns slot i's histories (padded to Seq rows) and their lengths.
func (b *buffer) at(i int) (obs []float64, steps int, next []float64, nextSteps int) {
	slot := b.seq * b.inputs
	return b.obs[i*slot : (i+1)*slot], int(b.steps[i]), b.nxt[i*slot : (i+1)*slot], int(b.nextSteps[i])
}
