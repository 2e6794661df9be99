package duckdbcheck

import (
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/rl/fdcctrain"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// syntheticDecisions are decisions of two flows in time order, interleaved
// as a dataset writer emits them: flow 7 decides at 10, 30, 50 us, flow 9 at
// 20 and 40 us. next_row links each flow's decisions; rewards that were not
// requested are NaN.
func syntheticDecisions() []v2.DecisionRow {
	nan := math.NaN()
	mk := func(flow, step, tNs, next int64, done bool, action float64) v2.DecisionRow {
		return v2.DecisionRow{
			RunID: "incast:n=2/dcqcn/seed=1", CCA: "dcqcn:zhu2015", FlowID: flow, Src: int32(flow), Dst: 0,
			Step: step, TNs: tNs, IntervalNs: 10000, RateBps: 50e9, RateFrac: 0.5, LineRateBps: 100e9,
			RTTNs: 3000, RTTMeanNs: 3000, BaseRTTNs: 2000, RTTInflation: 1.5, Acks: 4, AckedBytes: 4000,
			ECNRatio: 0.25, IntMaxQLenBytes: -1, IntLinkRateBps: -1, IntQLenFrac: nan, IntTxRateFrac: nan,
			GoodputBps: 3200000000, GoodputFrac: 0.032, FlowsToDst: 2, MsgIdealMCTNs: -1, MsgMCTNs: -1,
			PrevAction: 1, PrevRateFrac: 0.5, PrevRTTInflation: 1.5,
			Action: action, NewRateBps: int64(50e9 * action), NextRow: next, Done: done,
			RewardDolce: 0.75, RewardDolcePlus: nan, RewardRLCC: -0.1, RewardRLCCBetaFree: nan,
			RewardFDCC: nan, ReturnFDCCNStep: nan,
		}
	}
	return []v2.DecisionRow{
		mk(7, 0, 10000, 2, false, 0.5), // row 0
		mk(9, 0, 20000, 3, false, 1.0), // row 1
		mk(7, 1, 30000, 4, false, 1.25),
		mk(9, 1, 40000, -1, true, 0.75),
		mk(7, 2, 50000, -1, true, 1.0),
	}
}

// checkDecisionSQL runs the training notebook's queries on a
// decisions.parquet and checks the transitions follow next_row within a
// flow and every flow's chain is whole.
func checkDecisionSQL(t *testing.T, path string) {
	t.Helper()
	db := openDB(t)
	n := count(t, db, path)
	tr, _ := notebookSQL(t, db, "decision_transitions", map[string]any{"decisions": path})
	if int64(len(tr)) != n {
		t.Fatalf("decision_transitions: %d transitions, %d decisions", len(tr), n)
	}
	var terminal int64
	for _, r := range tr {
		done := r["done"].(bool)
		next, hasNext := r["next_t_ns"].(int64)
		switch {
		case done && hasNext:
			t.Errorf("row %v: done but has a next decision", r["row"])
		case !done && !hasNext:
			t.Errorf("row %v: not done and no next decision (next_row points nowhere)", r["row"])
		case hasNext && next <= r["t_ns"].(int64):
			t.Errorf("row %v: next decision at %v ns is not after %v ns", r["row"], next, r["t_ns"])
		}
		if done {
			terminal++
		}
	}
	flows, _ := notebookSQL(t, db, "decisions_per_flow", map[string]any{"decisions": path})
	if int64(len(flows)) != terminal {
		t.Errorf("%d flows, %d terminal decisions", len(flows), terminal)
	}
	var total int64
	for _, f := range flows {
		total += f["decisions"].(int64)
		if f["decisions"] != f["steps"] || f["done_rows"].(int64) != 1 || !f["done_iff_last"].(bool) || !f["last_is_done"].(bool) {
			t.Errorf("flow %v: chain broken: %v", f["flow_id"], f)
		}
	}
	if total != n {
		t.Errorf("decisions_per_flow counts %d decisions, the file has %d", total, n)
	}
}

// TestDecisionSQLOnWrittenRows runs the training notebook's SQL on rows
// written by output.WriteRows: 5 decisions of 2 flows give 5 transitions,
// 2 of them terminal, and each flow's chain is whole.
func TestDecisionSQLOnWrittenRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), runfolder.DecisionsFile)
	if err := output.WriteRows(path, syntheticDecisions()); err != nil {
		t.Fatal(err)
	}
	checkDecisionSQL(t, path)
	db := openDB(t)
	rows, _ := notebookSQL(t, db, "decision_transitions", map[string]any{"decisions": path})
	// row 0 (flow 7, step 0) continues at row 2 (flow 7, 30 us), whose
	// prev_action is row 0's; row 3 ends flow 9.
	if rows[0]["flow_id"].(int64) != 7 || rows[0]["next_t_ns"] != int64(30000) || rows[0]["next_prev_action"] != rows[2]["prev_action"] {
		t.Errorf("row 0: flow %v, next at %v ns, want flow 7 next at 30000 (row 2)", rows[0]["flow_id"], rows[0]["next_t_ns"])
	}
	if rows[3]["next_t_ns"] != nil || rows[3]["next_rate_frac"] != nil || !rows[3]["done"].(bool) {
		t.Errorf("row 3 (last of flow 9): next %v, done %v; want no next decision", rows[3]["next_t_ns"], rows[3]["done"])
	}
}

