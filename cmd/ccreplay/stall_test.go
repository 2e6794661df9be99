package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Regression: on a 64-to-64 dumbbell with 16 flows per sender host and
// one-BDP windows, a third of the flows stopped for good after their first
// window. Their window opened while the NIC was PFC-paused (every ACK came
// during the pause), the ACK could not requeue them and the RESUME did
// not know them; with nothing left to do the run ended, 341 of 1024 flows
// unfinished, and said nothing. Every flow must finish, under every
// algorithm.
func TestNoFlowLeftBehindByPause(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, dir, "w.yaml", "nic: {window: bdp}\n")
	for _, cc := range []string{"hpcc", "dcqcn:hpcc"} {
		r := runCLI(t, "run", "--workload", "incast:n=64,per_host=16,size=200KB,jitter=1ms,dist=gaussian,dst=64",
			"--topology", "dumbbell:n=64", "--cca", cc, "--config", cfg, "--packets", "none",
			"-o", filepath.Join(dir, strings.ReplaceAll(cc, ":", "-")), "--json")
		r.mustSucceed(t)
		var m struct {
			Metrics struct {
				Flows         int64 `json:"flows"`
				FlowsFinished int64 `json:"flows_finished"`
			} `json:"metrics"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
			t.Fatal(err)
		}
		if m.Metrics.FlowsFinished != 1024 || len(m.Warnings) != 0 || strings.Contains(r.stderr, "never finished") {
			t.Errorf("%s: %d of %d flows finished, warnings %q, stderr %q", cc, m.Metrics.FlowsFinished, m.Metrics.Flows, m.Warnings, r.stderr)
		}
	}
}
