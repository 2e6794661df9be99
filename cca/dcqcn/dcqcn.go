package dcqcn

import (
	"fmt"
	"strconv"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/units"
)

// Stage is the phase the rate increase is in.
type Stage int

const (
	// StageIdle means no timer runs: no CNP has arrived yet, or the flow
	// has recovered to R_C = R_T = line rate.
	StageIdle Stage = iota
	// StageFastRecovery is set by a cut and kept while max(i_T, i_B) < F.
	StageFastRecovery
	// StageAdditive is the additive-increase phase (CC-NetCalc, Lehal 2024, Table I).
	StageAdditive
	// StageHyper is the hyper-increase phase (CC-NetCalc, Lehal 2024, Table I).
	StageHyper
)

// stageNames are the stages' names as used in Describe, in Stage order.
var stageNames = []string{"idle", "fast-recovery", "additive", "hyper"}

// String returns the stage's name as used in Describe.
func (s Stage) String() string { return algo.Name(s, stageNames, "stage") }

// DCQCN is the reaction point of one flow.
type DCQCN struct {
	// cfg is shared by every flow built from one Spec (a flow's state
	// stays small: a run of a million queue pairs holds a million of
	// these); nothing writes it after validation.
	cfg *Config

	flow    algo.Flow        // R_C and R_T ceiling (the line rate), from Start
	minRate units.BitsPerSec // R_C and R_T floor: min(cfg.MinRate, line)
	window  units.Bytes      // Window's value, from Start

	rc, rt units.BitsPerSec // current and target rate
	alpha  float64
	iT, iB int         // increase events by timer and by bytes since the last cut
	acc    units.Bytes // bytes sent since the last byte-counter event
	stage  Stage

	cuts    int        // number of cuts so far
	lastCut units.Time // time of the last cut, when cuts > 0
	incAt   units.Time // next increase tick; units.Never when not running
	alphaAt units.Time // next alpha tick; units.Never before the first CNP
	slotCNP bool       // AlphaMlx: a CNP arrived in the current alpha slot
	decAt   units.Time // DecreaseTick: the decrease clock's next tick; units.Never before the first CNP
	decCNP  bool       // DecreaseTick: a CNP arrived since the last tick
}

var _ cca.Algorithm = (*DCQCN)(nil)

// New validates cfg (filling its defaults) and returns an algorithm that
// waits for Start.
func New(cfg Config) (*DCQCN, error) {
	return algo.New(cfg, (*Config).validate, func(c Config) *DCQCN { return newValid(&c) })
}

func newValid(cfg *Config) *DCQCN {
	return &DCQCN{cfg: cfg, incAt: units.Never, alphaAt: units.Never, decAt: units.Never}
}

// Config returns the validated configuration.
func (d *DCQCN) Config() Config { return *d.cfg }

// Name returns "dcqcn".
func (d *DCQCN) Name() string { return "dcqcn" }

// Start sets R_C = R_T = line rate and alpha to its initial value (paper
// 003, section V, first bullet); no timer runs until the first CNP.
func (d *DCQCN) Start(now units.Time, f cca.FlowInfo) {
	*d = *newValid(d.cfg)
	d.flow.Start("dcqcn", f)
	d.minRate = d.flow.Floor(d.cfg.MinRate)
	d.rc, d.rt = f.LineRate, f.LineRate
	d.alpha = d.cfg.AlphaInit
	d.window = d.cfg.Window
	if d.cfg.WindowBDP {
		d.window = max(units.BytesIn(f.BaseRTT, f.LineRate), f.MTU)
	}
}

// OnSend counts bytes towards the byte counter B (CC-NetCalc, Lehal 2024: "for every B
// bytes transmitted without receiving a CNP, i_B is increased by 1").
func (d *DCQCN) OnSend(now units.Time, bytes units.Bytes) {
	d.mustStart("OnSend")
	d.advance(now)
	if d.cfg.ByteCounter == 0 || !d.running() {
		return
	}
	d.acc += bytes
	for d.running() && d.acc >= d.cfg.ByteCounter {
		d.acc -= d.cfg.ByteCounter
		d.increase(false)
	}
}

// OnAck only replays due timers: DCQCN reacts to CNPs, not to ACKs.
func (d *DCQCN) OnAck(now units.Time, _ *cca.Ack) {
	d.mustStart("OnAck")
	d.advance(now)
}

// OnNack only replays due timers.
func (d *DCQCN) OnNack(now units.Time) {
	d.mustStart("OnNack")
	d.advance(now)
}

