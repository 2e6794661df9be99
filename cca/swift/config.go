package swift

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/units"
)

// Config is the configuration of one Swift flow. A field left at zero
// takes the kumar2020 default unless its comment says what zero means; the
// defaults and bounds are the table in params.go.
type Config struct {
	// BaseTarget is the target delay of a one-hop path with few flows,
	// picoseconds. Default 25 us (our choice for a datacenter fabric; see
	// params.go).
	BaseTarget units.Time
	// HopScale is h, the target added per hop of the forward path,
	// picoseconds. Default 1 us (our choice).
	HopScale units.Time
	// FSRange is the largest flow-based scaling term, reached at
	// FSMinCwnd, picoseconds. Default 125 us (5 x BaseTarget, our choice).
	FSRange units.Time
	// FSMinCwnd is the window, packets, at and below which the flow-based
	// term is FSRange. Default 0.1 (see params.go for the source).
	FSMinCwnd float64
	// FSMaxCwnd is the window, packets, at and above which the flow-based
	// term is 0. Default 100 (see params.go).
	FSMaxCwnd float64
	// AI is the additive increment, packets per RTT. Default 1 (see
	// params.go).
	AI float64
	// Beta is the multiplicative-decrease constant (dimensionless).
	// Default 0.8 (see params.go).
	Beta float64
	// MaxMDF is the largest multiplicative decrease in one step, in (0, 1).
	// Default 0.5 (see params.go).
	MaxMDF float64
	// MinCwnd is the floor of the window, packets. Default 0.001 (see
	// params.go).
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

// validate fills the zero fields that take a default (see the table in
// params.go) and checks every field, returning the first problem found.
func (c *Config) validate() error {
	table.Fill(c)
	if err := table.Check(c); err != nil {
		return err
	}
	switch {
	case c.FSMaxCwnd <= c.FSMinCwnd:
		return fmt.Errorf("fs_min_cwnd and fs_max_cwnd need 0 < fs_min_cwnd < fs_max_cwnd, got %v and %v", c.FSMinCwnd, c.FSMaxCwnd)
	case c.MaxCwnd > 0 && c.MaxCwnd < c.MinCwnd:
		return fmt.Errorf("max_cwnd must be auto or at least min_cwnd (%v), got %v", c.MinCwnd, c.MaxCwnd)
	}
	return nil
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
