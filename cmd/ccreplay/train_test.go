package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/rl/train"
	"github.com/ccreplay/ccreplay/runfolder"
)

// `ccreplay train rlcc` writes policy.json (kind mlp, produced_by) and
// learning.parquet; the same flags give byte-identical files; the policy
// loads with --cca rlcc --cca-param policy=FILE.
func TestTrainRLCC(t *testing.T) {
	dir := t.TempDir()
	args := []string{"train", "rlcc", "--episodes", "3", "--flows", "2,4", "--duration", "500us", "--seed", "4"}
	files := runTwice(t, subdir(dir), func(out string) []string { return append(args, "-o", out) },
		[]string{runfolder.PolicyFile, runfolder.LearningFile}, false, func(_ string, sum *train.Summary) {
			if sum.Episodes != 3 || sum.Last.Episode != 2 || len(sum.LastByN) != 2 || !strings.Contains(sum.ProducedBy, "--seed 4") {
				t.Fatalf("summary %+v", *sum)
			}
		})
	if !strings.Contains(string(files[0]), `"kind": "mlp"`) || !strings.Contains(string(files[0]), `"produced_by": "ccreplay train rlcc --episodes 3 --seed 4`) {
		t.Fatalf(runfolder.PolicyFile+":\n%.300s", files[0])
	}
	// The folder is staged and manifested: training.json lists its files
	// and says complete; a second training into it needs --force, and a
	// folder that is not ccreplay's is never written into.
	m, err := runfolder.ReadTraining(filepath.Join(dir, "a"))
	if err != nil || m.Command != "train rlcc" || m.Seed != 4 || m.Files[len(m.Files)-1] != runfolder.TrainingFile {
		t.Fatalf("manifest %+v, %v", m, err)
	}
	for _, f := range m.Files {
		if _, err := os.Stat(filepath.Join(dir, "a", f)); err != nil {
			t.Errorf("listed file: %v", err)
		}
	}
	short := []string{"train", "rlcc", "--episodes", "1", "--flows", "2", "--duration", "200us", "-o", filepath.Join(dir, "a")}
	if r := runCLI(t, short...); r.code != ExitUsage || !strings.Contains(r.stderr, "holds a previous ccreplay training; give --force") {
		t.Errorf("second training into the folder: exit %d: %s", r.code, r.stderr)
	}
	runCLI(t, append(short, "--force")...).mustSucceed(t)
	foreign := filepath.Join(dir, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	if r := runCLI(t, "train", "rlcc", "--episodes", "1", "--flows", "2", "--duration", "200us", "-o", foreign, "--force"); r.code != ExitUsage || !strings.Contains(r.stderr, `not a ccreplay output folder (it holds "notes.txt")`) {
		t.Errorf("foreign folder: exit %d: %s", r.code, r.stderr)
	}

	p := filepath.Join(dir, "a", runfolder.PolicyFile)
	r := runCLI(t, "run", "--workload", smallWorkload, "--cca", "rlcc:ideal", "--cca-param", "policy="+p, "--packets", "none", "--out", filepath.Join(dir, "run"), "--json")
	r.mustSucceed(t)
	s := decodeSummary(t, []byte(r.stdout))
	if s.CCA != "rlcc:ideal" || s.CCAParams["policy"] != p || s.Metrics["flows_finished"] != float64(4) {
		t.Fatalf("run with the trained policy: cca %s params %v flows_finished %v", s.CCA, s.CCAParams, s.Metrics["flows_finished"])
	}
}

// `--cca rlcc` with the embedded default policy finishes every flow of an
// incast.
func TestRunRLCCDefault(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "run", "--workload", "incast:n=8,size=200KB", "--cca", "rlcc", "--packets", "none", "--out", dir, "--json")
	r.mustSucceed(t)
	s := decodeSummary(t, []byte(r.stdout))
	if s.CCA != "rlcc:auto" || s.CCAParams["policy"] != "default" || s.CCAParams["latency"] != "900ns" {
		t.Fatalf("cca %s params %v", s.CCA, s.CCAParams)
	}
	if s.Metrics["flows_finished"] != float64(8) || s.Metrics["flows"] != float64(8) {
		t.Fatalf("flows finished %v of %v", s.Metrics["flows_finished"], s.Metrics["flows"])
	}
}

// Command-line mistakes exit 2, a bad --init file 3.
func TestTrainRLCCErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.json", `{"format": "nope"}`)
	checkExits(t, []exitCase{
		{[]string{"train", "rlcc"}, ExitUsage, "-o DIR"},
		{[]string{"train"}, ExitUsage, "ccreplay train rlcc"},
		{[]string{"train", "rlcc", "-o", dir, "--episodes", "0"}, ExitUsage, "--episodes"},
		{[]string{"train", "rlcc", "-o", dir, "--flows", "2,x"}, ExitUsage, "--flows"},
		// RL-CC-NIC (Fuhrer 2023), Table III's largest is 2,048 (train.MaxFlows).
		{[]string{"train", "rlcc", "-o", dir, "--flows", "2,2049"}, ExitUsage, "--flows"},
		{[]string{"train", "rlcc", "-o", dir, "--duration", "soon"}, ExitUsage, "--duration"},
		{[]string{"train", "rlcc", "-o", dir, "--start-min", "0"}, ExitUsage, "--start-min"},
		{[]string{"train", "rlcc", "-o", dir, "--start-around", "5"}, ExitUsage, "--start-around"},
		{[]string{"train", "rlcc", "-o", dir, "--penalty", "-1"}, ExitUsage, "--penalty"},
		{[]string{"train", "rlcc", "-o", dir, "--buffer", "0"}, ExitUsage, "--buffer"},
		{[]string{"train", "rlcc", "-o", dir, "--select-flows", "x"}, ExitUsage, "--select-flows"},
		{[]string{"train", "rlcc", "-o", dir, "--select-every", "0"}, ExitUsage, "--select-every"},
		{[]string{"train", "rlcc", "-o", dir, "--init", bad}, ExitBadInput, "bad.json"},
	})
}
