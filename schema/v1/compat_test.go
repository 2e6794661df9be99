package v1_test

// Version 1 files stay readable (docs/OUTPUTS.md, "Versioning": readers
// accept both versions). testdata/ holds the version 1 samples committed
// when v1 was current: each is read with metrics/arrowread, which returns
// version 2 rows, and must hold the rows of its JSON twin in every column
// v1 has; the columns version 2 added read as unknown.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/metrics/arrowread"
	v1 "github.com/ccreplay/ccreplay/schema/v1"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// asV1 keeps the v1 columns of v2 rows (by their JSON field names, which
// are the Go field names of both versions).
func asV1[T any](t *testing.T, rows any) []T {
	t.Helper()
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func readJSON[T any](t *testing.T, kind string) []T {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []T
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestVersion1Readable(t *testing.T) {
	path := func(kind string) string { return filepath.Join("testdata", kind+".parquet") }
	flows, err := arrowread.ReadFlows(path("flows"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := asV1[v1.FlowRow](t, flows), readJSON[v1.FlowRow](t, "flows"); !reflect.DeepEqual(got, want) {
		t.Errorf("flows:\n got %+v\nwant %+v", got, want)
	}
	for _, f := range flows {
		if f.SenderFinishNs != -1 || f.SenderFCTNs != -1 || f.SenderSlowdown != 0 || f.ConcurrentBytes != -1 || f.PFCPausedNs != -1 {
			t.Errorf("flow %d: v2 columns of a v1 file should read as unknown, got %d %d %g %d %d", f.FlowID, f.SenderFinishNs, f.SenderFCTNs, f.SenderSlowdown, f.ConcurrentBytes, f.PFCPausedNs)
		}
	}
	msgs, err := arrowread.ReadMessages(path("messages"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := asV1[v1.MessageRow](t, msgs), readJSON[v1.MessageRow](t, "messages"); !reflect.DeepEqual(got, want) {
		t.Errorf("messages:\n got %+v\nwant %+v", got, want)
	}
	ports, err := arrowread.ReadPorts(path("ports"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := asV1[v1.PortRow](t, ports), readJSON[v1.PortRow](t, "ports"); !reflect.DeepEqual(got, want) {
		t.Errorf("ports:\n got %+v\nwant %+v", got, want)
	}
	var pkts []v2.PacketRow
	if err := arrowread.ScanPackets(path("packets"), func(r *v2.PacketRow) error { pkts = append(pkts, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if got, want := asV1[v1.PacketRow](t, pkts), readJSON[v1.PacketRow](t, "packets"); !reflect.DeepEqual(got, want) {
		t.Errorf("packets:\n got %+v\nwant %+v", got, want)
	}
}
