package cli

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

func TestValidate(t *testing.T) {
	for out, want := range map[string]string{"": "give the output file", "t.txt": `unknown trace format ".txt"`} {
		err := (&CommandOptions{Out: out}).Validate()
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
			t.Errorf("-o %q: %v, want a usage error with %q", out, err, want)
		}
	}
	if err := (&CommandOptions{Out: "t.Parquet"}).Validate(); err != nil {
		t.Error(err)
	}
}

// budget is a MemoryBudget of b bytes.
func budget(b int64) func(string) (int64, string, error) {
	return func(flag string) (int64, string, error) { return b, "--max-memory " + flag, nil }
}

// A trace that fits is written and described; one that needs more than
// the budget (replay.MemBase + gen.MemPerMessage per message) is refused
// before it is built, with the estimate, as an input error.
func TestRunBudget(t *testing.T) {
	out := filepath.Join(t.TempDir(), "i.csv")
	o := CommandOptions{Spec: "incast:n=4,size=1MB", Out: out, Seed: 1, MaxMemory: "1GB", MemoryBudget: budget(1 << 30)}
	var stdout bytes.Buffer
	if err := o.Run(iostreams.Streams{Out: &stdout}); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadFile(out)
	if err != nil || len(tr.Messages) != 4 || !strings.Contains(stdout.String(), out) {
		t.Errorf("wrote %v (%v); said %q", tr, err, stdout.String())
	}
	o.MemoryBudget = budget(replay.MemBase + 2*gen.MemPerMessage)
	err = o.Run(iostreams.Streams{Out: &stdout})
	var ie *clierr.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "4 messages x") || !strings.Contains(err.Error(), "more than --max-memory 1GB") {
		t.Errorf("over budget: %v", err)
	}
}
