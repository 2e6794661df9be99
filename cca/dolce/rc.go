package dolce

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dolce/drucb"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/units"
)

// RC is the Dolce-RC reaction point of one flow (Dolce-RC, Ye 2023, Algorithm 2):
// DCQCN whose cuts use the alpha and beta of the arm DR-UCB chose, one
// bandit iteration per qualified CNP.
type RC struct {
	cfg   Config
	gap   units.Time // QualifyGap in effect
	slotW units.Time // Tx time slot width (the CNP interval)

	dc     *dcqcn.DCQCN
	bandit drucb.Policy
	fixed  *drucb.Fixed // bandit, in fixed-point mode

	arm           int
	qualified     bool       // a qualified CNP has arrived
	lastQualified units.Time // when, if qualified
	ecn           ecnCount   // Eq. (4) counts of the current iteration
	lastSlot      int64      // index of the last Tx slot counted; -1 none
	lastReward    float64    // reward of the last finished iteration; -1 none
	started       bool
}

var _ cca.Algorithm = (*RC)(nil)

// NewRC validates cfg (filling its defaults) and returns an algorithm that
// waits for Start.
func NewRC(cfg Config) (*RC, error) {
	return algo.New(cfg, (*Config).validate, newRC)
}

func newRC(cfg Config) *RC {
	d, err := dcqcn.New(cfg.DCQCN)
	if err != nil {
		panic("dolce: " + err.Error()) // validated before
	}
	r := &RC{cfg: cfg, gap: cfg.gap(), slotW: cfg.DCQCN.CNPInterval, dc: d, lastSlot: -1, lastReward: -1}
	r.bandit, r.fixed = newPolicy(cfg.bandit(), cfg.FixedPoint)
	r.ecn.fixed = cfg.FixedPoint
	r.arm = r.bandit.Arm()
	return r
}

// Config returns the validated configuration.
func (r *RC) Config() Config { return r.cfg }

// Name returns "dolce".
func (r *RC) Name() string { return "dolce" }

// Start starts the DCQCN part at line rate and iteration 0 of the bandit,
// whose arm I_0 governs the cuts until the first qualified CNP.
func (r *RC) Start(now units.Time, f cca.FlowInfo) {
	*r = *newRC(r.cfg)
	r.started = true
	r.dc.Start(now, f)
}

// OnSend counts a data packet (ideal estimator) or its Tx time slot
// (slots estimator), and feeds DCQCN's byte counter.
func (r *RC) OnSend(now units.Time, bytes units.Bytes) {
	r.mustStart("OnSend")
	r.dc.OnSend(now, bytes)
	switch r.cfg.Estimator {
	case EstimatorIdeal:
		r.ecn.addSent()
	case EstimatorSlots:
		if s := int64(now / r.slotW); s != r.lastSlot {
			r.lastSlot = s
			r.ecn.addSent()
		}
	}
}

// OnAck counts a CE echo (ideal estimator) and replays DCQCN's timers.
func (r *RC) OnAck(now units.Time, a *cca.Ack) {
	r.mustStart("OnAck")
	r.dc.OnAck(now, a)
	if r.cfg.Estimator == EstimatorIdeal && a.ECE {
		r.ecn.addMarked()
	}
}

// OnCNP is Algorithm 2. Every CNP cuts with the current arm's alpha and
// beta (Eq. (1)-(2)); a qualified CNP, one arriving at least QualifyGap
// after the previous qualified CNP (the first CNP is qualified), first
// ends the iteration: reward by Eq. (4) (line 2), DR-UCB update (line 3),
// t+1 (line 4), next arm (lines 5-6), and the cut uses the new arm (line
// 7). With the slots estimator the CNP counts as a marked slot of the
// iteration it ends.
func (r *RC) OnCNP(now units.Time) {
	r.mustStart("OnCNP")
	if r.cfg.Estimator == EstimatorSlots {
		r.ecn.addMarked()
	}
	if !r.qualified || now-r.lastQualified >= r.gap {
		r.endIteration(now)
	}
	a := r.cfg.Arms[r.arm]
	r.dc.CutWith(now, a.Alpha, a.Beta)
}

// endIteration closes the current bandit iteration at a qualified CNP.
func (r *RC) endIteration(now units.Time) {
	if r.fixed != nil {
		xq := r.ecn.rewardQ()
		r.fixed.UpdateQ(r.arm, xq)
		r.lastReward = float64(xq) / 65536
	} else {
		r.lastReward = r.ecn.reward()
		r.bandit.Update(r.arm, r.lastReward)
	}
	r.arm = r.bandit.Arm()
	r.ecn.reset()
	r.qualified, r.lastQualified = true, now
}

// OnNack replays DCQCN's timers.
func (r *RC) OnNack(now units.Time) {
	r.mustStart("OnNack")
	r.dc.OnNack(now)
}

// OnTimer replays DCQCN's timers.
func (r *RC) OnTimer(now units.Time) {
	r.mustStart("OnTimer")
	r.dc.OnTimer(now)
}

// NextTimer is DCQCN's next increase tick.
func (r *RC) NextTimer() units.Time { return r.dc.NextTimer() }

