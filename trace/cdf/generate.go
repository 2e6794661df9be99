package cdf

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Config describes a CDF workload.
type Config struct {
	// Dist is the flow-size distribution.
	Dist *Dist
	// Hosts is the number of hosts, >= 2; flows go between distinct
	// hosts 0..Hosts-1.
	Hosts int
	// Bandwidth is each host's link rate, bits per second.
	Bandwidth units.BitsPerSec
	// Load is the offered load per host as a fraction of Bandwidth, in
	// (0, 1].
	Load float64
	// Duration is the arrival window [Start, Start+Duration),
	// picoseconds. Exactly one of Duration and Flows is positive.
	Duration units.Time
	// Flows, when positive, stops after this many flows instead.
	Flows int
	// MaxMessages, when positive, bounds the flows (given, or expected
	// from Duration) tighter than MaxFlows, e.g. from a memory budget: a
	// workload above it is refused with a *trace.TooManyMessagesError
	// before a flow is drawn.
	MaxMessages int
	// Start is when the arrival processes start, picoseconds, a whole
	// number of nanoseconds (trace files store nanoseconds).
	Start units.Time
}

// Stats describes a generated workload.
type Stats struct {
	// MeanSize is the distribution's mean used for the arrival rate,
	// bytes (Dist.Mean()).
	MeanSize float64
	// MeanInterArrival is each host's mean time between flow starts,
	// picoseconds: 8 x MeanSize / (Bandwidth x Load).
	MeanInterArrival units.Time
	// Flows is the number of flows generated.
	Flows int
	// OfferedBytes is the sum of the flow sizes, bytes.
	OfferedBytes int64
	// Window is the span the load is measured over, picoseconds:
	// Duration, or with Flows the time from Start to the arrival that
	// would have been flow number Flows+1 (so that Flows/Window is an
	// unbiased rate estimate).
	Window units.Time
	// TargetLoad is Config.Load.
	TargetLoad float64
	// AchievedLoad is OfferedBytes x 8 / (Hosts x Bandwidth x Window).
	AchievedLoad float64
}

// String summarises s on one line.
func (s Stats) String() string {
	return fmt.Sprintf("mean size %.0f B, mean inter-arrival %v per host, %d flows, %d B offered over %v: load %.4f (target %g)",
		s.MeanSize, s.MeanInterArrival, s.Flows, s.OfferedBytes, s.Window, s.AchievedLoad, s.TargetLoad)
}

// MaxFlows bounds the flows one Generate call may produce (about 2 GB of
// messages), to catch a unit typo before it exhausts memory.
const MaxFlows = 20_000_000

// pcgStream is the fixed second word of the PCG state; the seed is the
// first (the same constant as trace/gen).
const pcgStream = 0x6363_7265_706c_6179 // "ccreplay"

// validate checks c and returns the mean inter-arrival time in
// nanoseconds.
func (c *Config) validate() (float64, error) {
	switch {
	case c.Dist == nil:
		return 0, errors.New("no distribution")
	case c.Hosts < 2 || c.Hosts > math.MaxInt32:
		return 0, fmt.Errorf("hosts %d: want at least 2 (flows need distinct hosts)", c.Hosts)
	case c.Bandwidth <= 0:
		return 0, fmt.Errorf("bandwidth %d bps must be positive", c.Bandwidth)
	case !(c.Load > 0 && c.Load <= 1):
		return 0, fmt.Errorf("load %v must be in (0, 1]", c.Load)
	case (c.Duration > 0) == (c.Flows > 0):
		return 0, fmt.Errorf("give exactly one of a positive duration and a positive flow count (duration %v, flows %d)", c.Duration, c.Flows)
	case c.Duration < 0 || c.Flows < 0:
		return 0, fmt.Errorf("duration %v and flows %d must not be negative", c.Duration, c.Flows)
	case c.Flows > MaxFlows:
		return 0, fmt.Errorf("flows %d above the limit of %d", c.Flows, MaxFlows)
	case c.Start < 0 || c.Start%units.Nanosecond != 0:
		return 0, fmt.Errorf("start %v must be >= 0 and a whole number of nanoseconds", c.Start)
	case c.Duration > math.MaxInt64/2-c.Start:
		return 0, fmt.Errorf("start %v + duration %v is out of range", c.Start, c.Duration)
	}
	// FDCC (Zhang 2023), Section 6.3: ArrivalInterval_avg =
	// 1 / (BW x workload% / (8 x flow-size_avg)) x 10^9 ns.
	iaNs := 1 / (float64(c.Bandwidth) * c.Load / (8 * c.Dist.Mean())) * 1e9
	if !(iaNs > 0) || math.IsInf(iaNs, 0) {
		return 0, fmt.Errorf("mean inter-arrival %v ns is not usable (mean size %v B)", iaNs, c.Dist.Mean())
	}
	n := float64(c.Flows)
	if c.Duration > 0 {
		n = float64(c.Hosts) * float64(c.Duration/units.Nanosecond) / iaNs
		if n > MaxFlows {
			return 0, fmt.Errorf("about %.0f flows expected (hosts %d x duration %v / mean inter-arrival %.0f ns), above the limit of %d: shorten the duration",
				n, c.Hosts, c.Duration, iaNs, MaxFlows)
		}
	}
	if c.MaxMessages > 0 && n > float64(c.MaxMessages) {
		return 0, &trace.TooManyMessagesError{Generator: "cdf", Messages: n, Limit: c.MaxMessages}
	}
	return iaNs, nil
}

