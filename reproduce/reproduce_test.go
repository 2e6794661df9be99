package reproduce

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/runconfig"
)

func TestJudgeQuantity(t *testing.T) {
	c := Claim{Kind: Quantity, Paper: 0.96, Factor: 1.1}
	for _, tc := range []struct {
		ours float64
		want Verdict
	}{
		{0.96, Reproduces},
		{0.96 * 1.1, Reproduces},
		{0.96 / 1.1, Reproduces},
		{0.96 * 1.11, Differs},
		{0.96 / 1.11, Differs},
		{0, Differs},
		{-0.96, Differs},
		{math.NaN(), Differs},
		{math.Inf(1), Differs},
	} {
		if got := c.Judge(tc.ours); got != tc.want {
			t.Errorf("paper 0.96 x1.1, ours %v: %s, want %s", tc.ours, got, tc.want)
		}
	}
}

// A change is judged on its sign first (Dolce-RC (Ye 2023), Section V-B's
// "68 % lower" is -0.68), then on its size.
func TestJudgeChange(t *testing.T) {
	c := Claim{Kind: Change, Paper: -0.68, Factor: 1.5}
	for _, tc := range []struct {
		ours float64
		want Verdict
	}{
		{-0.68, Reproduces},
		{-0.46, Reproduces}, // 0.68/0.46 = 1.48
		{-1.0, Reproduces},
		{-0.40, SameDirection},
		{-0.02, SameDirection},
		{-0.009, Differs}, // below NoChange: no direction
		{0, Differs},
		{0.68, Differs},
		{math.NaN(), Differs},
	} {
		if got := c.Judge(tc.ours); got != tc.want {
			t.Errorf("paper -68 %%, ours %v: %s, want %s", tc.ours, got, tc.want)
		}
	}
	if got := (&Claim{Kind: Change, Factor: 1.5}).Rule(); got != "same sign, size within x1.5" {
		t.Errorf("Rule = %q", got)
	}
	if got := (&Claim{Kind: Quantity, Factor: 2}).Rule(); got != "within x2" {
		t.Errorf("Rule = %q", got)
	}
}

func TestParseScaleAndLookup(t *testing.T) {
	for in, want := range map[string]Scale{"small": Small, "full": Full, " full ": Full} {
		if got, err := ParseScale(in); err != nil || got != want {
			t.Errorf("ParseScale(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseScale("medium"); err == nil {
		t.Error("ParseScale(medium) accepted")
	}
	if _, err := Lookup("no-such"); err == nil || !strings.Contains(err.Error(), "fdcc-table6.2") {
		t.Errorf("Lookup(no-such) = %v, want an error listing the experiments", err)
	}
}

func TestCheckLabels(t *testing.T) {
	ok := []Run{{Label: "n=4/cca=x"}, {Label: "n=16/cca=x"}}
	if err := checkLabels(ok); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]Run{
		{{Label: ""}},
		{{Label: "/abs"}},
		{{Label: "a/../b"}},
		{{Label: `a\b`}},
		{{Label: "a"}, {Label: "a"}},
	} {
		if err := checkLabels(bad); err == nil {
			t.Errorf("checkLabels(%v) accepted", bad)
		}
	}
}

// The configuration files Execute writes read back, through the same
// loader `ccreplay run --config` uses, as the configuration that made them.
func TestConfigRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, e := range All() {
		for _, s := range []Scale{Small, Full} {
			for _, r := range e.Runs(s) {
				b, err := marshalConfig(&r.Config)
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(b, []byte("null")) || bytes.Contains(b, []byte(`""`)) {
					t.Errorf("%s %s: empty values written:\n%s", e.Name, r.Label, b)
				}
				p := filepath.Join(dir, ConfigName(r.Label))
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				got, err := runconfig.Load(p)
				if err != nil {
					t.Fatalf("%s %s: %v", e.Name, r.Label, err)
				}
				if !reflect.DeepEqual(*got, r.Config) {
					t.Errorf("%s %s: read back %+v, want %+v", e.Name, r.Label, *got, r.Config)
				}
			}
		}
	}
}

