package chakra

import (
	"os"
	"testing"
)

// TestRealTrace reads a trace written by another tool, when
// CCREPLAY_CHAKRA_ET names one: e.g. tests/data/chakra.0.et from
// feeder_tests_trace.tar.gz in https://github.com/mlcommons/chakra (a
// PyTorch recording converted by Chakra's converter, 3664 nodes), which
// loads with 383 control dependencies on the node itself, 1277 on nodes
// not in the file and 554 closing cycles dropped, and 14 collectives
// without comm_type skipped.
func TestRealTrace(t *testing.T) {
	path := os.Getenv("CCREPLAY_CHAKRA_ET")
	if path == "" {
		t.Skip("set CCREPLAY_CHAKRA_ET to a Chakra .et file")
	}
	for _, opt := range []Options{{}, {IgnoreCtrlDeps: true}} {
		tr, rep, err := Load(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Validate(); err != nil {
			t.Fatal(err)
		}
		if rep.Nodes == 0 {
			t.Error("no nodes")
		}
		t.Logf("IgnoreCtrlDeps %v: %d nodes, %d messages, %d sync points; %d warnings",
			opt.IgnoreCtrlDeps, rep.Nodes, rep.Messages, rep.SyncPoints, len(rep.Warnings()))
	}
}
