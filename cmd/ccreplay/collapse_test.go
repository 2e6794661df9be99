package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// A collapse is named once, with the parameters that set the recovery:
// ConnectX-like DCQCN (the connectx preset: 300 us increase timer, 5 Mb/s
// AI, 1 Mb/s floor) on a 7-to-1 x 512 KiB incast at 100 Gb/s cuts one flow
// to a crawl and leaves it there: the receiver's link carries 3.6 % of its
// rate over the 8.5 ms the messages were sending, below 20 % for 8.2 ms of
// them (the HPCC simulator agrees on this run: docs/FIDELITY.md). The
// default preset on the same incast finishes in 0.31 ms and says nothing.
func TestCollapseWarning(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cx")
	r := runCLI(t, "run", "--workload", "incast:n=7,size=512KiB", "--cca", "dcqcn:connectx", "-o", out)
	r.mustSucceed(t)
	if n := strings.Count(r.stderr, "warning:"); n != 1 || !strings.Contains(r.stderr, "collapse") {
		t.Fatalf("want one collapse warning, got %d:\n%s", n, r.stderr)
	}
	for _, want := range []string{"increase_timer=300us", "ai_rate=5Mbps", "hai_rate=50Mbps", "byte_counter=32767B", "min_rate=1Mbps", "dcqcn:connectx"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("warning lacks %s:\n%s", want, r.stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, runfolder.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Warnings []string `json:"warnings"`
		Collapse *struct {
			ActiveNs    int64   `json:"active_ns"`
			CollapsedNs int64   `json:"collapsed_ns"`
			Threshold   float64 `json:"threshold"`
			Utilization float64 `json:"utilization"`
			LinkRateBps int64   `json:"link_rate_bps"`
			Recovery    []struct {
				Key, Value string
			} `json:"recovery_params"`
		} `json:"collapse"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	c := m.Collapse
	if c == nil || len(m.Warnings) != 1 {
		t.Fatalf(runfolder.SummaryFile+": collapse %v, warnings %q", c, m.Warnings)
	}
	// Physics: the collapsed time lies within the active time, and the
	// busiest link's mean utilization is below the threshold.
	if c.CollapsedNs < 8_000_000 || c.CollapsedNs > c.ActiveNs || c.ActiveNs > 9_000_000 ||
		c.Utilization <= 0 || c.Utilization >= c.Threshold || c.Threshold != 0.2 || c.LinkRateBps != 100e9 {
		t.Errorf("collapse %+v", *c)
	}
	got := map[string]string{}
	for _, p := range c.Recovery {
		got[p.Key] = p.Value
	}
	if got["increase_timer"] != "300us" || got["ai_rate"] != "5Mbps" || got["min_rate"] != "1Mbps" {
		t.Errorf("recovery_params %v", c.Recovery)
	}

	r = runCLI(t, "run", "--workload", "incast:n=7,size=512KiB", "--cca", "dcqcn", "-o", filepath.Join(dir, "default"))
	r.mustSucceed(t)
	if strings.Contains(r.stderr, "warning:") {
		t.Errorf("default preset warns:\n%s", r.stderr)
	}
}

// The shipped examples, run as README.md and the docs show them, do not
// collapse: no warning, no collapse in summary.json.
func TestNoCollapseOnShippedExamples(t *testing.T) {
	dir := t.TempDir()
	for i, args := range [][]string{
		{"--trace", "../../examples/incast_roce.pcap", "--cca", "dolce", "--topology", "dolce-testbed"},
		{"--trace", "../../examples/incast_roce.pcap", "--cca", "dcqcn:dolce-sim", "--topology", "dolce-testbed"},
		{"--trace", "../../examples/incast_roce.pcap", "--cca", "dolce:sim", "--topology", "dolce-testbed"},
		{"--trace", "../../examples/alltoall_roce.pcap", "--cca", "dcqcn"},
		{"--trace", "../../examples/alltoall8.csv", "--cca", "dcqcn"},
		{"--trace", "../../examples/alltoall8.csv", "--cca", "hpcc"},
		{"--trace", "../../examples/chakra_allreduce8/workload.0.et", "--cca", "dcqcn"},
		{"--trace", "../../examples/otf2_halo8/traces.otf2", "--cca", "dolce"},
		{"--config", "../../examples/run.yaml"},
	} {
		out := filepath.Join(dir, string(rune('a'+i)))
		r := runCLI(t, append(append([]string{"run"}, args...), "--packets", "none", "-o", out)...)
		r.mustSucceed(t)
		b, _ := os.ReadFile(filepath.Join(out, runfolder.SummaryFile))
		if strings.Contains(r.stderr, "collapse") || strings.Contains(string(b), `"collapse"`) {
			t.Errorf("%v: collapse reported:\n%s", args, r.stderr)
		}
	}
}
