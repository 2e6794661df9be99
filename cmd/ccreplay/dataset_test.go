package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/array"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// arrowTable reads a Parquet file with Apache Arrow (a second
// implementation: parquet-go wrote it) into named columns: int64, int32,
// float64 and bool columns as Go slices.
type arrowTable struct {
	rows int
	i64  map[string][]int64
	i32  map[string][]int32
	f64  map[string][]float64
	b    map[string][]bool
}

func readArrow(t *testing.T, path string) arrowTable {
	t.Helper()
	tbl, v := testfiles.ArrowTable(t, path, v2.MetadataKey)
	if v != v2.Version {
		t.Errorf("%s: no %s = %s metadata", path, v2.MetadataKey, v2.Version)
	}
	defer tbl.Release()
	at := arrowTable{rows: int(tbl.NumRows()), i64: map[string][]int64{}, i32: map[string][]int32{},
		f64: map[string][]float64{}, b: map[string][]bool{}}
	for c := range int(tbl.NumCols()) {
		col := tbl.Column(c)
		name := col.Name()
		for _, ch := range col.Data().Chunks() {
			switch a := ch.(type) {
			case *array.Int64:
				at.i64[name] = append(at.i64[name], a.Int64Values()...)
			case *array.Int32:
				at.i32[name] = append(at.i32[name], a.Int32Values()...)
			case *array.Float64:
				at.f64[name] = append(at.f64[name], a.Float64Values()...)
			case *array.Boolean:
				for i := range a.Len() {
					at.b[name] = append(at.b[name], a.Value(i))
				}
			}
		}
		if col.DataType().ID() == arrow.NULL {
			t.Errorf("column %s has no type", name)
		}
	}
	return at
}

