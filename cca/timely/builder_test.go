package timely

import (
	"maps"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
)

// TestPresetParams checks each preset's effective values against its
// source (params.go), that Params lists every key, that the Spec asks the
// network for nothing, and that feeding Params back to Build reproduces
// the configuration.
func TestPresetParams(t *testing.T) {
	paper := map[string]string{
		"alpha": "0.875", "beta": "0.8", "t_low": "50us", "t_high": "500us",
		"delta": "10Mbps", "hai_factor": "5", "hai_after": "5", "hai_mode": "gradient",
		"segment": "16KB", "min_rtt": "base", "min_rate": "100Mbps", "first_record_only": "false",
	}
	with := func(kv ...string) map[string]string {
		m := maps.Clone(paper)
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		preset, name string
		want         map[string]string
	}{
		{"", "timely:scaled", with("t_low", "2.5x", "t_high", "25x", "delta", "0.001x", "segment", "rtt")},
		{"mittal2015", "timely:mittal2015", paper},
		// The HPCC repository's run.py, --cc timely: ai = 10*bw/10 Mb/s
		// (line 133) is 0.001 of the line rate, hai = 50*bw/10 (line 134)
		// five of them; MIN_RATE 1000Mb/s (template line 28); rdma-hw.cc's
		// TimelyAlpha 0.875, TimelyBeta 0.8, TimelyTLow 50000 ns,
		// TimelyTHigh 500000 ns, TimelyMinRtt 20000 ns; HandleAckTimely's
		// once-per-RTT update, first-RTT record and m_incStage < 5.
		{"hpcc-run", "timely:hpcc-run", with("delta", "0.001x", "hai_mode", "increase", "segment", "rtt",
			"min_rtt", "20us", "min_rate", "1Gbps", "first_record_only", "true")},
		{"hpcc", "timely:hpcc-run", with("delta", "0.001x", "hai_mode", "increase", "segment", "rtt",
			"min_rtt", "20us", "min_rate", "1Gbps", "first_record_only", "true")},
		{"scaled", "timely:scaled", with("t_low", "2.5x", "t_high", "25x", "delta", "0.001x", "segment", "rtt")},
	} {
		s, err := Build(tc.preset, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != tc.name || !maps.Equal(s.Params, tc.want) {
			t.Errorf("Build(%q) = %s %v, want %s %v", tc.preset, s.Name, s.Params, tc.name, tc.want)
		}
		if len(s.Params) != len(table.Keys()) {
			t.Errorf("%s: Params has %d keys, Keys %d", tc.name, len(s.Params), len(table.Keys()))
		}
		if s.ECN != nil || s.CNPInterval != 0 || s.NeedsINT {
			t.Errorf("%s asks the network for ECN %v, CNP interval %v, INT %v; want none", tc.name, s.ECN, s.CNPInterval, s.NeedsINT)
		}
		over := map[string]string{"t_low": "30us", "delta": "25Mbps", "segment": "64KB", "min_rtt": "8us"}
		s1, err := Build(tc.preset, over)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range over {
			if s1.Params[k] != v {
				t.Errorf("%s: Params[%s] = %q, want %q", tc.name, k, s1.Params[k], v)
			}
		}
		s2, err := Build(tc.preset, s1.Params)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(s1.Params, s2.Params) {
			t.Errorf("%s: round trip changed Params:\n%v\n%v", tc.name, s1.Params, s2.Params)
		}
	}
	r := cca.NewRegistry()
	Register(r)
	if _, err := r.Build("timely:scaled", map[string]string{"beta": "0.5"}); err != nil {
		t.Fatal(err)
	}
}
