package dcqcn

import (
	"errors"
	"fmt"

	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// AlphaMode selects how the rate-reduction factor alpha is updated.
type AlphaMode string

const (
	// AlphaZhu is Zhu et al. 2015, Eq. (1)-(2): every cut sets
	// alpha = (1-g)*alpha + g and restarts the alpha timer; every K without
	// a CNP sets alpha = (1-g)*alpha (paper 003, section V, second bullet).
	AlphaZhu AlphaMode = "zhu"
	// AlphaMlx is the HPCC simulator's Mellanox model (rdma-hw.cc,
	// UpdateAlphaMlx): a free-running clock of period K started by the
	// first CNP; at each tick alpha = (1-g)*alpha + g if a CNP arrived in
	// the slot, else (1-g)*alpha. The CNP itself does not touch alpha.
	AlphaMlx AlphaMode = "mlx"
)

// CutMode selects the multiplicative decrease applied on a cut.
type CutMode string

const (
	// CutHalfAlpha is R_C = R_C*(1 - alpha/2), Zhu et al. 2015 Eq. (1) and
	// the HPCC simulator's CheckRateDecreaseMlx.
	CutHalfAlpha CutMode = "half-alpha"
	// CutAlpha is R_C = (1 - alpha)*R_C as paper 003 writes it (section V,
	// first bullet).
	CutAlpha CutMode = "alpha"
)

// IncreaseMode selects how the increase counters pick a phase.
type IncreaseMode string

const (
	// IncreaseZhu counts first, then compares (Zhu's ns-3 DCQCN model,
	// qbb-net-device.cc rpr_fast_time/rpr_active_select, and paper 003
	// Table I): with n = max(i_T, i_B) and m = min(i_T, i_B) after the
	// increment, n < F is fast recovery, m >= F is hyper increase with
	// R_T += (m-F+1)*R_HI, anything else is additive increase.
	IncreaseZhu IncreaseMode = "zhu"
	// IncreaseMlx compares first, then counts (the HPCC simulator's
	// RateIncEventMlx): with the counters' values before the increment,
	// max < F is fast recovery, min > F is hyper increase with a constant
	// R_T += R_HI, anything else (min or max equal to F) is additive.
	IncreaseMlx IncreaseMode = "mlx"
)

// Config is the reaction-point configuration of one DCQCN flow together
// with the network settings its preset expects. A field left at zero takes
// the zhu2015 default unless its comment says that zero means something.
type Config struct {
	// AIRate is R_AI, the additive-increase step of the target rate, bits
	// per second. Default 5 Mb/s (paper 003 Table II).
	AIRate units.BitsPerSec
	// HAIRate is R_HI, the hyper-increase step of the target rate, bits
	// per second. Default 50 Mb/s (paper 003 Table II).
	HAIRate units.BitsPerSec
	// MinRate is the floor of R_C and R_T, bits per second; a value above
	// the line rate is lowered to the line rate at Start. Default 100 Mb/s
	// (our choice: the HPCC simulator's MinRate default; neither Zhu 2015
	// nor paper 003 gives one).
	MinRate units.BitsPerSec
	// G is the alpha EWMA gain g, in (0, 1]. Default 1/256 (paper 003
	// Table II).
	G float64
	// AlphaInit is alpha at Start, in (0, 1]. Default 1 (paper 003,
	// section V: "α is set to 1").
	AlphaInit float64
	// AlphaMode selects the alpha update rule. Default AlphaZhu.
	AlphaMode AlphaMode
	// AlphaTimer is K, the alpha update period, picoseconds. Default
	// 55 us (paper 003 Table II).
	AlphaTimer units.Time
	// IncreaseTimer is T, the rate-increase timer period, picoseconds.
	// Default 55 us (paper 003 Table II).
	IncreaseTimer units.Time
	// ByteCounter is B, bytes sent per byte-counter increase event; zero
	// disables the byte counter (then i_B is taken equal to i_T). Default
	// 10 MB (paper 003 Table II), set by the presets: zero here is "off".
	ByteCounter units.Bytes
	// FastRecovery is F, the number of increase events that separate fast
	// recovery from additive/hyper increase. Default 5 (paper 003 Table I).
	FastRecovery int
	// IncreaseMode selects how the counters pick a phase. Default
	// IncreaseZhu.
	IncreaseMode IncreaseMode
	// DecreaseInterval is the minimum time between two cuts, picoseconds;
	// a CNP that arrives sooner after the previous cut does not cut. Zero
	// means every CNP cuts (Zhu 2015).
	DecreaseInterval units.Time
	// Cut selects the multiplicative decrease. Default CutHalfAlpha.
	Cut CutMode
	// KeepTargetRate, when true, makes a cut set R_T = R_C only if an
	// increase event happened since the previous cut (the HPCC simulator's
	// CLAMP_TARGET_RATE 0). False sets R_T = R_C on every cut (Zhu 2015
	// Eq. (1), CLAMP_TARGET_RATE 1).
	KeepTargetRate bool
	// Window caps the bytes in flight; zero means no window.
	Window units.Bytes
	// WindowBDP, when true, sets the window at Start to the flow's
	// bandwidth-delay product LineRate*BaseRTT/8 (at least one MTU);
	// Window must then be zero.
	WindowBDP bool
	// Kmin is the RED marking threshold below which nothing is marked,
	// bytes. Kmin, Kmax and Pmax all zero mean the zhu2015 marking.
	Kmin units.Bytes
	// Kmax is the RED threshold at which the marking probability reaches
	// Pmax, bytes.
	Kmax units.Bytes
	// Pmax is the marking probability at Kmax, in [0, 1].
	Pmax float64
	// ECNRefRate, when positive, is the link rate Kmin and Kmax are given
	// for; switches scale them linearly to other rates. Zero means the
	// same thresholds at every rate.
	ECNRefRate units.BitsPerSec
	// CNPInterval is the receiver's minimum gap between two CNPs of one
	// queue pair (T_gap), picoseconds. Default 50 us (paper 003 Table II).
	CNPInterval units.Time
}

// defaults is the zhu2015 preset: paper 003 Table II, which cites Zhu 2015.
func defaults() Config {
	return Config{
		AIRate:        5 * units.Mbps,
		HAIRate:       50 * units.Mbps,
		MinRate:       100 * units.Mbps,
		G:             1.0 / 256,
		AlphaInit:     1,
		AlphaMode:     AlphaZhu,
		AlphaTimer:    55 * units.Microsecond,
		IncreaseTimer: 55 * units.Microsecond,
		ByteCounter:   10 * units.MB,
		FastRecovery:  5,
		IncreaseMode:  IncreaseZhu,
		Cut:           CutHalfAlpha,
		Kmin:          5 * units.KB,
		Kmax:          200 * units.KB,
		Pmax:          0.01,
		CNPInterval:   50 * units.Microsecond,
	}
}

// validate fills the defaults of zero fields and checks every field,
// returning the first problem found.
func (c *Config) validate() error {
	d := defaults()
	if c.AIRate == 0 {
		c.AIRate = d.AIRate
	}
	if c.HAIRate == 0 {
		c.HAIRate = d.HAIRate
	}
	if c.MinRate == 0 {
		c.MinRate = d.MinRate
	}
	if c.G == 0 {
		c.G = d.G
	}
	if c.AlphaInit == 0 {
		c.AlphaInit = d.AlphaInit
	}
	if c.AlphaMode == "" {
		c.AlphaMode = d.AlphaMode
	}
	if c.AlphaTimer == 0 {
		c.AlphaTimer = d.AlphaTimer
	}
	if c.IncreaseTimer == 0 {
		c.IncreaseTimer = d.IncreaseTimer
	}
	if c.FastRecovery == 0 {
		c.FastRecovery = d.FastRecovery
	}
	if c.IncreaseMode == "" {
		c.IncreaseMode = d.IncreaseMode
	}
	if c.Cut == "" {
		c.Cut = d.Cut
	}
	if c.Kmin == 0 && c.Kmax == 0 && c.Pmax == 0 {
		c.Kmin, c.Kmax, c.Pmax = d.Kmin, d.Kmax, d.Pmax
	}
	if c.CNPInterval == 0 {
		c.CNPInterval = d.CNPInterval
	}

	switch {
	case c.AIRate < 0:
		return fmt.Errorf("ai_rate must be positive, got %d bps", c.AIRate)
	case c.HAIRate < 0:
		return fmt.Errorf("hai_rate must be positive, got %d bps", c.HAIRate)
	case c.MinRate < 0:
		return fmt.Errorf("min_rate must be positive, got %d bps", c.MinRate)
	case !(c.G > 0 && c.G <= 1):
		return fmt.Errorf("g must be in (0, 1], got %v", c.G)
	case !(c.AlphaInit > 0 && c.AlphaInit <= 1):
		return fmt.Errorf("alpha_init must be in (0, 1], got %v", c.AlphaInit)
	case c.AlphaMode != AlphaZhu && c.AlphaMode != AlphaMlx:
		return fmt.Errorf("alpha_mode must be %q or %q, got %q", AlphaZhu, AlphaMlx, c.AlphaMode)
	case c.AlphaTimer < 0:
		return fmt.Errorf("alpha_timer must be positive, got %v", c.AlphaTimer)
	case c.IncreaseTimer < 0:
		return fmt.Errorf("increase_timer must be positive, got %v", c.IncreaseTimer)
	case c.ByteCounter < 0:
		return fmt.Errorf("byte_counter must not be negative, got %d", c.ByteCounter)
	case c.FastRecovery < 0:
		return fmt.Errorf("fast_recovery must be at least 1, got %d", c.FastRecovery)
	case c.IncreaseMode != IncreaseZhu && c.IncreaseMode != IncreaseMlx:
		return fmt.Errorf("increase_mode must be %q or %q, got %q", IncreaseZhu, IncreaseMlx, c.IncreaseMode)
	case c.DecreaseInterval < 0:
		return fmt.Errorf("decrease_interval must not be negative, got %v", c.DecreaseInterval)
	case c.Cut != CutHalfAlpha && c.Cut != CutAlpha:
		return fmt.Errorf("cut must be %q or %q, got %q", CutHalfAlpha, CutAlpha, c.Cut)
	case c.Window < 0:
		return fmt.Errorf("window must not be negative, got %d", c.Window)
	case c.WindowBDP && c.Window != 0:
		return errors.New("window: give either a size or bdp, not both")
	case c.Kmin < 0 || c.Kmax < 0:
		return fmt.Errorf("kmin and kmax must not be negative, got %d and %d", c.Kmin, c.Kmax)
	case c.Kmin > c.Kmax:
		return fmt.Errorf("kmin (%d B) must not exceed kmax (%d B)", c.Kmin, c.Kmax)
	case !(c.Pmax >= 0 && c.Pmax <= 1):
		return fmt.Errorf("pmax must be in [0, 1], got %v", c.Pmax)
	case c.ECNRefRate < 0:
		return fmt.Errorf("ecn_ref_rate must not be negative, got %d bps", c.ECNRefRate)
	case c.CNPInterval < 0:
		return fmt.Errorf("cnp_interval must be positive, got %v", c.CNPInterval)
	}
	// Upper bounds: rates up to 1 Pb/s, sizes up to 10^18 bytes and times
	// up to limits.MaxTime, the ranges the parsers accept, so that a
	// configuration built in Go cannot hold what a parameter cannot.
	return keyval.FirstError(
		keyval.CheckRate("ai_rate", c.AIRate),
		keyval.CheckRate("hai_rate", c.HAIRate),
		keyval.CheckRate("min_rate", c.MinRate),
		keyval.CheckDuration("alpha_timer", c.AlphaTimer),
		keyval.CheckDuration("increase_timer", c.IncreaseTimer),
		keyval.CheckSize("byte_counter", c.ByteCounter),
		keyval.CheckDuration("decrease_interval", c.DecreaseInterval),
		keyval.CheckSize("window", c.Window),
		keyval.CheckSize("kmax", c.Kmax),
		keyval.CheckRate("ecn_ref_rate", c.ECNRefRate),
		keyval.CheckDuration("cnp_interval", c.CNPInterval),
	)
}
