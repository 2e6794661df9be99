package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/fidelity"
	"github.com/ccreplay/ccreplay/runfolder"
)

// The dcqcn hpcc-run preset is run.py's DCQCN: the shared reference run
// incast16_dcqcn (16 x 1 MB to one host of a 100 Gb/s star, the HPCC
// simulator configured with the values its simulation/run.py writes for
// `--cc dcqcn` at 100 Gb/s; ../shared/data/ns3_reference) replayed with
// the preset instead of the scenario's own CC keys gives the same fct.txt
// byte for byte, and agrees with the simulator within the fidelity bands
// of the incast runs (mean FCT, last completion and slowdown percentiles
// within 5 %, TestNS3Fidelity's). The same run under the sample
// config.txt's values (hpcc-config) is no replay of that experiment: it is
// checked to differ.
func TestHPCCRunPresetAgainstNS3(t *testing.T) {
	cfg := filepath.Join(ns3Reference, "runs", "incast16_dcqcn", "config.txt")
	if _, err := os.Stat(cfg); err != nil {
		t.Skipf("shared data %s not present (it lives beside the checkout); skipping", ns3Reference)
	}
	dir := t.TempDir()
	run := func(name string, cca ...string) string {
		out := filepath.Join(dir, name)
		args := append([]string{"run", "--hpcc-config", cfg, "--packets", "none", "-o", out}, cca...)
		runCLI(t, args...).mustSucceed(t)
		return out
	}
	own, preset, sample := run("own"), run("preset", "--cca", "dcqcn:hpcc-run"), run("sample", "--cca", "dcqcn:hpcc-config")
	a, err1 := os.ReadFile(filepath.Join(own, runfolder.FCTFile))
	b, err2 := os.ReadFile(filepath.Join(preset, runfolder.FCTFile))
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Errorf(runfolder.FCTFile+" under dcqcn:hpcc-run differs from the scenario's own run.py keys (%v %v)", err1, err2)
	}
	ref, err := fidelity.Load(filepath.Join(ns3Reference, "runs", "incast16_dcqcn", runfolder.FCTFile), "ns-3")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out   string
		agree bool
	}{{preset, true}, {sample, false}} {
		other, err := fidelity.Load(c.out, "ccreplay")
		if err != nil {
			t.Fatal(err)
		}
		rep, err := fidelity.Compare(ref, other, fidelity.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := fidelity.Check(rep, fidelity.Bands{MaxOverallErr: 0.05})
		t.Logf("%s: %d ratios outside 1 ± 5 %%: %v", filepath.Base(c.out), len(v), v)
		if c.agree && len(v) > 0 {
			t.Errorf("dcqcn:hpcc-run against the simulator: %v", v)
		}
		if !c.agree && len(v) == 0 {
			t.Errorf("dcqcn:hpcc-config agrees with run.py's simulation too: the test cannot tell the presets apart")
		}
	}
}
