package duckdbcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// TestNetcalcReadByDuckDB runs `ccreplay netcalc --compare` on a 31-to-1
// incast (1 MB flows, DCQCN with PFC, 1 ms) and reads every file it writes
// with DuckDB: the column types docs/NETCALC.md gives, row counts equal to
// summary.json's, curves' aggregate backlog equal to the sum of its
// flows', compare.parquet's model backlog equal to curves' aggregate
// at every step, compare_flows.parquet adding up to compare.parquet.
func TestNetcalcReadByDuckDB(t *testing.T) {
	if !hasSubcommand("netcalc") {
		t.Skip("ccreplay has no `netcalc` subcommand")
	}
	out := filepath.Join(workDir, "netcalc")
	if _, err := ccreplayErr("netcalc", "--topology", "star:hosts=32,rate=100G,delay=1us", "--workload", "incast:n=31,size=1MB",
		"--cca", "dcqcn", "--pfc", "on", "--horizon", "1ms", "--compare", "--figure", "none", "--out", out); err != nil {
		t.Fatalf("ccreplay netcalc: %v", err)
	}
	var sum struct {
		CurveRows int `json:"curve_rows"`
		Events    int `json:"events"`
		Compare   struct {
			Rows     int `json:"compare_rows"`
			FlowRows int `json:"compare_flow_rows"`
		} `json:"compare"`
	}
	b, err := os.ReadFile(filepath.Join(out, runfolder.SummaryFile))
	if err != nil || json.Unmarshal(b, &sum) != nil {
		t.Fatalf(runfolder.SummaryFile+": %v", err)
	}
	db := openDB(t)
	types := map[string]map[string]string{
		runfolder.CurvesFile: {"t_ns": "BIGINT", "flow_id": "BIGINT", "epoch": "INTEGER", "a_bytes": "DOUBLE", "ahat_bytes": "DOUBLE",
			"d_bytes": "DOUBLE", "d_lo_bytes": "DOUBLE", "d_hi_bytes": "DOUBLE", "backlog_bytes": "DOUBLE", "rate_bps": "DOUBLE",
			"window_bytes": "DOUBLE", "rtt_ns": "BIGINT", "paused": "BOOLEAN"},
		runfolder.EventsFile: {"t_ns": "BIGINT", "flow_id": "BIGINT", "kind": "VARCHAR", "before": "DOUBLE", "after": "DOUBLE", "unit": "VARCHAR"},
		runfolder.CompareFile: {"t_ns": "BIGINT", "model_backlog_bytes": "DOUBLE", "replay_backlog_bytes": "DOUBLE", "model_rate_bps": "DOUBLE",
			"replay_rate_bps": "DOUBLE", "model_paused": "BIGINT", "replay_paused": "BIGINT", "model_delay_ns": "BIGINT", "replay_delay_ns": "BIGINT"},
		runfolder.CompareFlowsFile: {"t_ns": "BIGINT", "flow_id": "BIGINT", "model_rate_bps": "DOUBLE", "replay_rate_bps": "DOUBLE",
			"model_backlog_bytes": "DOUBLE", "replay_backlog_bytes": "DOUBLE"},
	}
	counts := map[string]int{runfolder.CurvesFile: sum.CurveRows, runfolder.EventsFile: sum.Events, runfolder.CompareFile: sum.Compare.Rows, runfolder.CompareFlowsFile: sum.Compare.FlowRows}
	for file, cols := range types {
		p := filepath.Join(out, file)
		rows, _ := queryRows(t, db, fmt.Sprintf("select column_name, column_type from (describe select * from read_parquet('%s'))", p))
		got := map[string]string{}
		for _, r := range rows {
			got[r["column_name"].(string)] = r["column_type"].(string)
		}
		for c, want := range cols {
			if got[c] != want {
				t.Errorf("%s: column %s is %q, want %s", file, c, got[c], want)
			}
		}
		if len(got) != len(cols) {
			t.Errorf("%s: columns %v, want %v", file, got, cols)
		}
		if n := count(t, db, p); n != int64(counts[file]) || n == 0 {
			t.Errorf("%s: %d rows, "+runfolder.SummaryFile+" says %d", file, n, counts[file])
		}
	}
	check := func(what, q string) {
		t.Helper()
		rows, _ := queryRows(t, db, q)
		if n, _ := asInt(rows[0]["bad"]); n != 0 {
			t.Errorf("%s: %d steps disagree", what, n)
		}
	}
	curves := filepath.Join(out, runfolder.CurvesFile)
	check("curves: aggregate backlog = sum over flows", fmt.Sprintf(`
		select count(*) as bad from (select t_ns,
		  sum(backlog_bytes) filter (where flow_id >= 0) as bl, max(backlog_bytes) filter (where flow_id = -1) as ag_bl
		  from read_parquet('%s') group by t_ns)
		where abs(ag_bl - bl) > 1e-3 * greatest(1, ag_bl)`, curves))
	check("compare: model backlog = curves' aggregate", fmt.Sprintf(`
		select count(*) as bad from read_parquet('%s') c join read_parquet('%s') g on g.t_ns = c.t_ns and g.flow_id = -1
		where abs(c.model_backlog_bytes - g.backlog_bytes) > 1e-6`, filepath.Join(out, runfolder.CompareFile), curves))
	check("compare_flows adds up to compare", fmt.Sprintf(`
		select count(*) as bad from read_parquet('%s') c join
		  (select t_ns, sum(replay_backlog_bytes) as r from read_parquet('%s') group by t_ns) f on f.t_ns = c.t_ns
		where abs(c.replay_backlog_bytes - f.r) > 1e-6`, filepath.Join(out, runfolder.CompareFile), filepath.Join(out, runfolder.CompareFlowsFile)))
}
