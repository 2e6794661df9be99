package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/rlcc"
)

// `ccreplay explain rlcc` prints RL-CC-NIC (Fuhrer 2023), Table VI's nine cells for the
// embedded policy, each next to the paper's value.
func TestExplainRLCC(t *testing.T) {
	r := runCLI(t, "explain", "rlcc")
	r.mustSucceed(t)
	for _, want := range []string{"policy default: trees: 10 trees of depth <= 4", "under-utilized", "on target", "congested", "[1.05]", "[0.94]", "(0.25, 1.628, 0)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := len(regexp.MustCompile(`\d\.\d{3} \[\d\.\d+\]`).FindAllString(r.stdout, -1)); n != 9 {
		t.Errorf("%d cells, want 9:\n%s", n, r.stdout)
	}
	j := runCLI(t, "explain", "rlcc", "--json", "--flows", "8")
	j.mustSucceed(t)
	var doc rlcc.Explanation
	if err := json.Unmarshal([]byte(j.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Rows) != 9 || doc.Flows != 8 || doc.Rows[3].Prev != "on target" || doc.Rows[3].Cur != "under-utilized" || doc.Rows[3].Paper != 1.1 {
		t.Fatalf("json: %+v", doc)
	}
	if f := doc.Rows[4].Features; f["rate_frac"] != 0.125 || f["prev_action"] != 1 {
		t.Fatalf("on target for 8 flows: features %v", f)
	}
	for _, row := range doc.Rows {
		if row.Action < 0.5 || row.Action > 1.5 {
			t.Fatalf("action %v outside [0.5, 1.5]", row.Action)
		}
	}
}

// A tree policy from XGBoost loads through policy=FILE; a missing file is
// a bad input (exit 3).
func TestExplainRLCCPolicyParam(t *testing.T) {
	p := filepath.Join("..", "..", "cca", "rlcc", "testdata", "xgb_stump.json")
	r := runCLI(t, "explain", "rlcc", "--cca-param", "policy="+p)
	r.mustSucceed(t)
	// The stump: 1.1 below RTT inflation 1.5, 0.9 above.
	if !strings.Contains(r.stdout, "trees: 1 trees") || !strings.Contains(r.stdout, "1.100 [1.05]") || !strings.Contains(r.stdout, "0.900 [0.94]") {
		t.Fatalf("output:\n%s", r.stdout)
	}
	bad := runCLI(t, "explain", "rlcc", "--cca-param", "policy=/nonexistent.json")
	if bad.code != ExitBadInput || !strings.Contains(bad.stderr, "/nonexistent.json") {
		t.Fatalf("exit %d stderr %q", bad.code, bad.stderr)
	}
	if u := runCLI(t, "explain", "rlcc", "--flows", "0"); u.code != ExitUsage {
		t.Fatalf("--flows 0: exit %d", u.code)
	}
}