// TestDatasetFromCLI makes a real decisions.parquet with `ccreplay dataset`
// when the command exists and checks its schema and the notebook SQL on it.
func TestDatasetFromCLI(t *testing.T) {
	if !hasSubcommand("dataset") {
		t.Skip("ccreplay has no `dataset` subcommand yet: " + runfolder.DecisionsFile + " is checked on rows written by output.WriteRows only (TestDecisionRowsReadByDuckDB, TestDecisionSQLOnWrittenRows)")
	}
	out := filepath.Join(workDir, "dataset")
	if _, err := ccreplayErr("dataset", "--workload", incastSpec, "--cca", "dcqcn", "--out", out); err != nil {
		t.Fatalf("ccreplay dataset: %v", err)
	}
	paths, _ := filepath.Glob(filepath.Join(out, "**", runfolder.DecisionsFile))
	if p := filepath.Join(out, runfolder.DecisionsFile); fileExists(p) {
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		t.Fatalf("ccreplay dataset --out %s wrote no "+runfolder.DecisionsFile, out)
	}
	db := openDB(t)
	for _, p := range paths {
		if n := count(t, db, p); n == 0 {
			t.Errorf("%s: no decisions", p)
		}
		checkColumns(t, db, p, v2.DecisionRow{})
		checkMetadata(t, db, p)
		checkDecisionSQL(t, p)
	}
}

// TestLearningFromCLI checks learning.parquet of `ccreplay train rlcc`
// (3 short episodes): columns and types of v2.LearningRow, the schema
// metadata, and one row per episode.
func TestLearningFromCLI(t *testing.T) {
	if !hasSubcommand("train") {
		t.Skip("ccreplay has no `train` subcommand yet: " + runfolder.LearningFile + " is not checked")
	}
	checkTrained(t, "train", v2.LearningRow{}, 3, "rlcc", "--episodes", "3", "--duration", "200us")
}

// TestFDCCLearningFromCLI checks learning.parquet of `ccreplay train fdcc`
// (a four-episode curriculum): the columns and types of fdcctrain.Row, the
// schema metadata, one row per episode and the curriculum's flow counts.
func TestFDCCLearningFromCLI(t *testing.T) {
	db, p := checkTrained(t, "train-fdcc", fdcctrain.Row{}, 4, "fdcc", "--curriculum", "2,4", "--episodes-per-stage", "2", "--duration", "1ms",
		"--updates", "2", "--batch", "16", "--hidden", "4", "--head", "4")
	var flows string
	if err := db.QueryRow(`SELECT string_agg(CAST(flows AS VARCHAR), ',' ORDER BY episode) FROM read_parquet('` + p + `')`).Scan(&flows); err != nil {
		t.Fatal(err)
	}
	if flows != "2,2,2,4" {
		t.Errorf("%s: flows by episode %s, want 2,2,2,4 (stage 1 keeps stage 0's 2-to-1)", p, flows)
	}
}

// checkTrained runs `ccreplay train ALGORITHM -o DIR FLAGS...` (args are
// the algorithm and its flags; DIR is name under workDir) and checks its
// learning.parquet: the columns and types of row, the schema metadata and
// one row per episode. It returns the database and the file's path.
func checkTrained(t *testing.T, name string, row any, episodes int64, args ...string) (*sql.DB, string) {
	t.Helper()
	out := filepath.Join(workDir, name)
	if _, err := ccreplayErr(append([]string{"train", args[0], "-o", out}, args[1:]...)...); err != nil {
		t.Fatalf("ccreplay train %s: %v", args[0], err)
	}
	p := filepath.Join(out, runfolder.LearningFile)
	db := openDB(t)
	checkColumns(t, db, p, row)
	checkMetadata(t, db, p)
	if n := count(t, db, p); n != episodes {
		t.Errorf("%s: %d rows, want one per episode (%d)", p, n, episodes)
	}
	return db, p
}

// writeSyntheticDecisions writes syntheticDecisions to a temporary
// decisions.parquet and returns its path.
func writeSyntheticDecisions(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), runfolder.DecisionsFile)
	if err := output.WriteRows(path, syntheticDecisions()); err != nil {
		t.Fatal(err)
	}
	return path
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