// OnTimer replays every due timer in time order.
func (d *DCQCN) OnTimer(now units.Time) {
	d.mustStart("OnTimer")
	d.advance(now)
}

// OnCNP cuts the rate unless the previous cut is less than
// DecreaseInterval old; in AlphaMlx it also marks the current alpha slot.
func (d *DCQCN) OnCNP(now units.Time) {
	d.mustStart("OnCNP")
	d.advance(now)
	if d.cfg.AlphaMode == AlphaMlx {
		if d.alphaAt == units.Never {
			// NB: the CNP that starts the alpha clock does not mark its
			// slot, as in HPCC's cnp_received_mlx (first CNP).
			d.alphaAt = now + d.cfg.AlphaTimer
		} else {
			d.slotCNP = true
		}
	}
	if d.cfg.DecreaseMode == DecreaseTick {
		k := d.decPeriod()
		switch {
		case d.decAt == units.Never:
			d.decAt = now + k + units.Nanosecond // after the alpha tick of the same slot
		case !d.decCNP && d.decAt <= now:
			d.decAt += ((now-d.decAt)/k + 1) * k // idle ticks change nothing
		}
		d.decCNP = true
		return
	}
	if d.cuts > 0 && now-d.lastCut < d.cfg.DecreaseInterval {
		return
	}
	d.cut(now)
}

// CutWith is a cut whose factors the caller chooses instead of DCQCN's
// alpha, for algorithms that reuse DCQCN's increase logic (Dolce-RC, Dolce-RC (Ye 2023),
// Eq. (1)-(2)): R_T = beta*R_C, clamped to [min rate, line rate], then
// R_C = R_C*(1 - alpha/2) (R_C*(1 - alpha) with cut=alpha), never below
// the min rate; the increase counters then restart and fast recovery
// begins, exactly as after a CNP. DCQCN's own alpha is neither used nor
// updated and no alpha timer starts. Like OnCNP it first replays due
// timers and does nothing when the previous cut is less than
// DecreaseInterval old; it reports whether it cut.
//
// NB: with beta < 1 - alpha/2, R_T ends below R_C and fast recovery then
// lowers R_C towards R_T (Dolce-RC, Ye 2023, Fig. 2, the blue dashed line).
func (d *DCQCN) CutWith(now units.Time, alpha, beta float64) bool {
	d.mustStart("CutWith")
	d.advance(now)
	if d.cuts > 0 && now-d.lastCut < d.cfg.DecreaseInterval {
		return false
	}
	d.cutWith(now, alpha, beta)
	return true
}

// NextTimer is the next increase tick, or units.Never when idle. Alpha
// ticks are replayed lazily (see the package comment).
// decPeriod is DecreaseTick's period: decrease_interval, at least 1 ns.
func (d *DCQCN) decPeriod() units.Time { return max(d.cfg.DecreaseInterval, units.Nanosecond) }

func (d *DCQCN) NextTimer() units.Time {
	if d.decCNP {
		return min(d.incAt, d.decAt)
	}
	return d.incAt
}

// Rate is R_C, bits per second.
func (d *DCQCN) Rate() units.BitsPerSec { return d.rc }

// Window is the configured window, or 0 for none.
func (d *DCQCN) Window() units.Bytes { return d.window }

// TargetRate is R_T, bits per second.
func (d *DCQCN) TargetRate() units.BitsPerSec { return d.rt }

// Alpha is the rate-reduction factor, in [0, 1], as of the last event.
func (d *DCQCN) Alpha() float64 { return d.alpha }

// Counters returns i_T and i_B, the increase events since the last cut.
func (d *DCQCN) Counters() (iT, iB int) { return d.iT, d.iB }

// Stage is the current increase phase.
func (d *DCQCN) Stage() Stage { return d.stage }

// Describe formats the state, e.g.
// "rc=50Gbps rt=100Gbps alpha=1 iT=0 iB=0 stage=fast-recovery".
func (d *DCQCN) Describe() string {
	return fmt.Sprintf("rc=%v rt=%v alpha=%s iT=%d iB=%d stage=%v",
		d.rc, d.rt, strconv.FormatFloat(d.alpha, 'g', 6, 64), d.iT, d.iB, d.stage)
}

// String is Describe.
func (d *DCQCN) String() string { return d.Describe() }

func (d *DCQCN) mustStart(fn string) { d.flow.MustStart("dcqcn", fn) }

func (d *DCQCN) running() bool { return d.incAt != units.Never }
