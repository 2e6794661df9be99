package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/trace"
)

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		o    CommandOptions
		want string
	}{
		{CommandOptions{Timing: "sometimes"}, "--timing"},
		{CommandOptions{Timing: "open", Out: "t.txt"}, "-o t.txt: want a .parquet, .csv or .jsonl file"},
	} {
		err := c.o.Validate()
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a usage error with %q", c.o, err, c.want)
		}
	}
	o := CommandOptions{Timing: "closed", Out: "T.JSONL"}
	if err := o.Validate(); err != nil || o.ParsedTiming() != ingest.ClosedLoop {
		t.Errorf("closed: %v, timing %v", err, o.ParsedTiming())
	}
}

// The shipped capture: the JSON report on stdout, the trace written with
// as many messages as the report counts; a missing file is an input error.
func TestRunCapture(t *testing.T) {
	dir := t.TempDir()
	o := CommandOptions{File: "../../examples/alltoall_roce.pcap", Out: filepath.Join(dir, "t.csv"), JSON: true, Timing: "open", PPN: 1, Scale: 1}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	if err := o.Run(t.Context(), iostreams.Streams{Out: &out, Err: &errw}); err != nil {
		t.Fatal(err)
	}
	var rep ingest.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, out.String())
	}
	tr, err := trace.ReadFile(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Messages) == 0 || len(tr.Messages) != rep.Trace.Messages {
		t.Errorf("wrote %d messages, the report counts %d", len(tr.Messages), rep.Trace.Messages)
	}
	o.File = filepath.Join(dir, "none.pcap")
	if err := o.Run(t.Context(), iostreams.Streams{Out: &out, Err: &errw}); clierr.Code(err) != clierr.ExitBadInput {
		t.Errorf("missing file: %v", err)
	}
}
