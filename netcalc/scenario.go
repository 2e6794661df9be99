package netcalc

import "github.com/ccreplay/ccreplay/units"

// PaperIncast is the case study of Section V: 31 senders start a 10 MB
// burst at t = 0 at 100 Gb/s into one 100 Gb/s port, ΔR = 4 us, dt =
// 100 ns, horizon 10 ms. dcqcn selects DCQCN (Section V-B) instead of
// linerate; pfc adds PFC with X_off/X_on = 9.5/9.25 kB per Gb/s of the
// port (950/925 kB at 100 Gb/s).
func PaperIncast(dcqcn, pfc bool) Config {
	c := Config{
		Dt: 100 * units.Nanosecond, Horizon: 10 * units.Millisecond,
		C: 100 * units.Gbps, DeltaR: 4 * units.Microsecond, CC: LineRate,
	}
	for range 31 {
		c.Flows = append(c.Flows, Flow{Arrivals: []Arrival{{Bytes: 10 * units.MB}}, InitRate: 100 * units.Gbps})
	}
	if dcqcn {
		c.CC = DCQCN
	}
	if pfc {
		c.PFC = &PFCParams{XOff: 950 * units.KB, XOn: 925 * units.KB}
	}
	return c
}

// PaperFairness is the example of Section IV-B (Fig. 6): two greedy
// flows under Algorithm 1 (timeouts only) with α = 100 Mb/s, β = 0.8,
// Δτ_ai = 30 us, ΔR = 20 us, τ_o = 100 us, C = 100 Gb/s, starting at
// 60 and 90 Gb/s, for 50 ms on a 100 ns grid.
func PaperFairness() Config {
	greedy := []Arrival{{Bytes: GreedyBytes}}
	return Config{
		Dt: 100 * units.Nanosecond, Horizon: 50 * units.Millisecond,
		C: 100 * units.Gbps, DeltaR: 20 * units.Microsecond, CC: AIMDRate,
		AIMD: AIMDParams{Alpha: 100 * units.Mbps, Beta: 0.8, Timeout: 100 * units.Microsecond,
			IncreaseEvery: 30 * units.Microsecond},
		Flows: []Flow{{Arrivals: greedy, InitRate: 60 * units.Gbps}, {Arrivals: greedy, InitRate: 90 * units.Gbps}},
	}
}

// PaperVegas is the scenario of Section III-E: one TCP Vegas source at a
// 100 Gb/s link with ΔR = 20 us sends a 4 MB burst at t = 0, 50 Gb/s from
// then on, and 1.5 MB bursts every 0.5 ms from 1 ms on; 5 ms on a 100 ns
// grid, VegasDefaults parameters.
func PaperVegas() Config {
	arr := []Arrival{{Bytes: 4 * units.MB}, {Rate: 50 * units.Gbps}}
	for t := units.Millisecond; t < 5*units.Millisecond; t += 500 * units.Microsecond {
		arr = append(arr, Arrival{Bytes: 1500 * units.KB, At: t})
	}
	return Config{
		Dt: 100 * units.Nanosecond, Horizon: 5 * units.Millisecond,
		C: 100 * units.Gbps, DeltaR: 20 * units.Microsecond, CC: Vegas,
		Flows: []Flow{{Arrivals: arr}},
	}
}
