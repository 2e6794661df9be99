//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/estimate"
	estcli "github.com/ccreplay/ccreplay/estimate/cli"
	"github.com/ccreplay/ccreplay/runfolder"
)

// TestEstimateLinksOnRealSlurm runs one estimate's link simulations as a
// Slurm job array on the real single-node Slurm TestSweepOnRealSlurm
// starts: the first submission's sbatch (a wrapper) puts a foreign folder
// where link 0's results go, so that task fails while the others finish;
// status reads the state from the link folder; once the folder is
// cleared the same command submits link 0 alone (resume by hash), and
// once that is done the same command again writes the estimate, byte for
// byte the one computed on this machine with -j 1.
func TestEstimateLinksOnRealSlurm(t *testing.T) {
	start := time.Now()
	cl := realSlurm(t)
	work := t.TempDir()
	t.Chdir(work)

	scenario := []string{"--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=100us",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn", "--no-cluster"}
	runCLI(t, append([]string{"estimate", "--out", "local", "-j", "1"}, scenario...)...).mustSucceed(t)

	// The first call of this sbatch makes link 0's folder (named in the
	// manifest) foreign before the array runs; later calls only submit.
	real, _ := exec.LookPath("sbatch")
	links := filepath.Join(work, "est.links")
	wrapper := writeFile(t, work, "sbatch.sh", fmt.Sprintf(`#!/bin/sh
if [ ! -e %[1]s/blocked ]; then
  touch %[1]s/blocked
  d=%[2]s/$(grep -o '"link=0-[0-9a-f]*"' %[2]s/%[4]s | tr -d '"')
  mkdir -p "$d" && echo not ours > "$d"/junk.txt
fi
exec %[3]s "$@"
`, work, links, real, estimate.LinksManifestFile))
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"estimate", "--out", "est", "--slurm", "--chunk", "4", "--array-max", "2",
		"--ccreplay", os.Args[0], "--sbatch", wrapper}, scenario...)
	r := runCLI(t, args...)
	r.mustSucceed(t)
	m, err := estimate.ReadLinksManifest("est.links")
	if err != nil {
		t.Fatal(err)
	}
	n := len(m.Links)
	tasks := (n + 3) / 4
	if n < 10 || !strings.Contains(r.stdout, fmt.Sprintf("%d link simulations in %d tasks (0 done, 0 running before)", n, tasks)) {
		t.Fatalf("submission of %d links: %s", n, r.stdout)
	}
	// The tasks plan from the submission's own copy of the manifest.
	if side, err := estimate.ReadLinksManifestFile(filepath.Join(links, estimate.LinksStateDir, "slurm", "submit-001.json")); err != nil || side.Scenario != m.Scenario || len(side.Links) != len(m.Links) {
		t.Fatalf("the submission's manifest: %v", err)
	}
	if _, err := os.Stat("est"); !os.IsNotExist(err) {
		t.Fatalf("--out written before the link simulations ran: %v", err)
	}
	cl.waitIdle(t)
	var st estcli.Status
	s := runCLI(t, "estimate", "status", "est.links", "--json")
	s.mustSucceed(t)
	if err := json.Unmarshal([]byte(s.stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.Done != n-1 || st.Failed != 1 || len(st.NotDone) != 1 || st.NotDone[0].Link != m.Links[0].Index || !strings.Contains(st.NotDone[0].Error, "not a ccreplay output folder") {
		t.Fatalf("status after the first array, want %d done and link 0 failed on its foreign folder: %+v\nslurm output: %s", n-1, st, slurmOutputs(filepath.Join("est.links", estimate.LinksStateDir)))
	}
	// Another run of the command while link 0 still fails resubmits it
	// alone; clear the folder first so that it succeeds.
	if err := os.RemoveAll(filepath.Join(links, m.Links[0].Dir)); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, fmt.Sprintf("1 link simulations in 1 tasks (%d done, 0 running before)", n-1)) {
		t.Fatalf("resubmission: %s", r.stdout)
	}
	cl.waitIdle(t)
	s = runCLI(t, "estimate", "status", "est.links")
	s.mustSucceed(t)
	if !strings.Contains(s.stdout, fmt.Sprintf("%d points: %d done, 0 failed", n, n)) {
		t.Fatalf("status: %s\nslurm output: %s", s.stdout, slurmOutputs(filepath.Join("est.links", estimate.LinksStateDir)))
	}
	r = runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "outputs in est") {
		t.Fatalf("assembly: %s", r.stdout)
	}
	for _, f := range []string{runfolder.FlowsFile, runfolder.LinksFile, runfolder.SummaryFile} {
		a, _ := os.ReadFile(filepath.Join("local", f))
		b, _ := os.ReadFile(filepath.Join("est", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s: the estimate from the Slurm array differs from the local one", f)
		}
	}
	// Each link's folder is the link network's own run folder.
	if _, err := runfolder.ReadManifest(filepath.Join("est.links", m.Links[0].Dir)); err != nil {
		t.Fatal(err)
	}
	cl.stop(t)
	t.Logf("an estimate's %d link simulations on real Slurm took %v", n, time.Since(start).Round(time.Millisecond))
}
