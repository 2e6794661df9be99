package otf2

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/otf2/internal/otf2write"
)

var update = flag.Bool("update", false, "rewrite the example archive in examples/")

// exampleDir is the example archive: the halo job (8 ranks, 4 per node,
// 3 iterations of a 64 KiB halo exchange and an 8-byte allreduce).
const exampleDir = "../../examples/otf2_halo8"

// TestExample checks that the example archive is what the project's
// writer makes of the halo job (go test ./ingest/otf2 -run TestExample
// -update rewrites it), that otf2-print reads it event for event as this
// package does, and that it loads into the trace the algorithms imply.
func TestExample(t *testing.T) {
	files := otf2write.Halo(halo).Files("traces")
	if *update {
		if err := os.RemoveAll(exampleDir); err != nil {
			t.Fatal(err)
		}
		if _, err := otf2write.Halo(halo).Write(exampleDir, "traces"); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(exampleDir, name))
		if err != nil {
			t.Fatalf("%v (run with -update to write the example)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what otf2write.Halo writes (run with -update)", name)
		}
		total += len(got)
	}
	if total > 200<<10 {
		t.Errorf("the example takes %d bytes", total)
	}
	anchor := filepath.Join(exampleDir, "traces.otf2")
	if !IsOTF2(anchor) {
		t.Fatal("IsOTF2(example) is false")
	}
	if _, err := os.Stat(filepath.Join(exampleDir, "traces")); err != nil {
		t.Fatal(err)
	}
	if _, err := lookPrint(); err == nil {
		compareWithPrint(t, anchor)
	}
	tr, rep, err := Load(anchor, Options{PPN: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ranks != 8 || rep.Hosts != 2 || rep.Messages != 3*(16+24) || rep.Sends != 48 || rep.Matched != 48 || len(rep.Skipped) != 0 {
		t.Errorf("report %+v", rep)
	}
	if len(tr.Ranks) != 8 || tr.PPN != 4 {
		t.Errorf("ranks %v ppn %d", tr.Ranks, tr.PPN)
	}
}
