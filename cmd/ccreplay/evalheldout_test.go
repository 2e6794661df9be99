package main

import (
	"encoding/json"
	"testing"

	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/runfolder"
)

// `ccreplay eval heldout` prints, per algorithm, the held-out table the
// trainers select checkpoints by; --json gives one table per algorithm
// with a row per scenario of the set and the score the mean of the rows'.
func TestEvalHeldout(t *testing.T) {
	r := runCLI(t, "eval", "heldout", "--set", "rlcc", "--policy", "teacher", "--baselines", "none", "--json")
	r.mustSucceed(t)
	var out []heldout.Labelled
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if len(out) != 1 || out[0].Label != "rlcc (teacher)" || len(out[0].Table.Rows) != 5 {
		t.Fatalf("tables %+v", out)
	}
	sum := 0.0
	for _, row := range out[0].Table.Rows {
		if row.Finished != row.Flows || !(row.Goodput > 0 && row.Goodput <= 1) || row.Score < 0 || row.Score > 1 {
			t.Errorf("row %+v: want every flow finished, goodput in (0, 1], score in [0, 1]", row)
		}
		sum += row.Score
	}
	if d := out[0].Table.Score - sum/5; d > 1e-12 || d < -1e-12 {
		t.Errorf("score %v, rows' mean %v", out[0].Table.Score, sum/5)
	}
	checkExits(t, []exitCase{
		{[]string{"eval", "heldout", "--set", "dolce"}, ExitUsage, "--set"},
		{[]string{"eval", "heldout", "--set", "fdcc", "--policy", "/no/such/" + runfolder.PolicyFile}, ExitBadInput, "--policy"},
		{[]string{"eval", "heldout", "--set", "rlcc", "--baselines", "nosuchcc"}, ExitUsage, "--baselines"},
		{[]string{"eval", "heldout", "-j", "0"}, ExitUsage, "--parallel"},
	})
}
