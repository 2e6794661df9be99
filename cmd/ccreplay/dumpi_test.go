package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
)

// `run --trace testbgp.meta` replays the real BlueGene/P application
// (7 ranks, 588 sends of 712 B, 7 Alltoall and 3 Barrier instances), and
// `ingest` reports it and writes the trace.
func TestRunAndIngestDUMPISharedData(t *testing.T) {
	meta := "../../../shared/data/mpi/dumpi/testbgp.meta"
	if _, err := os.Stat(meta); err != nil {
		t.Skip("../shared/data is absent: skipping the DUMPI traces")
	}
	tmp := t.TempDir()
	r := runCLI(t, "run", "--trace", meta, "--topology", "star:hosts=7", "--out", filepath.Join(tmp, "run"), "--json", "--packets", "none")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	s := decodeSummary(t, []byte(r.stdout))
	if s.Metrics["messages_finished"] != s.Metrics["messages"] || s.Metrics["collectives"] != 10.0 {
		t.Fatalf("testbgp replay: %v", s.Metrics)
	}
	out := filepath.Join(tmp, "bgp.parquet")
	r = runCLI(t, "ingest", "../../../shared/data/mpi/dumpi/testbgp-0003.bin", "-o", out)
	if r.code != ExitOK || !strings.Contains(r.stdout, "588 sends, 418656 bytes") {
		t.Fatalf("ingest: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr, err := trace.ReadFile(out)
	if err != nil || tr.Hosts != 7 || len(tr.Ranks) != 7 {
		t.Fatalf("written trace: %v hosts=%v", err, tr)
	}
	r = runCLI(t, "run", "--trace", filepath.Join(tmp, "missing.meta"), "--out", filepath.Join(tmp, "x"))
	if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("missing DUMPI meta: exit %d %q", r.code, r.stderr)
	}
}