// same is equality with NaN equal to NaN.
func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func TestDatasetCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ds")
	r := runCLI(t, "dataset", "--workload", smallWorkload, "--cca", "hpcc", "--reward", "dolce,dolceplus,rlcc,rlcc-betafree,fdcc",
		"--gamma", "0.9", "--nstep", "3", "--seed", "3", "-o", out, "--json")
	r.mustSucceed(t)
	var info struct {
		Rows        int64   `json:"rows"`
		Flows       int     `json:"flows"`
		Gamma       float64 `json:"gamma"`
		NStep       int     `json:"nstep"`
		RewardMeans []struct {
			Column string  `json:"column"`
			Rows   int64   `json:"rows"`
			Mean   float64 `json:"mean"`
		} `json:"reward_means"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &info); err != nil {
		t.Fatalf("--json output: %v\n%s", err, r.stdout)
	}
	if info.Rows <= 0 || info.Flows != 4 || len(info.RewardMeans) != 6 {
		t.Fatalf(runfolder.DatasetFile+": %+v", info)
	}
	for _, name := range []string{runfolder.DecisionsFile, runfolder.DatasetFile, runfolder.FlowsFile, runfolder.SummaryFile} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("missing %s: %v", name, err)
		}
	}
	a := readArrow(t, filepath.Join(out, runfolder.DecisionsFile))
	if int64(a.rows) != info.Rows {
		t.Fatalf("%d rows in the file, %d in "+runfolder.DatasetFile, a.rows, info.Rows)
	}
	flow, step, next := a.i64["flow_id"], a.i64["step"], a.i64["next_row"]
	done := a.b["done"]
	infl, rate, ecn := a.f64["rtt_inflation"], a.f64["rate_frac"], a.f64["ecn_ratio"]
	if len(flow) != a.rows || len(next) != a.rows || len(done) != a.rows || len(infl) != a.rows {
		t.Fatal("missing columns")
	}
	// next_row chain: each row's next_row is the same flow's next step;
	// done exactly on each flow's last row.
	lastOf := map[int64]int{}
	for i := range a.rows {
		if p, ok := lastOf[flow[i]]; ok {
			if next[p] != int64(i) || step[i] != step[p]+1 {
				t.Fatalf("row %d (flow %d step %d): previous row %d has next_row %d, step %d", i, flow[i], step[i], p, next[p], step[p])
			}
		} else if step[i] != 0 {
			t.Fatalf("row %d: flow %d starts at step %d", i, flow[i], step[i])
		}
		lastOf[flow[i]] = i
		if done[i] != (next[i] == -1) {
			t.Fatalf("row %d: done %v with next_row %d", i, done[i], next[i])
		}
	}
	if len(lastOf) != 4 {
		t.Errorf("%d flows with decisions, want 4", len(lastOf))
	}
	for f, p := range lastOf {
		if !done[p] {
			t.Errorf("flow %d: last row %d not done", f, p)
		}
	}
	// Reward columns are the reward functions of the observation columns.
	perFlow := map[int64][]float64{}
	for i := range a.rows {
		checks := []struct {
			col  string
			want float64
		}{
			{"reward_dolce", reward.DolceRC(ecn[i])},                               // Dolce-RC (Ye 2023), Eq. 4
			{"reward_rlcc", reward.RLCC(infl[i], rate[i], 0.064, 1.5)},             // RL-CC-NIC (Fuhrer 2023), Eq. 1
			{"reward_rlcc_betafree", reward.RLCCBetaFree(infl[i], rate[i], 0.064)}, // RL-CC (Tessler 2022)
			{"reward_fdcc", reward.FDCC(reward.FDCCObs{SwitchRate: a.f64["int_txrate_frac"][i], // FDCC (Zhang 2023), Alg. 1
				QLen: a.f64["int_qlen_frac"][i], RTT: infl[i], Throughput: a.f64["goodput_frac"][i], Flows: int(a.i32["flows_to_dst"][i])})},
		}
		if a.i64["msgs_done"][i] > 0 { // Dolce-RC (Ye 2023), Eq. 5
			checks = append(checks, struct {
				col  string
				want float64
			}{"reward_dolceplus", reward.DolcePlus(float64(a.i64["msg_ideal_mct_ns"][i]), float64(a.i64["msg_mct_ns"][i]), ecn[i], int(a.i32["dolceplus_arm"][i]))})
		} else if !math.IsNaN(a.f64["reward_dolceplus"][i]) {
			t.Fatalf("row %d: reward_dolceplus without a completed message", i)
		}
		for _, c := range checks {
			if got := a.f64[c.col][i]; !same(got, c.want) {
				t.Fatalf("row %d: %s = %v, the reward function gives %v", i, c.col, got, c.want)
			}
		}
		perFlow[flow[i]] = append(perFlow[flow[i]], a.f64["reward_fdcc"][i])
	}
	// return_fdcc_nstep: the n-step discounted sum of FDCC (Zhang 2023) within the flow.
	k := map[int64]int{}
	rets := map[int64][]float64{}
	for f, rs := range perFlow {
		rets[f] = reward.Discounted(rs, 0.9, 3)
	}
	for i := range a.rows {
		want := rets[flow[i]][k[flow[i]]]
		k[flow[i]]++
		if got := a.f64["return_fdcc_nstep"][i]; !same(got, want) {
			t.Fatalf("row %d: return_fdcc_nstep %v, want %v", i, got, want)
		}
	}
}

// Every reading of FDCC (Zhang 2023), Algorithm 1, that train fdcc takes
// (rl/reward.FDCCReadings) is a --reward of the dataset: reward_fdcc is
// that reading's function of the row's columns, dataset.json names it, and
// the readings differ on the same decisions (same seed, so same rows).
func TestDatasetEveryFDCCReading(t *testing.T) {
	dir := t.TempDir()
	cols := map[reward.FDCCReward][]float64{}
	for _, f := range reward.FDCCReadings {
		out := filepath.Join(dir, string(f))
		runCLI(t, "dataset", "--workload", smallWorkload, "--cca", "hpcc", "--reward", string(f), "--seed", "3", "-o", out).mustSucceed(t)
		var info struct {
			Rewards []string `json:"rewards"`
		}
		b, err := os.ReadFile(filepath.Join(out, runfolder.DatasetFile))
		if err != nil || json.Unmarshal(b, &info) != nil || len(info.Rewards) != 1 || info.Rewards[0] != string(f) {
			t.Fatalf("%s: %s rewards %v (%v), want [%s]", f, runfolder.DatasetFile, info.Rewards, err, f)
		}
		a := readArrow(t, filepath.Join(out, runfolder.DecisionsFile))
		got, n := a.f64["reward_fdcc"], 0
		for i := range a.rows {
			want := f.Func()(reward.FDCCObs{SwitchRate: a.f64["int_txrate_frac"][i], QLen: a.f64["int_qlen_frac"][i],
				RTT: a.f64["rtt_inflation"][i], Throughput: a.f64["goodput_frac"][i], Flows: int(a.i32["flows_to_dst"][i])})
			if !same(got[i], want) {
				t.Fatalf("%s row %d: reward_fdcc %v, the reading gives %v", f, i, got[i], want)
			}
			if !math.IsNaN(want) {
				n++
			}
		}
		if n == 0 {
			t.Fatalf("%s: no row with a defined reward", f)
		}
		cols[f] = got
	}
	for i, f := range reward.FDCCReadings {
		for _, g := range reward.FDCCReadings[i+1:] {
			if slices.EqualFunc(cols[f], cols[g], same) {
				t.Errorf("%s and %s gave the same reward_fdcc column", f, g)
			}
		}
	}
}

func TestDatasetDeterministicAndRunUnchanged(t *testing.T) {
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		out := filepath.Join(dir, string(rune('a'+i)))
		runCLI(t, "dataset", "--workload", smallWorkload, "--cca", "dcqcn", "--reward", "fdcc,rlcc", "--seed", "5", "-o", out).mustSucceed(t)
		b, err := os.ReadFile(filepath.Join(out, runfolder.DecisionsFile))
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
		j, _ := os.ReadFile(filepath.Join(out, runfolder.DatasetFile))
		if i == 1 {
			j0, _ := os.ReadFile(filepath.Join(dir, "a", runfolder.DatasetFile))
			if !bytes.Equal(j, j0) {
				t.Error("two runs gave different " + runfolder.DatasetFile)
			}
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two runs with the same seed gave different " + runfolder.DecisionsFile)
	}
	// The recorder and the INT stamping fdcc turns on leave the run as
	// `ccreplay run` makes it.
	plain := filepath.Join(dir, "run")
	runCLI(t, "run", "--workload", smallWorkload, "--cca", "dcqcn", "--seed", "5", "--packets", "none", "--out", plain).mustSucceed(t)
	for _, name := range []string{runfolder.FlowsFile, runfolder.MessagesFile} {
		x, _ := os.ReadFile(filepath.Join(plain, name))
		y, _ := os.ReadFile(filepath.Join(dir, "a", name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between 'run' and 'dataset'", name)
		}
	}
}

func TestDatasetTextSummary(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ds")
	r := runCLI(t, "dataset", "--workload", smallWorkload, "--cca", "dcqcn:zhu2015", "--reward", "dolce", "-o", out)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "decisions of 4 flows") || !strings.Contains(r.stdout, "reward_dolce") ||
		strings.Contains(r.stdout, "reward_rlcc") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	a := readArrow(t, filepath.Join(out, runfolder.DecisionsFile))
	for i, v := range a.f64["reward_rlcc"] {
		if !math.IsNaN(v) {
			t.Fatalf("row %d: reward_rlcc = %v although not requested", i, v)
		}
	}
}

func TestDatasetBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--reward", "dolce,nope"}, ExitUsage, `unknown reward "nope" (known: dolce, dolceplus, rlcc, rlcc-betafree, fdcc, fdcc-literal, fdcc-link, all)`},
		{[]string{"--reward", ","}, ExitUsage, "at least one"},
		{[]string{"--gamma", "1.5"}, ExitUsage, "--gamma"},
		{[]string{"--decision-interval-ns", "-5"}, ExitUsage, "--decision-interval-ns"},
		{[]string{"--rlcc-target", "0"}, ExitUsage, "--rlcc-target"},
		{[]string{"--rlcc-beta", "-1"}, ExitUsage, "--rlcc-beta"},
		{[]string{"--cca", "nosuch"}, 3, "nosuch"},
	}
	for _, c := range cases {
		args := append([]string{"dataset", "--workload", smallWorkload, "-o", filepath.Join(dir, "x")}, c.args...)
		r := runCLI(t, args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 && c.code == 3 {
			t.Errorf("%v: error is not one line: %q", c.args, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x", runfolder.DecisionsFile)); err == nil {
		t.Error("a failed invocation left " + runfolder.DecisionsFile)
	}
}

// TestDatasetRealDUMPITraceDolcePlus replays the real SST DUMPI trace
// testbgp (7 ranks, 49 MPI_Alltoall; ../shared/data/mpi/dumpi) under
// Dolce-RC+, whose per-message decisions score completed messages with
// Dolce-RC (Ye 2023), Eq. 5.
func TestDatasetRealDUMPITraceDolcePlus(t *testing.T) {
	meta := filepath.Join("..", "..", "..", "shared", "data", "mpi", "dumpi", "testbgp.meta")
	if _, err := os.Stat(meta); err != nil {
		t.Skipf("real data not available (%v): needs ../shared/data beside the checkout", err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	runCLI(t, "dataset", "--trace", meta, "--cca", "dolceplus", "--reward", "dolceplus,dolce", "-o", out).mustSucceed(t)
	a := readArrow(t, filepath.Join(out, runfolder.DecisionsFile))
	scored := 0
	for i := range a.rows {
		got := a.f64["reward_dolceplus"][i]
		if a.i64["msgs_done"][i] == 0 {
			if !math.IsNaN(got) {
				t.Fatalf("row %d: reward_dolceplus %v without a completed message", i, got)
			}
			continue
		}
		scored++
		want := reward.DolcePlus(float64(a.i64["msg_ideal_mct_ns"][i]), float64(a.i64["msg_mct_ns"][i]),
			a.f64["ecn_ratio"][i], int(a.i32["dolceplus_arm"][i]))
		if got != want || got < 0 || got > 1 {
			t.Fatalf("row %d: reward_dolceplus %v, Eq. 5 gives %v", i, got, want)
		}
	}
	if scored == 0 {
		t.Error("no decision scored a completed message")
	}
	t.Logf("%d decisions, %d with a completed message", a.rows, scored)
}
