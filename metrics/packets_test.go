package metrics

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// TestHistExactBelow2048 checks that the histogram's percentiles equal the
// nearest-rank percentiles of the sorted values (docs/OUTPUTS.md,
// "summary.json"; package doc: index = ceil(p*n) - 1) whenever the values are below
// 2*HistSub, where every value has a bin of its own.
func TestHistExactBelow2048(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 999, 1000, 1001, 50_000} {
		var h Hist
		vs := make([]int64, n)
		for i := range vs {
			vs[i] = rng.Int64N(2 * HistSub)
			if err := h.Add(vs[i]); err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(vs)
		for _, pm := range []int{p50, p90, p95, p99, p999, 1000} {
			if got, want := h.Percentile(pm), percentile(vs, pm); got != want {
				t.Errorf("n=%d p%d/1000: got %d, want %d", n, pm, got, want)
			}
		}
		var sum int64
		for _, v := range vs {
			sum += v
		}
		if h.N() != int64(n) || h.Max() != vs[n-1] || h.Mean() != float64(sum)/float64(n) {
			t.Errorf("n=%d: N %d max %d mean %v", n, h.N(), h.Max(), h.Mean())
		}
	}
}

// TestHistErrorBound checks the documented bound on large values: the
// reported percentile q' is a value that occurred and q <= q' < q*(1+1/1024)
// for the exact nearest-rank value q.
func TestHistErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h Hist
	vs := make([]int64, 200_000)
	for i := range vs {
		// Log-uniform over 1 ns .. ~1 s, so that every octave is used.
		vs[i] = int64(math.Exp2(rng.Float64() * 30))
		h.Add(vs[i])
	}
	seen := map[int64]bool{}
	for _, v := range vs {
		seen[v] = true
	}
	slices.Sort(vs)
	for pm := 1; pm <= 1000; pm++ {
		q, got := percentile(vs, pm), h.Percentile(pm)
		if got < q || float64(got) >= float64(q)*(1+1.0/HistSub) || !seen[got] {
			t.Fatalf("p%d/1000: got %d, exact %d (seen %v)", pm, got, q, seen[got])
		}
	}
	if h.Max() != vs[len(vs)-1] {
		t.Errorf("max %d, want %d", h.Max(), vs[len(vs)-1])
	}
	// Memory follows the largest value, not the count: bins up to 2^30.
	if len(h.count) > 2*HistSub+20*HistSub {
		t.Errorf("%d bins for values below 2^30", len(h.count))
	}
}

func TestHistBins(t *testing.T) {
	// Bins are contiguous and monotone across the exact/log boundary and
	// between octaves.
	prev := -1
	for _, v := range []int64{0, 1, 2047, 2048, 2050, 4095, 4096, 4100, 1 << 40, 1<<62 + 12345, 1<<63 - 1} {
		b := histBin(v)
		if b <= prev {
			t.Errorf("bin(%d) = %d, not above %d", v, b, prev)
		}
		prev = b
	}
	if histBin(2048) != 2048 || histBin(2049) != 2048 || histBin(4096) != 3072 {
		t.Errorf("bins 2048, 2049, 4096: %d %d %d", histBin(2048), histBin(2049), histBin(4096))
	}
	var h Hist
	if err := h.Add(-1); err == nil || h.N() != 0 {
		t.Errorf("negative value: %v, n %d", err, h.N())
	}
	if h.Percentile(p50) != 0 || h.Mean() != 0 {
		t.Errorf("empty histogram is not zero")
	}
	if err := h.Add(1<<63 - 1); err != nil || h.Percentile(p99) != 1<<63-1 {
		t.Errorf("largest int64: %v, %d", err, h.Percentile(p99))
	}
}

// pkt is a packet row for the accumulator tests.
func pkt(ev, kind string, node, src int32, delay, depth int64, ce bool) v2.PacketRow {
	return v2.PacketRow{TNs: 100 + delay, Event: ev, Kind: kind, Node: node, Src: src, Dst: 1,
		Bytes: 1048, QueueDelayNs: delay, QDepthBytes: depth, CE: ce}
}

