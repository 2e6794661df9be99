package gen

import (
	"bytes"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/cdf"
	"github.com/ccreplay/ccreplay/units"
)

// TestNewReport counts bytes, distinct collectives and the last release,
// and prints the cdf line only for a cdf generator.
func TestNewReport(t *testing.T) {
	tr := &trace.Trace{Hosts: 3, Messages: []trace.Message{
		{Bytes: 100, CollectiveID: 4, Release: 2 * units.Microsecond},
		{Bytes: 50, CollectiveID: 4, Release: 5 * units.Microsecond},
		{Bytes: 7, CollectiveID: trace.NoCollective, Release: units.Microsecond},
	}}
	r := NewReport("x", "t.csv", 9, tr, cdf.Stats{})
	if r.Bytes != 157 || r.Collectives != 1 || r.LastReleaseNs != 5000 || r.Messages != 3 || r.Hosts != 3 || r.Seed != 9 {
		t.Errorf("report %+v", r)
	}
	var b bytes.Buffer
	r.WriteText(&b)
	if want := "wrote t.csv: 3 messages, 157 bytes, 3 hosts, 1 collectives\n"; b.String() != want {
		t.Errorf("text %q, want %q", b.String(), want)
	}
	b.Reset()
	NewReport("cdf:x", "w.csv", 1, &trace.Trace{Hosts: 2}, cdf.Stats{MeanSize: 1500, TargetLoad: 0.3, AchievedLoad: 0.29}).WriteText(&b)
	if want := "wrote w.csv: 0 messages, 0 bytes, 2 hosts\nmean flow size used 1500 B; target load 0.300, achieved 0.290\n"; b.String() != want {
		t.Errorf("cdf text %q, want %q", b.String(), want)
	}
}
