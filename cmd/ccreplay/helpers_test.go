package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// smallWorkload is the workload most run tests use: 4 x 100 KB into one
// host, a few hundred data packets, milliseconds of wall time.
const smallWorkload = "incast:n=4,size=100KB"

// traceHeader is the CSV trace header documented in README.md.
const traceHeader = "id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns"

// cliResult is what one invocation of Main produced.
type cliResult struct {
	code   int
	stdout string
	stderr string
}

// runCLI runs the whole CLI (cobra root included) on in-memory streams.
func runCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errw bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errw)
	return cliResult{code: code, stdout: out.String(), stderr: errw.String()}
}

// mustSucceed fails the test unless the invocation exited 0 with nothing
// on stderr.
func (r cliResult) mustSucceed(t *testing.T) {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("exit code %d, want 0\nstderr: %s", r.code, r.stderr)
	}
}

// writeFile writes content to name inside dir and returns the path.
var writeFile = testfiles.Write

// csvTrace joins the header and rows into a CSV trace.
func csvTrace(rows ...string) string {
	return traceHeader + "\n" + strings.Join(rows, "\n") + "\n"
}

// summary is the part of summary.json the tests look at.
type summary struct {
	SchemaVersion string            `json:"schema_version"`
	Trace         string            `json:"trace"`
	Seed          uint64            `json:"seed"`
	CCA           string            `json:"cca"`
	CCAParams     map[string]string `json:"cca_params"`
	Topology      string            `json:"topology"`
	Packets       string            `json:"packets"`
	Config        map[string]any    `json:"config"`
	DataPackets   int64             `json:"data_packets"`
	PacketRows    int64             `json:"packet_rows"`
	Files         []string          `json:"files"`
	Metrics       map[string]any    `json:"metrics"`
}

func decodeSummary(t *testing.T, b []byte) summary {
	t.Helper()
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("summary is not valid JSON: %v\n%s", err, b)
	}
	return s
}

func readSummary(t *testing.T, dir string) summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, runfolder.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	return decodeSummary(t, b)
}

// metricInt returns an integer metric from a decoded summary.
func (s summary) metricInt(t *testing.T, name string) int64 {
	t.Helper()
	v, ok := s.Metrics[name]
	if !ok {
		t.Fatalf("summary has no metric %q", name)
	}
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("metric %q = %v (%T), want a number", name, v, v)
	}
	return int64(f)
}

// dirNames lists the names in dir (nil if dir does not exist).
var dirNames = testfiles.Names

// checkParquet fails unless path is a complete Parquet file: "PAR1" at
// both ends (a file cut short by a crash has no footer magic).
func checkParquet(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 12 || string(b[:4]) != "PAR1" || string(b[len(b)-4:]) != "PAR1" {
		t.Errorf("%s: not a complete Parquet file (%d bytes)", filepath.Base(path), len(b))
	}
}

// checkNoTempFiles fails if dir still holds a temporary output file.
func checkNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	for _, n := range dirNames(t, dir) {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("leftover temporary file %s in %s", n, dir)
		}
	}
}

// checkGenerated checks that the part of the document path between the
// markers begin and end is body, or with update rewrites it so; rerun is
// the go test command that rewrites it, for the message when it is stale.
func checkGenerated(t *testing.T, path, begin, end, body string, update bool, rerun string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated section (%q ... %q)", path, begin, end)
	}
	updated := s[:i+len(begin)] + body + s[j:]
	if update {
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if updated != s {
		t.Errorf("%s is stale: run %s and read the diff", path, rerun)
	}
}

// readFlows reads the flow rows of the run folder dir.
func readFlows(t *testing.T, dir string) []v2.FlowRow {
	t.Helper()
	flows, err := arrowread.ReadFlows(filepath.Join(dir, runfolder.FlowsFile))
	if err != nil {
		t.Fatal(err)
	}
	return flows
}
