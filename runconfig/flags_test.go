package runconfig

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/internal/clierr"
)

// Every flag lands in the Request field of the same meaning.
func TestFlagsRequest(t *testing.T) {
	set := map[string]bool{"seed": true}
	f := Flags{Config: "c.yaml", Trace: "t.csv", Workload: "w", HPCC: "config.txt", CCA: "a,b", CCAParams: []string{"k=v"},
		Topology: "star", Seed: 3, Out: "o", Packets: "all", MaxTime: "1ms", Check: "1us", PPN: 4, Scale: 0.5, Strict: true, Set: set}
	r := f.Request(true)
	if r.Config != "c.yaml" || r.Trace != "t.csv" || r.Workload != "w" || r.HPCCConfig != "config.txt" || r.CCA != "a,b" || !r.CCAList ||
		r.CCAParams[0] != "k=v" || r.Topology != "star" || r.Seed != 3 || r.Out != "o" || r.Packets != "all" || r.MaxTime != "1ms" ||
		r.Check != "1us" || r.PPN != 4 || r.ComputeScale != 0.5 || !r.Strict || !r.Set["seed"] {
		t.Errorf("request %+v", r)
	}
	if f.Request(false).CCAList {
		t.Error("CCAList set for one algorithm")
	}
}

// Resolve takes the merged output folder and seed and prints nothing for a
// generated workload; a bad algorithm is the resolver's error.
func TestFlagsResolve(t *testing.T) {
	f := Flags{Workload: "incast:n=2,size=1KB", CCA: "dcqcn", Seed: 5, Out: "o", Packets: "none", PPN: 1, Scale: 1, Set: map[string]bool{}}
	var warn bytes.Buffer
	st, err := f.Resolve(false, all.Registry(), &warn)
	if err != nil || len(st.Specs) != 1 || f.Out != "o" || f.Seed != 5 || warn.Len() != 0 {
		t.Fatalf("resolve: %v, out %q seed %d, warnings %q", err, f.Out, f.Seed, warn.String())
	}
	f.CCA = "nosuch"
	if _, err := f.Resolve(false, all.Registry(), &warn); err == nil {
		t.Error("an unknown algorithm resolved")
	}
}

// A folder that is not ccreplay's is refused as a usage error; an
// interrupted run says what was kept, any other error passes unchanged.
func TestFlagsStageAndFailed(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "mine")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := Flags{Out: foreign, Force: true}
	if _, err := f.Stage(); clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("foreign folder: %v", err)
	}
	f.Out = filepath.Join(dir, "new")
	st, err := f.Stage()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	plain := errors.New("disk full")
	if got := f.Failed(plain, st); got != plain {
		t.Errorf("plain error became %v", got)
	}
	got := f.Failed(fmt.Errorf("run: %w", context.Canceled), st)
	if clierr.Code(got) != clierr.ExitInterrupted || !strings.HasSuffix(got.Error(), "; nothing written") {
		t.Errorf("interrupted: %v", got)
	}
	st.Replaces = true
	if got := f.Failed(context.Canceled, st); !strings.Contains(got.Error(), f.Out+" still holds the previous run") {
		t.Errorf("interrupted over a previous run: %v", got)
	}
}
