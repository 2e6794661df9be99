package duckdbcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The runs the tests read, each made once on first use by the CLI (so a
// -run filter only makes what it needs). Together they write every output
// file kind of `ccreplay run` and `ccreplay compare`, with every packet
// kind and event: PFC pauses, drops with retransmissions, collectives.
var (
	incastRun, pfcRun, lossyRun, osuRun, websearchRun, compareDir, rlccRun once
	compareJSON                                                            []byte
)

// Incast workload of the in-depth runs: 8 senders x 200 KB to one receiver
// on a 100 Gb/s star with 1 us links (the CLI's default star).
const incastSpec = "incast:n=8,size=200KB"

// Star link delay (ns) and data packet wire size (bytes) of the runs above,
// as summary.json's config and the topology report them.
const (
	starDelayNs     = 1000
	starRateBps     = 100e9
	dataWireBytes   = 1048
	compareWorkSpec = "incast:n=8,per_host=4,size_dist=uniform,size=10KB,size_max=400KB,jitter=50us"
)

// runDir makes one `ccreplay run` with args into workDir/runs/name.
func runDir(name string, args ...string) (string, error) {
	out := filepath.Join(workDir, "runs", name)
	args = append([]string{"run", "--out", out}, args...)
	if _, err := ccreplayErr(args...); err != nil {
		return "", fmt.Errorf("ccreplay %v: %w", args, err)
	}
	return out, nil
}

// incastWith runs the incast under DCQCN, every packet logged, with the
// run configuration text (written as workDir/NAME.yaml) into
// workDir/runs/name.
func incastWith(name, text string) (string, error) {
	cfg := filepath.Join(workDir, name+".yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		return "", err
	}
	return runDir(name, "--workload", incastSpec, "--cca", "dcqcn", "--packets", "all", "--config", cfg)
}

// incast: the plain run, every packet logged.
func getIncast(t testing.TB) string {
	return incastRun.get(t, func() (string, error) {
		return runDir("incast", "--workload", incastSpec, "--cca", "dcqcn", "--packets", "all", "--seed", "1")
	})
}

// pfc: the same incast into a 300 KB switch buffer, so that PFC pauses the
// senders (lossless).
func getPFC(t testing.TB) string {
	return pfcRun.get(t, func() (string, error) { return incastWith("pfc", "switch:\n  buffer: 300KB\n") })
}

// lossy: the same incast into a 100 KB buffer without PFC: drops, NACKs,
// timeouts and retransmissions (at 200 KB, since the event order of issue
// 20, NACKs recover every loss and no timeout fires).
func getLossy(t testing.TB) string {
	return lossyRun.get(t, func() (string, error) {
		return incastWith("lossy", "switch:\n  buffer: 100KB\n  pfc:\n    enabled: false\n")
	})
}

// rlcc: the incast under RL-CC, whose agents measure RTT with probe
// packets (RTT_REQ / RTT_RESP rows).
func getRLCC(t testing.TB) string {
	return rlccRun.get(t, func() (string, error) {
		return runDir("rlcc", "--workload", incastSpec, "--cca", "rlcc", "--packets", "all")
	})
}

// osu: an OSU MPI_Alltoall on 4 hosts x 2 ranks, two sizes, 1 warm-up and
// 2 timed iterations each: collectives and same-host messages.
func getOSU(t testing.TB) string {
	return osuRun.get(t, func() (string, error) {
		return runDir("osu", "--workload", "osu-alltoall:nodes=4,ppn=2,sizes=1KiB;64KiB,warmup=1,iters=2",
			"--cca", "dcqcn", "--packets", "data")
	})
}

// websearch: 60 flows drawn from the real WebSearch flow-size CDF
// (../shared/data/cdf/hpcc) at 50 % load on a 2-leaf, 2-spine leaf-spine:
// multi-hop paths and parallel links. Skips when the data is absent.
func getWebsearch(t testing.TB) string {
	t.Helper()
	data, err := filepath.Abs(filepath.Join(sharedData, "cdf"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, "hpcc", "WebSearch_distribution.txt")); err != nil {
		t.Skipf("real data absent (%v): ../shared/data beside the repo holds the WebSearch CDF", err)
	}
	return websearchRun.get(t, func() (string, error) {
		return runDir("websearch", "--workload", "cdf:dist=websearch,hosts=8,flows=60,load=0.5,data="+data,
			"--topology", "leafspine:leaves=2,hosts=4,spines=2,uplinks=2", "--cca", "dcqcn", "--packets", "all")
	})
}

// compare: two algorithms x two seeds on 32 flows of sizes 10 KB..400 KB,
// a hive tree OUT/cca=NAME/seed=N/ and OUT/comparison.parquet.
func getCompare(t testing.TB) string {
	return compareDir.get(t, func() (string, error) {
		out := filepath.Join(workDir, "cmp")
		b, err := ccreplayErr("compare", "--workload", compareWorkSpec, "--cca", "dcqcn,hpcc",
			"--seeds", "1,2", "--packets", "data", "--parallel", "2", "--json", "--out", out)
		if err != nil {
			return "", fmt.Errorf("ccreplay compare: %w", err)
		}
		compareJSON = b
		return out, nil
	})
}

// compareRunDirs lists the run folders of a compare tree.
func compareRunDirs(t testing.TB, cmp string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(cmp, "cca=*", "seed=*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no run folders under %s (%v)", cmp, err)
	}
	return dirs
}

// allRuns is every single-run folder, by name, for tests that check each.
func allRuns(t *testing.T) map[string]string {
	runs := map[string]string{
		"incast": getIncast(t),
		"pfc":    getPFC(t),
		"lossy":  getLossy(t),
		"osu":    getOSU(t),
	}
	for _, d := range compareRunDirs(t, getCompare(t)) {
		rel, _ := filepath.Rel(workDir, d)
		runs[filepath.ToSlash(rel)] = d
	}
	return runs
}