// Every experiment is well formed at both scales: its runs resolve (the
// workload, topology, algorithm and network sections are valid) and its
// claims are unique, judged by a factor >= 1 and measure runs that exist.
func TestExperimentsWellFormed(t *testing.T) {
	if len(All()) < 5 {
		t.Fatalf("%d experiments registered", len(All()))
	}
	reg := all.Registry()
	dir := t.TempDir()
	names := map[string]bool{}
	for _, e := range All() {
		if names[e.Name] || e.Paper == "" || e.Title == "" || e.Setup == "" {
			t.Errorf("experiment %q: duplicate or missing text", e.Name)
		}
		names[e.Name] = true
		for _, s := range []Scale{Small, Full} {
			runs := e.Runs(s)
			if err := checkLabels(runs); err != nil {
				t.Errorf("%s %s: %v", e.Name, s, err)
			}
			for _, r := range runs {
				if testing.Short() && s == Full {
					continue
				}
				b, err := marshalConfig(&r.Config)
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, ConfigName(r.Label))
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				st, err := runconfig.Resolve(runconfig.Request{Config: p}, reg)
				if err != nil {
					t.Errorf("%s %s run %s: %v", e.Name, s, r.Label, err)
					continue
				}
				if _, err := st.Config(st.Specs[0], 1); err != nil {
					t.Errorf("%s %s run %s: %v", e.Name, s, r.Label, err)
				}
			}
			ids := map[string]bool{}
			for _, c := range e.Claims(s) {
				if ids[c.ID] || c.What == "" || c.Measure == nil || c.Factor < 1 || c.Paper == 0 {
					t.Errorf("%s %s claim %q: duplicate or malformed", e.Name, s, c.ID)
				}
				ids[c.ID] = true
			}
			if len(ids) == 0 {
				t.Errorf("%s %s: no claims", e.Name, s)
			}
		}
	}
}

func TestValueJSON(t *testing.T) {
	b, err := json.Marshal([]Value{1.5, Value(math.NaN()), Value(math.Inf(-1))})
	if err != nil || string(b) != "[1.5,null,null]" {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back []Value
	if err := json.Unmarshal(b, &back); err != nil || back[0] != 1.5 || !math.IsNaN(float64(back[1])) {
		t.Fatalf("Unmarshal = %v, %v", back, err)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		v      float64
		unit   string
		change bool
		want   string
	}{
		{-0.68, "%", true, "-68.0 %"},
		{0.9537, "", false, "0.9537"},
		{216689, "B", false, "216689 B"},
		{481.43, "us", false, "481.4 us"},
		{math.NaN(), "us", false, "n/a"},
	} {
		if got := Format(tc.v, tc.unit, tc.change); got != tc.want {
			t.Errorf("Format(%v, %q, %v) = %q, want %q", tc.v, tc.unit, tc.change, got, tc.want)
		}
	}
}

// fromRun derives a run's figures once for all the claims that read them.
func TestFromRunDerivesOnce(t *testing.T) {
	reads := 0
	read := func(*Outcome) ([2]float64, error) { reads++; return [2]float64{1, 2}, nil }
	o := Outcomes{"a": {Done: true}}
	first := fromRun("a", "k", read, func(v [2]float64) float64 { return v[0] })
	second := fromRun("a", "k", read, func(v [2]float64) float64 { return v[1] })
	if v, err := first(o); v != 1 || err != nil {
		t.Fatalf("first = %v, %v", v, err)
	}
	if v, err := second(o); v != 2 || err != nil {
		t.Fatalf("second = %v, %v", v, err)
	}
	if reads != 1 {
		t.Errorf("read %d times, want once", reads)
	}
	if _, err := first(Outcomes{}); err == nil {
		t.Error("a missing run gave no error")
	}
}

// TestShippedPresetsOnly: every run of every experiment takes a shipped
// preset (named, or the algorithm's default) and overrides none of its
// values; the settings of a
// paper's setup belong to the preset that cites it (docs/PARAMETERS.md's
// "reproduces" column), not to the experiment. The one key a run may set
// is policy: which trained policy runs is what RL-CC-NIC (Fuhrer 2023),
// Table III compares, not a setting of the setup.
func TestShippedPresetsOnly(t *testing.T) {
	r := all.Registry()
	for _, e := range All() {
		for _, s := range []Scale{Small, Full} {
			for _, run := range e.Runs(s) {
				spec := run.Config.CCA
				for k := range run.Config.CCAParams {
					if k != "policy" {
						t.Errorf("%s %s: %s overrides %s=%s", e.Name, run.Label, spec, k, run.Config.CCAParams[k])
					}
				}
				if _, err := r.Build(spec, run.Config.CCAParams); err != nil {
					t.Errorf("%s %s: %v", e.Name, run.Label, err)
				}
			}
		}
	}
}
