// Package drucb implements DR-UCB, "Discounted and Random Exploratory UCB",
// the multi-armed bandit of Dolce-RC (Ye 2023) (Ye et al., "Data-Driven Rate
// Control for RDMA Networks: A Lightweight Online Learning Approach"),
// Algorithm 1, as a pure deterministic state machine: no clock, no RNG.
//
// Algorithm 1, for iterations t = 0, 1, ...:
//
//	line 3:  r = t mod floor(K/epsilon)
//	line 4-5: if r < K, play I_t = r                         (exploration slot)
//	line 7:  else play I_t = argmax_i  S_i(t-1)/n_i(t-1) + sqrt(xi * log(sum_j n_j(t-1)) / n_i(t-1))
//	line 9:  observe the reward X_{I_t}(t)
//	line 10: n_i(t) = sum_{tau<=t} gamma^(t-tau) 1(I_tau = i), for every arm i
//
// where S_i(t-1) = sum_{tau<=t-1} gamma^(t-1-tau) X_i(tau) 1(I_tau = i) is
// the discounted reward sum ("RewardACC", Section IV-B.2) and n_i the
// discounted play count ("ArmTriedNum"). Both obey one recursion per
// iteration, applied to every arm (the discount of line 10):
//
//	n_i(t) = gamma*n_i(t-1) + 1(I_t = i)
//	S_i(t) = gamma*S_i(t-1) + X_i(t)*1(I_t = i)
//
// Choices the paper leaves open, made here:
//   - "log" in line 7 is the natural logarithm (discounted UCB, Dolce-RC (Ye 2023)
//     ref. [16], Garivier and Moulines); it is taken as 0 when the
//     discounted total count is below 1, which only happens before the
//     first play.
//   - An arm with n_i = 0 has an infinite index; ties go to the lowest
//     arm index.
//   - floor(K/epsilon) is computed as floor(K/epsilon*(1+1e-12)) so that a
//     quotient that is an integer in decimal (4/0.02 = 200) is not lost to
//     binary rounding.
//
// Bandit is the floating-point version; Fixed keeps the paper's 4 bytes
// per arm (Section IV-B.2-3, see fixed.go).
package drucb

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Config holds DR-UCB's inputs (Algorithm 1, "Input:"). A zero field takes
// the paper's value.
type Config struct {
	// K is the number of arms, at least 1. Default 4 (Dolce-RC, Ye 2023, Section
	// IV-B.2: "the arm set for a connection has four arms only").
	K int
	// Epsilon is the random exploration probability epsilon, in (0, 1);
	// every floor(K/epsilon) iterations each arm is played once.
	// Default 0.015 (Section V-A).
	Epsilon float64
	// Gamma is the discount factor gamma, in (0, 1). Default 0.9998
	// (Section V-A).
	Gamma float64
	// Xi is the exploration constant xi, > 0.5. Default 0.5001 (Section
	// V-A).
	Xi float64
}

// Paper values (Dolce-RC, Ye 2023, Section V-A and IV-B.2).
const (
	DefaultK       = 4
	DefaultEpsilon = 0.015
	DefaultGamma   = 0.9998
	DefaultXi      = 0.5001
)

// Validate fills the defaults of zero fields and checks the ranges.
func (c *Config) Validate() error {
	c.K = cmp.Or(c.K, DefaultK)
	c.Epsilon = cmp.Or(c.Epsilon, DefaultEpsilon)
	c.Gamma = cmp.Or(c.Gamma, DefaultGamma)
	c.Xi = cmp.Or(c.Xi, DefaultXi)
	switch {
	case c.K < 1:
		return fmt.Errorf("number of arms must be at least 1, got %d", c.K)
	case !(c.Epsilon > 0 && c.Epsilon < 1):
		return fmt.Errorf("epsilon must be in (0, 1), got %v", c.Epsilon)
	case !(c.Gamma > 0 && c.Gamma < 1):
		return fmt.Errorf("gamma must be in (0, 1), got %v", c.Gamma)
	case !(c.Xi > 0.5) || math.IsInf(c.Xi, 1):
		return fmt.Errorf("xi must be a number > 0.5, got %v", c.Xi)
	case c.period() > math.MaxInt32:
		return fmt.Errorf("floor(K/epsilon) = %.0f is too large", c.period())
	}
	return nil
}

func (c *Config) period() float64 {
	return math.Floor(float64(c.K) / c.Epsilon * (1 + 1e-12))
}

// Period is floor(K/epsilon), the length of one exploration block
// (Algorithm 1 line 3), for a validated configuration.
func (c Config) Period() int64 { return int64(c.period()) }

