package keyval

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
)

// An Algorithm names its Spec "<table name>:<canonical preset>" (aliases
// resolved), fills Params with the effective values, runs Validate after
// the overrides (its error is Build's and NewSpec's), and registers
// itself with the table's name, summary and schema.
func TestAlgorithmBuildsRegistersAndValidates(t *testing.T) {
	var validated int
	a := &Algorithm[cfg]{
		Table:   testTable(),
		Summary: "a test algorithm",
		Validate: func(c *cfg) error {
			validated++
			if c.n > 10 {
				return errors.New("n must be at most 10")
			}
			return nil
		},
		Spec: func(c cfg) cca.Spec { return cca.Spec{CNPInterval: c.timer} },
	}
	s, err := a.Build("bee", map[string]string{"n": "7"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "test:b" || s.Params["n"] != "7" || s.Params["rate"] != "1Gbps" || s.CNPInterval.String() != "55us" || validated != 1 {
		t.Errorf("Build(bee, n=7) = %q %v, CNP interval %v, validated %d times", s.Name, s.Params, s.CNPInterval, validated)
	}
	if _, err := a.Build("", map[string]string{"n": "11"}); err == nil || err.Error() != "n must be at most 10" {
		t.Errorf("Build with n=11: %v, want Validate's error", err)
	}
	if _, err := a.NewSpec("test:go", cfg{n: 12}); err == nil {
		t.Error("NewSpec accepted a configuration Validate rejects")
	}
	r := cca.NewRegistry()
	a.Register(r)
	if got := r.Doc("test"); !strings.HasPrefix(got, "a test algorithm") {
		t.Errorf("registered summary %q", got)
	}
	if sc, ok := r.Schema("test"); !ok || strings.Join(sc.PresetNames(), ",") != "a,b" {
		t.Errorf("registered schema %v, %v", sc.PresetNames(), ok)
	}
	if s, err := r.Build("test", nil); err != nil || s.Name != "test:a" {
		t.Errorf("registry Build(test) = %q, %v", s.Name, err)
	}

	// A table without presets names the Spec after the algorithm alone.
	none := &Algorithm[cfg]{Table: &Table[cfg]{Name: "bare", Params: testTable().Params[:1]}, Spec: func(cfg) cca.Spec { return cca.Spec{} }}
	if s, err := none.Build("", nil); err != nil || s.Name != "bare" {
		t.Errorf("Build without presets = %q, %v", s.Name, err)
	}
}
