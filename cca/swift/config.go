package swift

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// Config is the configuration of one Swift flow. A field left at zero
// takes the kumar2020 default unless its comment says what zero means.
type Config struct {
	// BaseTarget is the target delay of a one-hop path with few flows,
	// picoseconds. Default 25 us (our choice for a datacenter fabric; see
	// presets.go).
	BaseTarget units.Time
	// HopScale is h, the target added per hop of the forward path,
	// picoseconds. Default 1 us (our choice).
	HopScale units.Time
	// FSRange is the largest flow-based scaling term, reached at
	// FSMinCwnd, picoseconds. Default 125 us (5 x BaseTarget, our choice).
	FSRange units.Time
	// FSMinCwnd is the window, packets, at and below which the flow-based
	// term is FSRange. Default 0.1 (see presets.go for the source).
	FSMinCwnd float64
	// FSMaxCwnd is the window, packets, at and above which the flow-based
	// term is 0. Default 100 (see presets.go).
	FSMaxCwnd float64
	// AI is the additive increment, packets per RTT. Default 1 (see
	// presets.go).
	AI float64
	// Beta is the multiplicative-decrease constant (dimensionless).
	// Default 0.8 (see presets.go).
	Beta float64
	// MaxMDF is the largest multiplicative decrease in one step, in (0, 1).
	// Default 0.5 (see presets.go).
	MaxMDF float64
	// MinCwnd is the floor of the window, packets. Default 0.001 (see
	// presets.go).
	MinCwnd float64
	// MaxCwnd is the ceiling of the window, packets; zero means "auto":
	// at Start, the window that fills the highest target at line rate,
	// LineRate*(BaseTarget + Hops*HopScale + FSRange)/(8*MTU) (our choice:
	// Algorithm 1 gives max_cwnd no value).
	MaxCwnd float64
	// InitCwnd is the window at Start, packets; zero means one
	// bandwidth-delay product of the path, LineRate*BaseRTT/(8*MTU), at
	// least 1 (our choice: the line rate at start, as RDMA NICs begin).
	InitCwnd float64
	// RetxReset is RETX_RESET_THRESHOLD: after this many consecutive
	// retransmission timeouts the window drops to MinCwnd. Default 5 (our
	// choice).
	RetxReset int
}

// CwndLimit is the largest window a window parameter (fs_min_cwnd,
// fs_max_cwnd, min_cwnd, max_cwnd, init_cwnd) may give, 10^9 packets, so
// that a window in bytes (packets x MTU) stays an int64 for any real MTU.
const CwndLimit = 1e9

// defaults is the kumar2020 preset (see presets.go).
func defaults() Config {
	return Config{
		BaseTarget: 25 * units.Microsecond,
		HopScale:   1 * units.Microsecond,
		FSRange:    125 * units.Microsecond,
		FSMinCwnd:  0.1,
		FSMaxCwnd:  100,
		AI:         1,
		Beta:       0.8,
		MaxMDF:     0.5,
		MinCwnd:    0.001,
		RetxReset:  5,
	}
}

