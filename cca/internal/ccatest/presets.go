package ccatest

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
)

// Preset is what a package's preset test expects of Build(Preset, nil):
// the canonical spec name, the network hints, and the effective values.
type Preset struct {
	// Preset is the name asked for ("" for the default, or an alias).
	Preset string
	// Aliases are other names that must build the same: each is checked
	// as Preset is.
	Aliases []string
	// Name is the spec's name, "algorithm:canonical preset".
	Name string
	// Hints are the ECN, CNPInterval, NeedsINT and NeedsFlowCounter
	// fields the Spec must carry (the rest of Hints is ignored).
	Hints cca.Spec
	// Params are the effective values, every key of the table (nil: not
	// checked for this preset).
	Params map[string]string
}

// CheckPresets builds every case, under its Preset and each of its
// Aliases, with build and checks its name and hints, that Spec.Params
// lists exactly keys, that a case's Params (when given) name every key and
// match, and that New makes the algorithm algo. It returns the specs by
// case (built under Preset).
func CheckPresets(t *testing.T, build cca.Builder, algo string, keys []string, cases []Preset) []cca.Spec {
	t.Helper()
	out := make([]cca.Spec, len(cases))
	for i, tc := range cases {
		out[i] = checkPreset(t, build, algo, keys, tc.Preset, tc)
		for _, alias := range tc.Aliases {
			checkPreset(t, build, algo, keys, alias, tc)
		}
	}
	return out
}

// checkPreset is CheckPresets' checks of case tc built under the name
// preset.
func checkPreset(t *testing.T, build cca.Builder, algo string, keys []string, preset string, tc Preset) cca.Spec {
	t.Helper()
	s, err := build(preset, nil)
	if err != nil {
		t.Fatalf("%q: %v", preset, err)
	}
	if s.Name != tc.Name {
		t.Errorf("%q: Name = %q, want %q", preset, s.Name, tc.Name)
	}
	h := tc.Hints
	if !reflect.DeepEqual(s.ECN, h.ECN) || s.CNPInterval != h.CNPInterval || s.NeedsINT != h.NeedsINT || s.NeedsFlowCounter != h.NeedsFlowCounter {
		t.Errorf("%q: hints ECN %+v, CNP interval %v, INT %v, flow counter %v; want ECN %+v, %v, %v, %v", preset,
			s.ECN, s.CNPInterval, s.NeedsINT, s.NeedsFlowCounter, h.ECN, h.CNPInterval, h.NeedsINT, h.NeedsFlowCounter)
	}
	if got := slices.Sorted(maps.Keys(s.Params)); !slices.Equal(got, keys) {
		t.Errorf("%q: Params has keys %v, want %v", preset, got, keys)
	}
	if tc.Params != nil {
		if got := slices.Sorted(maps.Keys(tc.Params)); !slices.Equal(got, keys) {
			t.Errorf("%q: the test checks keys %v of %v", preset, got, keys)
		}
		for k, v := range tc.Params {
			if s.Params[k] != v {
				t.Errorf("%q: Params[%q] = %q, want %q", preset, k, s.Params[k], v)
			}
		}
	}
	if a := s.New(); a.Name() != algo {
		t.Errorf("%q: New makes %q, want %q", preset, a.Name(), algo)
	}
	return s
}

// BuildError is a bad preset or parameter set and the text its error must
// contain.
type BuildError struct {
	Preset string
	Params map[string]string
	Want   string
}

// CheckBuildErrors checks that build rejects every case with an error
// that contains its Want and starts in lowercase (errors are wrapped into
// "algorithm: ..." messages).
func CheckBuildErrors(t *testing.T, build cca.Builder, cases []BuildError) {
	t.Helper()
	for _, tc := range cases {
		_, err := build(tc.Preset, tc.Params)
		if err == nil {
			t.Errorf("Build(%q, %v): no error, want %q", tc.Preset, tc.Params, tc.Want)
			continue
		}
		if !strings.Contains(err.Error(), tc.Want) {
			t.Errorf("Build(%q, %v) = %q, want it to contain %q", tc.Preset, tc.Params, err, tc.Want)
		}
		if e := err.Error(); strings.ToLower(e[:1]) != e[:1] {
			t.Errorf("Build(%q, %v): error %q does not start in lowercase", tc.Preset, tc.Params, e)
		}
	}
}

// CheckPanics checks that every case panics (misuse is caught loudly),
// each run on a fresh value from fresh.
func CheckPanics[A any](t *testing.T, fresh func() A, cases map[string]func(A)) {
	t.Helper()
	for name, f := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(fresh())
		}()
	}
}

// Registered is what a package's registry test expects of its Register.
type Registered struct {
	// Spec ("name:preset") built with Params must be named Name and carry
	// every value of Params in Spec.Params.
	Spec, Name string
	Params     map[string]string
	// Doc is a word of the algorithm's doc line.
	Doc string
	// Bad built with BadParams must fail with an error starting BadErr.
	Bad, BadErr string
	BadParams   map[string]string
}

// CheckRegister registers into a fresh registry with register and checks
// the build, the doc line and the error want describes.
func CheckRegister(t *testing.T, register func(*cca.Registry), want Registered) {
	t.Helper()
	r := cca.NewRegistry()
	register(r)
	s, err := r.Build(want.Spec, want.Params)
	if err != nil {
		t.Fatal(err)
	}
	algo, _, _ := strings.Cut(want.Spec, ":")
	if s.Name != want.Name || !strings.Contains(r.Doc(algo), want.Doc) {
		t.Errorf("spec %+v doc %q, want name %q and a doc naming %q", s, r.Doc(algo), want.Name, want.Doc)
	}
	for k, v := range want.Params {
		if s.Params[k] != v {
			t.Errorf("Params[%q] = %q, want %q", k, s.Params[k], v)
		}
	}
	if _, err := r.Build(want.Bad, want.BadParams); err == nil || !strings.HasPrefix(err.Error(), want.BadErr) {
		t.Errorf("Build(%q, %v): err %v, want %q...", want.Bad, want.BadParams, err, want.BadErr)
	}
}
