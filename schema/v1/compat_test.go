package v1_test

// Version 1 files stay readable (docs/OUTPUTS.md, "Versioning": readers
// accept both versions). testdata/ holds the version 1 samples committed
// when v1 was current: each is read with metrics/arrowread, which returns
// version 2 rows, and must hold the rows of its JSON twin in every column
// v1 has; the columns version 2 added read as unknown.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/metrics/arrowread"
	v1 "github.com/ccreplay/ccreplay/schema/v1"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// sameAsSample checks that rows, v2 rows read from testdata/<kind>.parquet,
// hold in every column v1 has the rows of its JSON twin
// testdata/<kind>.json. JSON keeps the v1 columns of the v2 rows: the JSON
// field names are the Go field names of both versions.
func sameAsSample[T any](t *testing.T, kind string, rows any) {
	t.Helper()
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	twin, err := os.ReadFile(filepath.Join("testdata", kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var got, want []T
	if err := errors.Join(json.Unmarshal(b, &got), json.Unmarshal(twin, &want)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", kind, got, want)
	}
}

func TestVersion1Readable(t *testing.T) {
	path := func(kind string) string { return filepath.Join("testdata", kind+".parquet") }
	flows, err := arrowread.ReadFlows(path("flows"))
	if err != nil {
		t.Fatal(err)
	}
	sameAsSample[v1.FlowRow](t, "flows", flows)
	for _, f := range flows {
		if f.SenderFinishNs != -1 || f.SenderFCTNs != -1 || f.SenderSlowdown != 0 || f.ConcurrentBytes != -1 || f.PFCPausedNs != -1 {
			t.Errorf("flow %d: v2 columns of a v1 file should read as unknown, got %d %d %g %d %d", f.FlowID, f.SenderFinishNs, f.SenderFCTNs, f.SenderSlowdown, f.ConcurrentBytes, f.PFCPausedNs)
		}
	}
	msgs, err := arrowread.ReadMessages(path("messages"))
	if err != nil {
		t.Fatal(err)
	}
	sameAsSample[v1.MessageRow](t, "messages", msgs)
	ports, err := arrowread.ReadPorts(path("ports"))
	if err != nil {
		t.Fatal(err)
	}
	sameAsSample[v1.PortRow](t, "ports", ports)
	var pkts []v2.PacketRow
	if err := arrowread.ScanPackets(path("packets"), func(r *v2.PacketRow) error { pkts = append(pkts, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	sameAsSample[v1.PacketRow](t, "packets", pkts)
}
