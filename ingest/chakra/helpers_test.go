package chakra

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
	"github.com/ccreplay/ccreplay/trace"
)

// load writes ranks as a trace set in a temporary directory and loads it.
func load(t *testing.T, ranks [][]*etpb.Node, opt Options) (*trace.Trace, *Report) {
	t.Helper()
	path, err := etgen.WriteSet(t.TempDir(), "workload", ranks)
	if err != nil {
		t.Fatal(err)
	}
	tr, rep, err := Load(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatalf("invalid trace: %v", err)
	}
	return tr, rep
}

// loadErr writes ranks (raw streams) and returns Load's error.
func loadErr(t *testing.T, ranks [][]byte) error {
	t.Helper()
	dir := t.TempDir()
	for r, b := range ranks {
		if err := os.WriteFile(filepath.Join(dir, "workload."+strconv.Itoa(r)+".et"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := Load(filepath.Join(dir, "workload.0.et"), Options{})
	return err
}

// data returns the data messages (not synchronization points) of tr.
func data(tr *trace.Trace) []trace.Message {
	var out []trace.Message
	for _, m := range tr.Messages {
		if !m.IsSync() {
			out = append(out, m)
		}
	}
	return out
}

// byPair returns the data messages from rank src to rank dst, in trace
// order.
func byPair(tr *trace.Trace, src, dst int32) []trace.Message {
	var out []trace.Message
	for _, m := range data(tr) {
		if m.SrcRank == src && m.DstRank == dst {
			out = append(out, m)
		}
	}
	return out
}

// dependsOn reports whether m lists id among its dependencies.
func dependsOn(m trace.Message, id int64) bool { return slices.Contains(m.Deps, id) }

// msg returns the message with the given id.
func msg(tr *trace.Trace, id int64) trace.Message { return tr.Messages[id] }

// gzipTo writes b gzip-compressed to w.
func gzipTo(w io.Writer, b []byte) error {
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(b); err != nil {
		return err
	}
	return zw.Close()
}
