package chakra

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
)

var update = flag.Bool("update", false, "rewrite the example trace sets in examples/")

// exampleDir is the 8-rank example trace set: one data-parallel training
// step (etgen.TrainingStep) with two 1 MiB gradient all-reduces.
const exampleDir = "../../examples/chakra_allreduce8"

// TestWriteExamples checks that the example trace set is what the
// generator writes (go test ./ingest/chakra -run TestWriteExamples
// -update rewrites it) and that it loads into the expected trace.
func TestWriteExamples(t *testing.T) {
	const n, grad = 8, 1 << 20
	ranks := etgen.TrainingStep(n, grad)
	if *update {
		if err := os.MkdirAll(exampleDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := etgen.WriteSet(exampleDir, "workload", ranks); err != nil {
			t.Fatal(err)
		}
	}
	for r, nodes := range ranks {
		name := filepath.Join(exampleDir, fmt.Sprintf("workload.%d.et", r))
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (run with -update to write the examples)", err)
		}
		if !bytes.Equal(got, etgen.Encode(nodes)) {
			t.Errorf("%s is not what etgen.TrainingStep writes (run with -update)", name)
		}
	}
	tr, rep, err := Load(filepath.Join(exampleDir, "workload.3.et"), Options{PPN: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Two ring all-reduces: 2 x 8 x 14 messages of 128 KiB.
	if rep.Ranks != n || rep.Hosts != 4 || rep.Collectives["ALL_REDUCE"] != 2 || rep.Messages != 2*n*2*(n-1) ||
		rep.Bytes != 2*2*(n-1)*grad || len(rep.Skipped) != 0 || rep.ComputeMicros != n*(200+200+300+300+50) {
		t.Errorf("report %+v", rep)
	}
	if len(tr.Ranks) != n || tr.PPN != 2 {
		t.Errorf("placement %v, PPN %d", tr.Ranks, tr.PPN)
	}
}