// Policy is what Dolce-RC and Dolce-RC+ need from a bandit: the arm to
// play now, and the reward of a finished iteration.
type Policy interface {
	// Arm is I_t, the arm of the current iteration t.
	Arm() int
	// Iteration is t, the number of rewards observed so far.
	Iteration() int64
	// Update observes the reward x in [0, 1] of arm (Algorithm 1 line 9),
	// discounts every arm (line 10), moves to t+1 and chooses I_{t+1}
	// (lines 3-8). arm is normally Arm(); Dolce-RC+ passes the arm a
	// message was sent with, which differs when messages overlap.
	Update(arm int, x float64)
	// Describe formats the state on one line.
	Describe() string
}

// Bandit is DR-UCB in float64 arithmetic.
type Bandit struct {
	cfg    Config
	period int64
	t      int64     // current iteration
	n, s   []float64 // n_i(t-1) and S_i(t-1)
	arm    int       // I_t
}

var _ Policy = (*Bandit)(nil)

// New validates cfg (filling its defaults) and returns a bandit at t = 0.
func New(cfg Config) (*Bandit, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	b := &Bandit{cfg: cfg, period: cfg.Period(), n: make([]float64, cfg.K), s: make([]float64, cfg.K)}
	b.arm = b.choose()
	return b, nil
}

// Config returns the validated configuration.
func (b *Bandit) Config() Config { return b.cfg }

// Arm is I_t, the arm of the current iteration.
func (b *Bandit) Arm() int { return b.arm }

// Iteration is t, the number of rewards observed so far.
func (b *Bandit) Iteration() int64 { return b.t }

// Exploring reports whether the current iteration is an exploration slot
// (Algorithm 1 lines 3-5: t mod floor(K/epsilon) < K).
func (b *Bandit) Exploring() bool { return b.t%b.period < int64(b.cfg.K) }

// Count is n_i(t-1), the discounted number of plays of arm i.
func (b *Bandit) Count(i int) float64 { return b.n[i] }

// RewardSum is S_i(t-1), the discounted reward sum of arm i.
func (b *Bandit) RewardSum(i int) float64 { return b.s[i] }

// Index is arm i's upper confidence bound at the current iteration
// (Algorithm 1 line 7); +Inf for an arm never played.
func (b *Bandit) Index(i int) float64 {
	if b.n[i] <= 0 {
		return math.Inf(1)
	}
	var total float64
	for _, n := range b.n {
		total += n
	}
	return b.s[i]/b.n[i] + math.Sqrt(b.cfg.Xi*logPos(total)/b.n[i])
}

// logPos is the natural log, floored at 0.
func logPos(x float64) float64 {
	if x <= 1 {
		return 0
	}
	return math.Log(x)
}

// Update observes reward x for arm (clamped to [0, 1]; NaN counts as 0),
// applies line 10's discount to every arm, moves to the next iteration and
// chooses its arm.
func (b *Bandit) Update(arm int, x float64) {
	if arm < 0 || arm >= b.cfg.K {
		panic("drucb.Update: arm out of range")
	}
	x = clampReward(x)
	g := b.cfg.Gamma
	for i := range b.n {
		// NB: the conversions forbid fusing with the additions below into
		// an FMA (Go spec, "Arithmetic operators"), which would make results
		// differ between amd64 and arm64.
		b.n[i] = float64(b.n[i] * g)
		b.s[i] = float64(b.s[i] * g)
	}
	b.n[arm]++
	b.s[arm] += x
	b.t++
	b.arm = b.choose()
}

// choose is lines 3-8 for the current t.
func (b *Bandit) choose() int {
	if r := b.t % b.period; r < int64(b.cfg.K) {
		return int(r)
	}
	best, bestIdx := 0, math.Inf(-1)
	for i := range b.n {
		if idx := b.Index(i); idx > bestIdx {
			best, bestIdx = i, idx
		}
	}
	return best
}

func clampReward(x float64) float64 {
	switch {
	case x > 1:
		return 1
	case x >= 0:
		return x
	}
	return 0 // negative or NaN
}

// Describe formats the state, e.g.
// "t=5 arm=1 explore n=[0.9996 1 ...] mean=[0.9 0.8 ...]": the arm of the
// current iteration, whether it is an exploration slot, n_i(t-1) and the
// discounted mean S_i/n_i of each arm ("-" for an arm never played).
func (b *Bandit) Describe() string {
	return describe(b.t, b.arm, b.Exploring(), b.n, func(i int) (float64, bool) {
		if b.n[i] <= 0 {
			return 0, false
		}
		return b.s[i] / b.n[i], true
	})
}

// String is Describe.
func (b *Bandit) String() string { return b.Describe() }

func describe(t int64, arm int, explore bool, n []float64, mean func(int) (float64, bool)) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "t=%d arm=%d", t, arm)
	if explore {
		sb.WriteString(" explore")
	}
	sb.WriteString(" n=[")
	for i, v := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.FormatFloat(v, 'g', 6, 64))
	}
	sb.WriteString("] mean=[")
	for i := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if m, ok := mean(i); ok {
			sb.WriteString(strconv.FormatFloat(m, 'g', 6, 64))
		} else {
			sb.WriteByte('-')
		}
	}
	sb.WriteByte(']')
	return sb.String()
}
