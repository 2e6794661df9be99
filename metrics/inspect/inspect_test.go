package inspect

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
)

// run is a run of a compare tree (cca=NAME/seed=N) whose recomputed
// summary has the FCT p99 and slowdown p99 given.
func run(cca, seed string, fctP99 int64, slowdown float64) *Run {
	d := runfolder.RunDir{Dir: "cmp/cca=" + cca + "/seed=" + seed,
		Partition: []runfolder.KeyValue{{Key: "cca", Value: cca}, {Key: "seed", Value: seed}}}
	if seed == "" {
		d = runfolder.RunDir{Dir: "cmp/cca=" + cca, Partition: []runfolder.KeyValue{{Key: "cca", Value: cca}}}
	}
	s := metrics.Summary{FCTP99Ns: fctP99, SlowdownP99: slowdown}
	return &Run{Dir: d, Rec: &arrowread.Recomputed{Summary: s, Rows: &arrowread.Run{}}}
}

// The manifest's "packets" value that means control packets were logged
// is the engine's: the check of every packet kind applies to exactly
// those runs.
func TestPacketsAllIsTheEngines(t *testing.T) {
	if packetsAll != string(replay.PacketsAll) {
		t.Fatalf("packetsAll = %q, replay.PacketsAll = %q", packetsAll, replay.PacketsAll)
	}
}

// Keys come in order of first appearance, once each, whatever run has
// them; a run without a key is labelled "-".
func TestPartitionKeysAndLabels(t *testing.T) {
	runs := []*Run{run("dcqcn", "", 1, 1), run("hpcc", "2", 1, 1)}
	keys := PartitionKeys([]runfolder.RunDir{runs[0].Dir, runs[1].Dir})
	if strings.Join(keys, ",") != "cca,seed" {
		t.Fatalf("keys %v, want [cca seed]", keys)
	}
	if got := strings.Join(runs[0].Labels(keys), ","); got != "dcqcn,-" {
		t.Errorf("labels %q, want dcqcn,-", got)
	}
	if got := strings.Join(runs[1].Labels(nil), ","); got != "cmp/cca=hpcc/seed=2" {
		t.Errorf("labels without keys %q, want the folder", got)
	}
}

// Groups follow the first appearance of each value; each group's mean,
// min and max are those of its runs (the mean of 10 and 30 is 20), and a
// group of one run has min = mean = max.
func TestGroups(t *testing.T) {
	runs := []*Run{run("dcqcn", "1", 10, 1.5), run("hpcc", "1", 7, 1), run("dcqcn", "2", 30, 2.5)}
	groups := GroupRuns(runs, "cca")
	if len(groups) != 2 || groups[0].Value != "dcqcn" || len(groups[0].Runs) != 2 || groups[1].Value != "hpcc" {
		t.Fatalf("groups %+v", groups)
	}
	j := GroupsJSON("cca", groups)
	if g := j[0]; g.Mean["fct_p99_ns"] != 20 || g.Min["fct_p99_ns"] != 10 || g.Max["fct_p99_ns"] != 30 || g.Mean["slowdown_p99"] != 2 {
		t.Errorf("dcqcn group: mean %v min %v max %v", g.Mean["fct_p99_ns"], g.Min["fct_p99_ns"], g.Max["fct_p99_ns"])
	}
	if g := j[1]; g.Runs != 1 || g.Min["fct_p99_ns"] != 7 || g.Max["fct_p99_ns"] != 7 || g.Mean["fct_p99_ns"] != 7 {
		t.Errorf("hpcc group: %+v", g)
	}
	var b bytes.Buffer
	WriteGroupTable(&b, groups)
	if !strings.Contains(b.String(), "cca=dcqcn (2)") || !strings.Contains(b.String(), "cca=hpcc (1)") {
		t.Errorf("group table without its columns:\n%s", b.String())
	}
	if missing := GroupRuns(runs, "load"); len(missing) != 1 || missing[0].Value != "-" || len(missing[0].Runs) != 3 {
		t.Errorf("grouping by a key no run has: %+v", missing)
	}
}

// Verify finds nothing when summary.json holds the recomputed summary and
// names the field that differs when it does not.
func TestVerify(t *testing.T) {
	r := run("dcqcn", "1", 10, 1.5)
	raw, err := json.Marshal(r.Rec.Summary)
	if err != nil {
		t.Fatal(err)
	}
	r.Manifest = &runfolder.Manifest{Metrics: raw}
	if d := Verify(r); len(d) != 0 {
		t.Fatalf("differences from its own summary: %v", d)
	}
	r.Rows = 5
	r.Rec.Summary.SlowdownP99 = math.Nextafter(1.5, 2) * 1.01
	d := strings.Join(Verify(r), "; ")
	if !strings.Contains(d, "slowdown_p99") || !strings.Contains(d, "packet_rows: 5 vs 0") {
		t.Errorf("differences %q: want slowdown_p99 and packet_rows", d)
	}
}