// Generate draws the workload c describes with randomness from a PCG
// generator seeded with seed: every host starts flows as a Poisson
// process of mean inter-arrival 8 x Dist.Mean() / (Bandwidth x Load),
// each flow to a uniformly random other host, of a size drawn from
// Dist, on a queue pair of its own. Release times are whole nanoseconds
// (arrival times rounded down). Messages are in release order (ties by
// source host) with ids 0, 1, ...; the trace is validated.
func Generate(c Config, seed int64) (*trace.Trace, Stats, error) {
	iaNs, err := c.validate()
	var many *trace.TooManyMessagesError
	if errors.As(err, &many) {
		return nil, Stats{}, err
	}
	if err != nil {
		return nil, Stats{}, fmt.Errorf("cdf: %w", err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), pcgStream))
	h := make(arrivals, c.Hosts)
	for i := range h {
		h[i] = arrival{t: rng.ExpFloat64() * iaNs, host: int32(i)}
	}
	h.init()

	startNs := int64(c.Start / units.Nanosecond)
	durNs := float64(c.Duration / units.Nanosecond)
	t := &trace.Trace{Hosts: c.Hosts}
	switch {
	case c.Flows > 0:
		t.Messages = make([]trace.Message, 0, c.Flows)
	case c.Duration > 0:
		// About n = hosts x duration / inter-arrival flows (validate
		// bounds n by MaxFlows), Poisson: room for n and four standard
		// deviations, so that the slice rarely grows and copies itself.
		n := float64(c.Hosts) * durNs / iaNs
		t.Messages = make([]trace.Message, 0, int(n+4*math.Sqrt(n))+16)
	}
	st := Stats{MeanSize: c.Dist.Mean(), MeanInterArrival: units.Time(math.Round(iaNs * 1e3)), TargetLoad: c.Load}
	for {
		next := h[0]
		if (c.Flows > 0 && len(t.Messages) == c.Flows) || (c.Duration > 0 && next.t >= durNs) {
			break
		}
		size := c.Dist.Sample(rng.Float64())
		dst := int32(rng.IntN(c.Hosts - 1))
		if dst >= next.host {
			dst++ // uniform over the other hosts
		}
		if st.OfferedBytes > math.MaxInt64-size {
			return nil, Stats{}, errors.New("cdf: offered bytes overflow int64")
		}
		st.OfferedBytes += size
		t.Messages = append(t.Messages, trace.Message{
			ID:           int64(len(t.Messages)),
			Src:          next.host,
			Dst:          dst,
			Bytes:        size,
			Release:      units.Nanos(startNs + int64(next.t)),
			FlowID:       trace.NoFlow,
			CollectiveID: trace.NoCollective,
			Iteration:    trace.NoIteration,
			SrcRank:      trace.NoRank,
			DstRank:      trace.NoRank,
		})
		h[0].t += rng.ExpFloat64() * iaNs
		h.fix0()
	}
	st.Flows = len(t.Messages)
	st.Window = c.Duration
	if c.Flows > 0 {
		st.Window = units.Nanos(int64(h[0].t))
	}
	if st.Window > 0 {
		st.AchievedLoad = float64(st.OfferedBytes) * 8 / (float64(c.Hosts) * float64(c.Bandwidth) * st.Window.Seconds())
	}
	if err := t.Validate(); err != nil {
		return nil, Stats{}, fmt.Errorf("cdf: generated an invalid trace (a bug): %w", err)
	}
	return t, st, nil
}

// arrival is a host's next flow start, nanoseconds after Start.
type arrival struct {
	t    float64
	host int32
}

// arrivals is a binary min-heap ordered by (t, host), so that equal times
// resolve the same way on every run.
type arrivals []arrival

func (h arrivals) less(i, j int) bool {
	return h[i].t < h[j].t || (h[i].t == h[j].t && h[i].host < h[j].host)
}

func (h arrivals) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// fix0 restores the heap after h[0] grew.
func (h arrivals) fix0() { h.down(0) }

func (h arrivals) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
