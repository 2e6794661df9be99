package swift

import (
	"maps"
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// TestPresetParams checks the kumar2020 values (params.go), that Params
// lists every key, and that feeding Params back to Build reproduces the
// configuration.
func TestPresetParams(t *testing.T) {
	s, err := Build("", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"base_target": "25us", "hop_scale": "1us", "fs_range": "125us",
		"fs_min_cwnd": "0.1", "fs_max_cwnd": "100", "ai": "1", "beta": "0.8",
		"max_mdf": "0.5", "min_cwnd": "0.001", "max_cwnd": "auto",
		"init_cwnd": "bdp", "retx_reset": "5",
	}
	if s.Name != "swift:kumar2020" || !maps.Equal(s.Params, want) {
		t.Fatalf("Build(\"\") = %s %v, want swift:kumar2020 %v", s.Name, s.Params, want)
	}
	if len(s.Params) != len(table.Keys()) {
		t.Fatalf("Params has %d keys, Keys %d", len(s.Params), len(table.Keys()))
	}
	if s.ECN != nil || s.CNPInterval != 0 || s.NeedsINT {
		t.Fatalf("swift asks the network for ECN %v, CNP interval %v, INT %v; want none", s.ECN, s.CNPInterval, s.NeedsINT)
	}
	over := map[string]string{"base_target": "12500ns", "hop_scale": "500ns", "max_cwnd": "64", "init_cwnd": "3.5", "ai": "0.5"}
	s1, err := Build("kumar2020", over)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range over {
		if s1.Params[k] != v {
			t.Errorf("Params[%s] = %q, want %q", k, s1.Params[k], v)
		}
	}
	s2, err := Build("kumar2020", s1.Params)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(s1.Params, s2.Params) {
		t.Fatalf("round trip changed Params:\n%v\n%v", s1.Params, s2.Params)
	}
	r := cca.NewRegistry()
	Register(r)
	if _, err := r.Build("swift:kumar2020", nil); err != nil {
		t.Fatal(err)
	}
}

// Section 3.5 with the kumar2020 constants (base_target 25 us, h 1 us,
// fs_range 125 us, fs_min_cwnd 0.1, fs_max_cwnd 100), by hand:
// alpha = 125 us / (1/sqrt(0.1) - 1/sqrt(100)) = 125/(3.1622777 - 0.1)
// = 40.819290 us, beta = -alpha/10 = -4.0819290 us.
func TestDefaultTarget(t *testing.T) {
	c, _, _ := table.Preset("")
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cwnd float64
		hops int
		want float64 // us
	}{
		{100, 2, 27},                          // fs = 40.819290/10 - 4.0819290 = 0
		{1000, 6, 31},                         // fs < 0, clamped to 0
		{1, 2, 27 + 40.819290 - 4.0819290},    // 63.737361
		{25, 2, 27 + 40.819290/5 - 4.0819290}, // 31.081929
		{0.1, 2, 27 + 125},                    // fs_min_cwnd: fs_range
		{0.001, 4, 29 + 125},                  // clamped to fs_range
		{10, 0, 25 + 40.819290/math.Sqrt(10) - 4.0819290},
	} {
		got := float64(c.Target(tc.cwnd, tc.hops)) / float64(units.Microsecond)
		if math.Abs(got-tc.want) > 1e-5 {
			t.Errorf("Target(cwnd=%v, hops=%d) = %.6f us, want %.6f us", tc.cwnd, tc.hops, got, tc.want)
		}
	}
}