// Rate is R_C, bits per second.
func (r *RC) Rate() units.BitsPerSec { return r.dc.Rate() }

// Window is DCQCN's configured window, or 0 for none.
func (r *RC) Window() units.Bytes { return r.dc.Window() }

// TargetRate is R_T, bits per second.
func (r *RC) TargetRate() units.BitsPerSec { return r.dc.TargetRate() }

// Arm is the index of the arm in force, I_t.
func (r *RC) Arm() int { return r.arm }

// Iteration is t, the number of finished bandit iterations.
func (r *RC) Iteration() int64 { return r.bandit.Iteration() }

// LastReward is the reward of the last finished iteration (Eq. (4)), or
// -1 before the first.
func (r *RC) LastReward() float64 { return r.lastReward }

// ECNCounts are Eq. (4)'s counts in the current iteration: marked packets
// and packets sent (ideal), or CNPs and Tx time slots (slots).
func (r *RC) ECNCounts() (marked, sent int64) { return r.ecn.marked, r.ecn.sent }

// Bandit is the DR-UCB state machine (drucb.Bandit or drucb.Fixed).
func (r *RC) Bandit() drucb.Policy { return r.bandit }

// AppendState appends the connection's Dolce-RC state in the paper's 20
// bytes (Section IV-B.2: "each connection only uses 20 bytes (additional
// four bytes are used for recording the ECN ratio and iterations)") when
// FixedPoint is on, 4K+4 bytes for K arms, little-endian:
//
//	bytes 0..4K-1  per arm: ArmTriedNum (16-bit float) and the discounted
//	               mean reward (Q0.16), see drucb.Fixed
//	bytes 4K..4K+3 one DWORD: bits 0-9 r = t mod floor(K/epsilon) (the
//	               iteration, Algorithm 1 line 3), bits 10-20 the marked
//	               count, bits 21-31 the sent count of Eq. (4)
//
// The two counts are 11-bit: when either would pass 2047 both are halved,
// which keeps the ratio but weighs older packets less (see ecnCount).
// Outside these bytes remain DCQCN's own state, the time of the last
// qualified CNP and, for the slots estimator, whether the current 1 us
// slot has been counted (a NIC's slot clock clears one bit per
// connection); the arm in force is a pure function of the stored state,
// cached. It panics when FixedPoint is off.
func (r *RC) AppendState(b []byte) []byte {
	if r.fixed == nil {
		panic("dolce.AppendState: fixed_point is off")
	}
	b = r.fixed.AppendState(b)
	w := uint32(r.fixed.Slot()) | uint32(r.ecn.marked)<<10 | uint32(r.ecn.sent)<<21
	return binary.LittleEndian.AppendUint32(b, w)
}

// Describe formats the state, e.g. "arm=1 alpha=0.259 beta=1.01 t=3
// marked=2 sent=30 rc=50Gbps rt=100Gbps iT=0 iB=0 stage=fast-recovery".
func (r *RC) Describe() string {
	a := r.cfg.Arms[r.arm]
	iT, iB := r.dc.Counters()
	return fmt.Sprintf("arm=%d alpha=%s beta=%s t=%d marked=%d sent=%d rc=%v rt=%v iT=%d iB=%d stage=%v",
		r.arm, fmtFloat(a.Alpha), fmtFloat(a.Beta), r.bandit.Iteration(), r.ecn.marked, r.ecn.sent,
		r.dc.Rate(), r.dc.TargetRate(), iT, iB, r.dc.Stage())
}

// String is Describe.
func (r *RC) String() string { return r.Describe() }

func (r *RC) mustStart(fn string) {
	if !r.started {
		panic("dolce." + fn + ": called before Start")
	}
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// ecnCount holds Eq. (4)'s counts for one iteration. In fixed-point mode
// each is 11 bits: when one would pass 2047, both are halved first.
type ecnCount struct {
	marked, sent int64
	fixed        bool
}

const ecnMax = 1<<11 - 1

func (c *ecnCount) halveIfFull(v int64) {
	if c.fixed && v >= ecnMax {
		c.marked >>= 1
		c.sent >>= 1
	}
}

func (c *ecnCount) addSent()   { c.halveIfFull(c.sent); c.sent++ }
func (c *ecnCount) addMarked() { c.halveIfFull(c.marked); c.marked++ }
func (c *ecnCount) reset()     { c.marked, c.sent = 0, 0 }

// reward is Eq. (4), X = 1 - marked/sent, clamped to [0, 1]. An iteration
// without a packet (or slot) sent scores 1 when nothing was marked, else
// 0.
func (c *ecnCount) reward() float64 {
	if c.sent == 0 {
		if c.marked == 0 {
			return 1
		}
		return 0
	}
	return 1 - min(1, float64(c.marked)/float64(c.sent))
}

// rewardQ is reward in Q0.16 (saturating at 65535), by integer division.
func (c *ecnCount) rewardQ() uint16 {
	if c.sent == 0 {
		if c.marked == 0 {
			return 65535
		}
		return 0
	}
	ratio := min(65536, (c.marked<<16+c.sent/2)/c.sent)
	return uint16(min(65535, 65536-ratio))
}