func TestPacketAccumulator(t *testing.T) {
	const sw = 9 // a switch's node id
	rows := []v2.PacketRow{
		pkt(v2.EventDequeue, v2.KindData, 0, 0, 0, 0, false),       // sent by host 0
		pkt(v2.EventDequeue, v2.KindData, 0, 0, 0, 0, false),       // sent again (retransmission)
		pkt(v2.EventDequeue, v2.KindData, sw, 0, 84, 1048, false),  // switch hop
		pkt(v2.EventDequeue, v2.KindData, sw, 0, 250, 3144, true),  // switch hop, marked
		pkt(v2.EventDrop, v2.KindData, sw, 0, 0, 0, false),         // dropped
		pkt(v2.EventDeliver, v2.KindData, 1, 0, 0, 0, true),        // delivered CE
		pkt(v2.EventDeliver, v2.KindData, 1, 0, 0, 0, false),       // delivered
		pkt(v2.EventDequeue, v2.KindAck, 1, 1, 0, 0, false),        // control: not a data send
		pkt(v2.EventDequeue, v2.KindAck, sw, 1, 5000, 0, false),    // control hop: not in the histogram
		pkt(v2.EventDrop, v2.KindCNP, sw, 1, 0, 0, false),          // dropped control packet
		pkt(v2.EventDeliver, v2.KindPause, sw+1, -1, 0, 0, false),  // not data
		pkt(v2.EventDequeue, v2.KindData, sw, 0, 4000, 900, false), // switch hop
	}
	a := NewPacketAccumulator()
	for i := range rows {
		if err := a.Add(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	s := a.Stats()
	if s.Rows != 12 || s.DataSentPkts != 2 || s.DataDeliveredPkts != 2 || s.CEDeliveredPkts != 1 ||
		s.DropsPkts != 2 || s.DropsBytes != 2*1048 || s.DropsByKind[v2.KindData] != 1 || s.DropsByKind[v2.KindCNP] != 1 ||
		s.RowsByKind[v2.KindData] != 8 || s.RowsByKind[v2.KindAck] != 2 || s.FirstNs != 100 || s.LastNs != 5100 {
		t.Errorf("counts: %+v", s)
	}
	d := s.SwitchQueueDelayNs
	if d.N != 3 || d.P50 != 250 || d.Max != 4000 || d.Mean != float64(84+250+4000)/3 || s.SwitchQDepthBytes.Max != 3144 {
		t.Errorf("switch hops: delay %+v depth %+v", d, s.SwitchQDepthBytes)
	}

	// Checks against a summary of the same run (exact).
	sum := Summary{DataPktsSent: 2, CEPkts: 1, DropsPkts: 2, DropsBytes: 2 * 1048}
	if d := CheckPackets(s, sum, true); len(d) != 0 {
		t.Errorf("consistent: %v", d)
	}
	sum.CEPkts, sum.DropsBytes = 3, 0
	if d := CheckPackets(s, sum, true); len(d) != 2 || !strings.Contains(d[0], "ce_pkts") || !strings.Contains(d[1], "drops_bytes") {
		t.Errorf("inconsistent: %v", d)
	}
	// A data-only log may miss dropped control packets, never have more.
	sum = Summary{DataPktsSent: 2, CEPkts: 1, DropsPkts: 5}
	if d := CheckPackets(s, sum, false); len(d) != 0 {
		t.Errorf("data log: %v", d)
	}
	sum.DropsPkts = 1
	if d := CheckPackets(s, sum, false); len(d) != 1 {
		t.Errorf("data log with more drops than the ports: %v", d)
	}

	// Bad rows are errors naming the column.
	bad := pkt("enqueue", v2.KindData, 0, 0, 0, 0, false)
	if err := a.Add(&bad); err == nil || !strings.Contains(err.Error(), `event: unknown value "enqueue"`) {
		t.Errorf("unknown event: %v", err)
	}
	bad = pkt(v2.EventDequeue, v2.KindData, sw, 0, -5, 0, false)
	if err := a.Add(&bad); err == nil || !strings.Contains(err.Error(), "queue_delay_ns: negative value -5") {
		t.Errorf("negative delay: %v", err)
	}
	b := NewPacketAccumulator()
	var err error
	for i := 0; i <= maxKinds && err == nil; i++ {
		r := pkt(v2.EventDeliver, string(rune('A'+i)), 0, 0, 0, 0, false)
		err = b.Add(&r)
	}
	if err == nil || !strings.Contains(err.Error(), "kind: more than") {
		t.Errorf("too many kinds: %v", err)
	}
}

func TestDiffAndFields(t *testing.T) {
	a := Summary{Flows: 3, FCTP99Ns: 1000, SlowdownP99: 2.5, Buckets: []Bucket{{Flows: 1, SlowdownP99: 1.5}}}
	b := a
	b.Buckets = []Bucket{{Flows: 1, SlowdownP99: 1.5}}
	if d := Diff(a, b, 0); len(d) != 0 {
		t.Errorf("equal: %v", d)
	}
	b.FCTP99Ns, b.SlowdownP99 = 1001, 2.5*(1+1e-13)
	b.Buckets[0].SlowdownP99 = 1.25
	d := Diff(a, b, DefaultRelTol)
	want := []string{"fct_p99_ns: 1000 vs 1001", "buckets[0].slowdown_p99: 1.5 vs 1.25"}
	if !slices.Equal(d, want) {
		t.Errorf("diff:\n got %q\nwant %q", d, want)
	}
	if d := Diff(a, b, 0); len(d) != 3 {
		t.Errorf("zero tolerance: %q", d)
	}
	b.Buckets = nil
	if d := Diff(a, b, 0); !slices.Contains(d, "buckets: 1 vs 0 entries") {
		t.Errorf("bucket count: %q", d)
	}

	fs := Fields(a)
	if fs[0] != (Field{"flows", 3}) {
		t.Errorf("first field %+v", fs[0])
	}
	for _, f := range fs {
		if f.Name == "buckets" || f.Name == "" {
			t.Errorf("field %+v", f)
		}
	}
	if i := slices.IndexFunc(fs, func(f Field) bool { return f.Name == "slowdown_p99" }); i < 0 || fs[i].Value != 2.5 {
		t.Errorf("slowdown_p99 missing or wrong")
	}
}

func TestWritePacketAndBucketTables(t *testing.T) {
	var w bytes.Buffer
	WritePacketTable(&w, PacketStats{
		Rows: 30, RowsByKind: map[string]int64{"ACK": 12, "DATA": 18, "ZZZ": 1},
		DataSentPkts: 6, DataDeliveredPkts: 6, CEDeliveredPkts: 2, DropsByKind: map[string]int64{},
		SwitchQueueDelayNs: HistStats{N: 6, Mean: 125, P50: 83, P99: 2510, Max: 2510},
	})
	for _, s := range []string{"30 (DATA 18, ACK 12, ZZZ 1)", "6 pkts, 2 CE-marked", "0 pkts, 0 B (none)",
		"switch queue delay p50    83 ns", "switch queue delay p99    2.510 us"} {
		if !strings.Contains(w.String(), s) {
			t.Errorf("packet table lacks %q:\n%s", s, w.String())
		}
	}
	w.Reset()
	WriteBucketTable(&w, []Bucket{{SizeMinBytes: 1, SizeMaxBytes: 9, Flows: 2, FlowsFinished: 2, SlowdownP99: 3}})
	if !strings.Contains(w.String(), "1-9") || !strings.Contains(w.String(), "3.00x") {
		t.Errorf("bucket table:\n%s", w.String())
	}
}
