package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/rl/distill"
	"github.com/ccreplay/ccreplay/runfolder"
)

// fastDistill is a distillation small enough for a unit test.
func fastDistill(dir string, extra ...string) []string {
	args := []string{"distill", "rlcc", "--teacher", "teacher", "--flows", "2,4", "--duration", "1ms",
		"--eval-flows", "4", "--eval-duration", "1ms", "--rounds", "2", "--select-flows", "4,6", "-o", dir}
	return append(args, extra...)
}

// TestDistillCLI: `ccreplay distill rlcc` writes a loadable trees policy
// within RL-CC-NIC (Fuhrer 2023), Section V-C's limits and a report; the same flags give
// byte-identical files.
func TestDistillCLI(t *testing.T) {
	runTwice(t, func(int) string { return t.TempDir() }, func(dir string) []string { return fastDistill(dir) },
		[]string{runfolder.PolicyFile, runfolder.DistillFile}, true, func(dir string, rep *distill.Report) {
			if rep.Fit == nil || rep.Fit.Trees > 10 || rep.Fit.Depth > 4 || !(rep.Fit.TestRMSE < rep.Fit.TestStd) || len(rep.Fit.RoundFR) != 2 {
				t.Fatalf("fit %+v", rep.Fit)
			}
			if len(rep.TableIII) != 2 || rep.TableIII[0].Label != "teacher" || rep.TableIII[1].Label != "student" || rep.TableIII[1].Flows != 4 {
				t.Fatalf("table III rows %+v", rep.TableIII)
			}
			if m, err := runfolder.ReadTraining(dir); err != nil || m.Command != "distill rlcc" || len(m.Files) != 3 {
				t.Fatalf("manifest %+v, %v", m, err)
			}
			p, err := rlcc.LoadFile(filepath.Join(dir, runfolder.PolicyFile))
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != rlcc.KindTrees || !strings.Contains(p.ProducedBy, "ccreplay distill rlcc --teacher teacher --seed 1") {
				t.Fatalf("policy kind %s produced_by %q", p.Kind, p.ProducedBy)
			}
		})
}

func TestDistillCLIText(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, fastDistill(dir)...)
	r.mustSucceed(t)
	for _, s := range []string{"10 trees, depth 4", "held out", "RL-CC-NIC (Fuhrer 2023), Table III", "4 to 1", "teacher", "student", "GP", "Latency"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, r.stdout)
		}
	}
}

func TestDistillCLIErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.json", `{"format":"nope"}`)
	checkExits(t, []exitCase{
		{[]string{"distill", "rlcc", "-o", dir}, ExitUsage, "--teacher"},
		{[]string{"distill", "rlcc", "--teacher", "default"}, ExitUsage, "-o DIR"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--trees", "11"}, ExitUsage, "--trees"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--depth", "5"}, ExitUsage, "--depth"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--flows", "2,x"}, ExitUsage, "--flows"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--buffer", "-1"}, ExitUsage, "--buffer"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--rounds", "0"}, ExitUsage, "--rounds"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--start-min", "0"}, ExitUsage, "--start-min"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--monotone", "rate=-1"}, ExitUsage, "--monotone"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--select-flows", "0"}, ExitUsage, "--select-flows"},
		{[]string{"distill", "rlcc", "--teacher", "default", "-o", dir, "--augment-rates", "0.5,1"}, ExitUsage, "--augment-rates"},
		{[]string{"distill", "rlcc", "--teacher", bad, "-o", dir}, ExitBadInput, "--teacher"},
		{[]string{"distill", "rlcc", "--teacher", filepath.Join(dir, "missing.json"), "-o", dir}, ExitBadInput, "--teacher"},
		{[]string{"distill"}, ExitUsage, "distill rlcc"},
		{[]string{"eval", "rlcc", "--flows", "0"}, ExitUsage, "--flows"},
		{[]string{"eval", "rlcc", "--baselines", "nosuch"}, ExitUsage, "--baselines"},
		{[]string{"eval", "rlcc", "--policy", bad}, ExitBadInput, "--policy"},
	})
}

// TestEvalRLCCCLI: `ccreplay eval rlcc` prints RL-CC (Tessler 2022), Table 1 for RL-CC
// and the baselines.
func TestEvalRLCCCLI(t *testing.T) {
	r := runCLI(t, "eval", "rlcc", "--flows", "4", "--duration", "1ms", "--baselines", "dcqcn:zhu2015,hpcc")
	r.mustSucceed(t)
	for _, s := range []string{"RL-CC (Tessler 2022), Table 1", "4 to 1", "SU", "FR", "QL", "DR", "rlcc", "dcqcn:zhu2015", "hpcc:paper"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, r.stdout)
		}
	}
	r = runCLI(t, "eval", "rlcc", "--flows", "4", "--duration", "1ms", "--baselines", "none", "--json", "--lossy")
	r.mustSucceed(t)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 || rows[0]["algorithm"] != "rlcc" {
		t.Fatalf("--json rows %v (%v):\n%s", rows, err, r.stdout)
	}
}

// TestDistillCLIKeepRounds: --keep-rounds writes every round's student,
// each a loadable trees policy, and the kept round's is policy.json byte
// for byte (here the selection keeps the round distill.json names).
func TestDistillCLIKeepRounds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	runCLI(t, fastDistill(dir, "--keep-rounds", "--eval-flows", "none")...).mustSucceed(t)
	var rep distill.Report
	if b, err := os.ReadFile(filepath.Join(dir, runfolder.DistillFile)); err != nil || json.Unmarshal(b, &rep) != nil || rep.Fit == nil {
		t.Fatalf("distill.json: %v", err)
	}
	read := func(f string) string {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	kept := read(filepath.Join(dir, runfolder.PolicyFile))
	for r := range 2 {
		f := filepath.Join(dir, cli.RoundsDir, cli.RoundFile(r))
		p, err := rlcc.LoadFile(f)
		if err != nil || p.Kind != rlcc.KindTrees {
			t.Fatalf("round %d: %v (%+v)", r, err, p)
		}
		if same := read(f) == kept; same != (r == rep.Fit.SelectedRound) {
			t.Errorf("round %d's file equal to policy.json: %v, selected round %d", r, same, rep.Fit.SelectedRound)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, cli.RoundsDir, cli.RoundFile(2))); !os.IsNotExist(err) {
		t.Errorf("a third round's file: %v", err)
	}
	if m, err := runfolder.ReadTraining(dir); err != nil || !slices.Contains(m.Files, cli.RoundsDir) {
		t.Fatalf("manifest %+v, %v", m, err)
	}
}
