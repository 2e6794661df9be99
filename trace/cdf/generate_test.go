package cdf

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// smallDist is a step CDF of mean 14500 B built here.
func smallDist(t *testing.T) *Dist {
	return mustNew(t, []float64{1000, 10000, 100000}, []float64{0.5, 0.9, 1}, Step)
}

// checkLoad generates c and requires the achieved load within 4 standard
// errors of the target. Bytes offered in a window are a compound Poisson
// sum, so their relative standard error is sqrt(E[S^2]/N)/E[S] with N the
// expected flow count.
func checkLoad(t *testing.T, c Config, seed int64) (*trace.Trace, Stats) {
	t.Helper()
	tr, st, err := Generate(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(c.Hosts) * float64(st.Window) / float64(st.MeanInterArrival)
	tol := 4 * math.Sqrt(c.Dist.m2/n) / c.Dist.Mean()
	if tol > 0.02 {
		t.Fatalf("window too short for a useful test: tolerance %.2f%% (%.0f flows expected)", 100*tol, n)
	}
	if math.Abs(st.AchievedLoad/c.Load-1) > tol {
		t.Errorf("achieved load %.4f, want %.4f within %.2f%% (%s)", st.AchievedLoad, c.Load, 100*tol, st)
	}
	return tr, st
}

func TestAchievedLoad(t *testing.T) {
	d := smallDist(t)
	for _, load := range []float64{0.2, 0.5, 0.8} {
		checkLoad(t, Config{Dist: d, Hosts: 16, Bandwidth: 100 * units.Gbps, Load: load, Duration: 100 * units.Millisecond}, 5)
	}
	// In flow-count mode too.
	_, st := checkLoad(t, Config{Dist: d, Hosts: 8, Bandwidth: 25 * units.Gbps, Load: 0.5, Flows: 300_000, Start: units.Millisecond}, 6)
	if st.Flows != 300_000 {
		t.Errorf("flows %d, want 300000", st.Flows)
	}
}

// FDCC (Zhang 2023), Section 6.3: mean inter-arrival
// 1 / (BW x load / (8 x mean size)); here 8 x 14500 / (100e9 x 0.5) s =
// 2.32 us.
func TestMeanInterArrivalFormula(t *testing.T) {
	tr, st, err := Generate(Config{Dist: smallDist(t), Hosts: 4, Bandwidth: 100 * units.Gbps, Load: 0.5, Duration: 50 * units.Millisecond}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.MeanInterArrival != 2320*units.Nanosecond || math.Abs(st.MeanSize-14500) > 1e-9 {
		t.Fatalf("mean inter-arrival %v, mean size %v; want 2.32us, 14500", st.MeanInterArrival, st.MeanSize)
	}
	// Each host's gaps are exponential: mean within 4 standard errors
	// (sd = mean) of 2.32 us, and coefficient of variation near 1.
	last := map[int32]units.Time{}
	var gaps []float64
	for _, m := range tr.Messages {
		if prev, ok := last[m.Src]; ok {
			gaps = append(gaps, float64(m.Release-prev))
		}
		last[m.Src] = m.Release
	}
	mean, sq := 0.0, 0.0
	for _, g := range gaps {
		mean += g
		sq += g * g
	}
	mean /= float64(len(gaps))
	cv := math.Sqrt(sq/float64(len(gaps))-mean*mean) / mean
	if want := 2320e3; math.Abs(mean-want) > 4*want/math.Sqrt(float64(len(gaps))) {
		t.Errorf("mean gap %.0f ps over %d gaps, want %.0f", mean, len(gaps), want)
	}
	if math.Abs(cv-1) > 0.03 {
		t.Errorf("gap coefficient of variation %.3f, want about 1 (exponential)", cv)
	}
}

// No self pairs; destinations uniform over the other hosts (chi-square
// over the 56 ordered pairs of 8 hosts, 55 degrees of freedom, critical
// value 93.17 at the 0.1 % level) and sources uniform (7 degrees of
// freedom, 24.32).
func TestPairsUniform(t *testing.T) {
	const hosts = 8
	tr, _, err := Generate(Config{Dist: smallDist(t), Hosts: hosts, Bandwidth: 10 * units.Gbps, Load: 0.5, Flows: 56_000}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var pair [hosts][hosts]float64
	var src [hosts]float64
	for _, m := range tr.Messages {
		if m.Src == m.Dst {
			t.Fatalf("self pair: %+v", m)
		}
		pair[m.Src][m.Dst]++
		src[m.Src]++
	}
	n := float64(len(tr.Messages))
	chi := 0.0
	for s := range hosts {
		for d := range hosts {
			if s != d {
				e := n / (hosts * (hosts - 1))
				chi += (pair[s][d] - e) * (pair[s][d] - e) / e
			}
		}
	}
	if chi > 93.17 {
		t.Errorf("pair chi-square %.1f > 93.17 (55 dof, 0.1%%): destinations not uniform", chi)
	}
	chi = 0
	for s := range hosts {
		e := n / hosts
		chi += (src[s] - e) * (src[s] - e) / e
	}
	if chi > 24.32 {
		t.Errorf("source chi-square %.1f > 24.32 (7 dof, 0.1%%)", chi)
	}
}

func TestGenerateShape(t *testing.T) {
	c := Config{Dist: smallDist(t), Hosts: 5, Bandwidth: 100 * units.Gbps, Load: 0.4, Duration: 2 * units.Millisecond, Start: 3 * units.Microsecond}
	tr, st, err := Generate(c, 42)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Hosts != 5 || st.Flows != len(tr.Messages) || st.Flows == 0 {
		t.Fatalf("hosts %d, flows %d/%d", tr.Hosts, st.Flows, len(tr.Messages))
	}
	var bytes int64
	for i, m := range tr.Messages {
		switch {
		case m.ID != int64(i):
			t.Fatalf("message %d has id %d", i, m.ID)
		case m.FlowID != trace.NoFlow || m.CollectiveID != trace.NoCollective || len(m.Deps) != 0:
			t.Fatalf("message %d: flow %d collective %d deps %v", i, m.FlowID, m.CollectiveID, m.Deps)
		case m.Release < c.Start || m.Release >= c.Start+c.Duration || m.Release%units.Nanosecond != 0:
			t.Fatalf("message %d released at %v, outside [3us, 2.003ms) or not whole ns", i, m.Release)
		case i > 0 && m.Release < tr.Messages[i-1].Release:
			t.Fatalf("message %d released before message %d", i, i-1)
		case m.Bytes != 1000 && m.Bytes != 10000 && m.Bytes != 100000:
			t.Fatalf("message %d has %d bytes", i, m.Bytes)
		}
		bytes += m.Bytes
	}
	if bytes != st.OfferedBytes || st.Window != c.Duration || st.TargetLoad != 0.4 {
		t.Errorf("stats %+v, bytes %d", st, bytes)
	}
	if s := st.String(); !strings.Contains(s, "mean size 14500 B") || !strings.Contains(s, "target 0.4") {
		t.Errorf("String() = %q", s)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	c := Config{Dist: smallDist(t), Hosts: 7, Bandwidth: 100 * units.Gbps, Load: 0.6, Flows: 5000}
	a, sa, _ := Generate(c, 9)
	b, sb, _ := Generate(c, 9)
	if !reflect.DeepEqual(a, b) || sa != sb {
		t.Error("same seed, different traces")
	}
	d, _, _ := Generate(c, 10)
	if reflect.DeepEqual(a, d) {
		t.Error("different seeds, same trace")
	}
}

func TestGenerateErrors(t *testing.T) {
	d := smallDist(t)
	ok := Config{Dist: d, Hosts: 4, Bandwidth: units.Gbps, Load: 0.5, Duration: units.Millisecond}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Dist = nil }, "no distribution"},
		{func(c *Config) { c.Hosts = 1 }, "hosts 1"},
		{func(c *Config) { c.Bandwidth = 0 }, "bandwidth"},
		{func(c *Config) { c.Load = 0 }, "load 0 must be in (0, 1]"},
		{func(c *Config) { c.Load = 1.5 }, "load 1.5"},
		{func(c *Config) { c.Load = math.NaN() }, "load NaN"},
		{func(c *Config) { c.Flows = 10 }, "exactly one"},
		{func(c *Config) { c.Duration = 0 }, "exactly one"},
		{func(c *Config) { c.Duration, c.Flows = 0, MaxFlows+1 }, "above the limit"},
		{func(c *Config) { c.Start = 5 }, "whole number of nanoseconds"},
		{func(c *Config) { c.Duration = 1000 * units.Second; c.Bandwidth = 400 * units.Gbps; c.Hosts = 1000 }, "flows expected"},
	} {
		cfg := ok
		c.edit(&cfg)
		if _, _, err := Generate(cfg, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
