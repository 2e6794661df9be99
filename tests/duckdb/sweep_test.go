package duckdbcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// TestSweepReadByDuckDB runs a real sweep (2 algorithms x 2 incast sizes x
// 2 seeds) and reads it with DuckDB both ways the docs show: sweep.parquet
// (written by Arrow's Parquet writer) with one row per point and its typed
// axis columns, and the hive-partitioned tree of flows.parquet, whose
// partition columns DuckDB infers from the folder names. The two must
// agree: each point's flow count in the table equals its rows in the tree,
// and the table's fct_p99_ns equals summary.json's.
func TestSweepReadByDuckDB(t *testing.T) {
	if !hasSubcommand("sweep") {
		t.Skip("ccreplay has no `sweep` subcommand yet")
	}
	out := filepath.Join(workDir, "sweep")
	if _, err := ccreplayErr("sweep", "--cca", "dcqcn,hpcc", "--workload", "incast:n={2,4},size=100KB", "--seeds", "1..2", "--out", out); err != nil {
		t.Fatalf("ccreplay sweep: %v", err)
	}
	db := openDB(t)
	table := filepath.Join(out, runfolder.SweepTableFile)
	rows, _ := queryRows(t, db, fmt.Sprintf(`select point, dir, status, cca, n, seed, flows, fct_p99_ns,
		typeof(n) as n_type, typeof(seed) as seed_type, typeof(cca) as cca_type from read_parquet('%s') order by point`, table))
	if len(rows) != 8 {
		t.Fatalf(runfolder.SweepTableFile+": %d rows, want 8", len(rows))
	}
	for _, r := range rows {
		if r["status"] != "done" || r["n_type"] != "BIGINT" || r["seed_type"] != "BIGINT" || r["cca_type"] != "VARCHAR" {
			t.Errorf("row %v", r)
		}
		var sum struct {
			Metrics struct {
				FCTP99Ns int64 `json:"fct_p99_ns"`
			} `json:"metrics"`
		}
		b, err := os.ReadFile(filepath.Join(out, r["dir"].(string), runfolder.SummaryFile))
		if err != nil || json.Unmarshal(b, &sum) != nil {
			t.Fatalf("%s: %v", r["dir"], err)
		}
		if got, _ := asInt(r["fct_p99_ns"]); got != sum.Metrics.FCTP99Ns {
			t.Errorf("%s: fct_p99_ns %v in "+runfolder.SweepTableFile+", %d in "+runfolder.SummaryFile, r["dir"], r["fct_p99_ns"], sum.Metrics.FCTP99Ns)
		}
	}
	tree, _ := queryRows(t, db, fmt.Sprintf(`select cca, n, seed, count(*) as flows
		from read_parquet('%s/**/`+runfolder.FlowsFile+`', hive_partitioning=true) group by all order by all`, out))
	if len(tree) != 8 {
		t.Fatalf("the hive tree has %d (cca, n, seed) groups, want 8: %v", len(tree), tree)
	}
	joined, _ := queryRows(t, db, fmt.Sprintf(`select count(*) as agree from read_parquet('%s') s
		join (select cca, n, seed, count(*) as c from read_parquet('%s/**/`+runfolder.FlowsFile+`', hive_partitioning=true) group by all) f
		on s.cca = f.cca and s.n = f.n and s.seed = f.seed and s.flows = f.c`, table, out))
	if got, _ := asInt(joined[0]["agree"]); got != 8 {
		t.Errorf("only %d of 8 points have as many flows in "+runfolder.SweepTableFile+" as in their "+runfolder.FlowsFile, got)
	}
}
