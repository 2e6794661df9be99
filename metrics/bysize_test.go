package metrics

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Two sizes, two collectives of 1 KiB and one of 4 KiB (an OSU
// MPI_Alltoall of two iterations at 1 KiB and one at 4 KiB), one lone
// 1 KiB message and one unfinished 4 KiB message, computed by hand.
func TestBySize(t *testing.T) {
	msgs := []v2.MessageRow{
		// collective 0, 1 KiB: release 0, finishes 300 and 500 -> CCT 500
		{MsgID: 0, SizeBytes: 1024, CollectiveID: 0, ReleaseNs: 0, FinishNs: 300, MCTNs: 300},
		{MsgID: 1, SizeBytes: 1024, CollectiveID: 0, ReleaseNs: 0, FinishNs: 500, MCTNs: 500},
		// collective 1, 1 KiB: release 1000, finishes 1200 and 1400 -> CCT 400
		{MsgID: 2, SizeBytes: 1024, CollectiveID: 1, ReleaseNs: 1000, FinishNs: 1200, MCTNs: 200},
		{MsgID: 3, SizeBytes: 1024, CollectiveID: 1, ReleaseNs: 1000, FinishNs: 1400, MCTNs: 400},
		// lone 1 KiB message
		{MsgID: 4, SizeBytes: 1024, CollectiveID: -1, ReleaseNs: 0, FinishNs: 1000, MCTNs: 1000},
		// collective 2, 4 KiB, one message unfinished: not finished
		{MsgID: 5, SizeBytes: 4096, CollectiveID: 2, ReleaseNs: 2000, FinishNs: 3000, MCTNs: 1000},
		{MsgID: 6, SizeBytes: 4096, CollectiveID: 2, ReleaseNs: 2000, FinishNs: -1, MCTNs: -1},
	}
	got := BySize(msgs)
	want := SizeTable{DistinctSizes: 2, Rows: []SizeRow{
		// MCTs {300, 500, 200, 400, 1000}: mean 480; sorted {200, 300, 400, 500, 1000},
		// p50 index ceil(2.5)-1 = 2 -> 400, p99 index 4 -> 1000. CCTs {500, 400}: 450.
		{SizeMinBytes: 1024, SizeMaxBytes: 1024, Messages: 5, MessagesFinished: 5, MCTMeanNs: 480, MCTP50Ns: 400, MCTP99Ns: 1000,
			Collectives: 2, CollectivesFinished: 2, CCTMeanNs: 450},
		{SizeMinBytes: 4096, SizeMaxBytes: 4096, Messages: 2, MessagesFinished: 1, MCTMeanNs: 1000, MCTP50Ns: 1000, MCTP99Ns: 1000,
			Collectives: 1},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BySize:\n got %+v\nwant %+v", got, want)
	}
	var b bytes.Buffer
	WriteSizeTable(&b, got)
	for _, line := range []string{
		"message completion time per message size (2 sizes)\n",
		"  size (bytes)  messages  finished  MCT mean   MCT p50   MCT p99  collectives  CCT mean\n",
		"          1024         5         5    480 ns    400 ns  1.000 us            2    450 ns\n",
		"          4096         2         1  1.000 us  1.000 us  1.000 us            1       n/a\n",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("table lacks %q:\n%s", line, b.String())
		}
	}
	if BySize(nil).Rows != nil {
		t.Errorf("no messages: rows")
	}
}

// More than MaxSizeRows distinct sizes are grouped into log-spaced ranges:
// sizes 1..100 (100 sizes) fall into the 7 power-of-2 ranges [1], [2, 3],
// [4, 7], ..., [64, 100].
func TestBySizeGroupsManySizes(t *testing.T) {
	var msgs []v2.MessageRow
	for s := int64(1); s <= 100; s++ {
		msgs = append(msgs, v2.MessageRow{MsgID: s, SizeBytes: s, CollectiveID: -1, FinishNs: s, MCTNs: s})
	}
	got := BySize(msgs)
	if got.DistinctSizes != 100 || got.Octaves != 1 || len(got.Rows) != 7 {
		t.Fatalf("distinct %d, octaves %d, %d rows; want 100, 1, 7", got.DistinctSizes, got.Octaves, len(got.Rows))
	}
	var n int64
	for k, r := range got.Rows {
		lo := int64(1) << k
		if r.SizeMinBytes != lo || r.SizeMaxBytes != min(2*lo-1, 100) {
			t.Errorf("row %d: %s, want %d-%d", k, r.SizeLabel(), lo, min(2*lo-1, 100))
		}
		n += r.Messages
	}
	if n != 100 {
		t.Errorf("%d messages in the rows, want 100", n)
	}
	// 2^0 .. 2^40: 41 power-of-2 ranges are too many; a factor of 4 gives 21,
	// a factor of 8 gives 14.
	msgs = msgs[:0]
	for k := range 41 {
		msgs = append(msgs, v2.MessageRow{SizeBytes: int64(1) << k, CollectiveID: -1, FinishNs: -1, MCTNs: -1})
	}
	if got := BySize(msgs); got.Octaves != 3 || len(got.Rows) != 14 || !strings.Contains(got.Caption(), "41 distinct sizes, grouped into 14 log-spaced ranges (a factor of 8") {
		t.Errorf("octaves %d, %d rows, caption %q", got.Octaves, len(got.Rows), got.Caption())
	}
}