// validate fills the defaults of zero fields and checks every field,
// returning the first problem found.
func (c *Config) validate() error {
	d := defaults()
	if c.BaseTarget == 0 {
		c.BaseTarget = d.BaseTarget
	}
	if c.FSMinCwnd == 0 {
		c.FSMinCwnd = d.FSMinCwnd
	}
	if c.FSMaxCwnd == 0 {
		c.FSMaxCwnd = d.FSMaxCwnd
	}
	if c.AI == 0 {
		c.AI = d.AI
	}
	if c.Beta == 0 {
		c.Beta = d.Beta
	}
	if c.MaxMDF == 0 {
		c.MaxMDF = d.MaxMDF
	}
	if c.MinCwnd == 0 {
		c.MinCwnd = d.MinCwnd
	}
	if c.RetxReset == 0 {
		c.RetxReset = d.RetxReset
	}
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch {
	case c.BaseTarget < 0:
		return fmt.Errorf("base_target must be positive, got %v", c.BaseTarget)
	case c.HopScale < 0:
		return fmt.Errorf("hop_scale must not be negative, got %v", c.HopScale)
	case c.FSRange < 0:
		return fmt.Errorf("fs_range must not be negative, got %v", c.FSRange)
	case !finite(c.FSMinCwnd) || !finite(c.FSMaxCwnd) || c.FSMinCwnd <= 0 || c.FSMaxCwnd <= c.FSMinCwnd:
		return fmt.Errorf("fs_min_cwnd and fs_max_cwnd need 0 < fs_min_cwnd < fs_max_cwnd, got %v and %v", c.FSMinCwnd, c.FSMaxCwnd)
	case !finite(c.AI) || c.AI <= 0:
		return fmt.Errorf("ai must be positive, got %v", c.AI)
	case !finite(c.Beta) || c.Beta <= 0:
		return fmt.Errorf("beta must be positive, got %v", c.Beta)
	case !(c.MaxMDF > 0 && c.MaxMDF < 1):
		return fmt.Errorf("max_mdf must be in (0, 1), got %v", c.MaxMDF)
	case !finite(c.MinCwnd) || c.MinCwnd <= 0:
		return fmt.Errorf("min_cwnd must be positive, got %v", c.MinCwnd)
	case !finite(c.MaxCwnd) || c.MaxCwnd < 0 || (c.MaxCwnd > 0 && c.MaxCwnd < c.MinCwnd):
		return fmt.Errorf("max_cwnd must be auto or at least min_cwnd (%v), got %v", c.MinCwnd, c.MaxCwnd)
	case !finite(c.InitCwnd) || c.InitCwnd < 0:
		return fmt.Errorf("init_cwnd must be bdp or positive, got %v", c.InitCwnd)
	case c.RetxReset < 0:
		return fmt.Errorf("retx_reset must be at least 1, got %d", c.RetxReset)
	case c.FSMaxCwnd > CwndLimit || c.MinCwnd > CwndLimit || c.MaxCwnd > CwndLimit || c.InitCwnd > CwndLimit:
		return fmt.Errorf("fs_max_cwnd, min_cwnd, max_cwnd and init_cwnd must be at most %.0f packets, got %v, %v, %v and %v",
			float64(CwndLimit), c.FSMaxCwnd, c.MinCwnd, c.MaxCwnd, c.InitCwnd)
	}
	// Upper bounds: times up to limits.MaxTime, as the parser accepts.
	return keyval.FirstError(
		keyval.CheckDuration("base_target", c.BaseTarget),
		keyval.CheckDuration("hop_scale", c.HopScale),
		keyval.CheckDuration("fs_range", c.FSRange),
	)
}

// fsCoeffs returns section 3.5's alpha and beta of the flow-based scaling
// term, in picoseconds (times sqrt(packets) for alpha).
func (c *Config) fsCoeffs() (alpha, beta float64) {
	alpha = float64(c.FSRange) / (1/math.Sqrt(c.FSMinCwnd) - 1/math.Sqrt(c.FSMaxCwnd))
	beta = -alpha / math.Sqrt(c.FSMaxCwnd)
	return alpha, beta
}

// FlowScaling is section 3.5's flow-based term for a window of cwnd
// packets: clamp(0, alpha/sqrt(cwnd) + beta, fs_range), picoseconds
// (rounded to the nearest picosecond). c must be valid (see Build or New).
func (c Config) FlowScaling(cwnd float64) units.Time {
	alpha, beta := c.fsCoeffs()
	fs := float64(alpha/math.Sqrt(cwnd)) + beta
	return units.Time(math.Round(min(max(fs, 0), float64(c.FSRange))))
}

// Target is section 3.5's target delay for a window of cwnd packets on a
// path of hops hops: BaseTarget + hops*HopScale + FlowScaling(cwnd),
// picoseconds.
func (c Config) Target(cwnd float64, hops int) units.Time {
	return c.BaseTarget + units.Time(hops)*c.HopScale + c.FlowScaling(cwnd)
}
