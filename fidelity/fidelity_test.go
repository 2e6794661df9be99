package fidelity

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace"
)

// row is an fct.txt row with the fields the tests vary.
func row(src, dst, sport int, size, start, fct, sa int64) hpccfmt.FCTRow {
	return hpccfmt.FCTRow{ID: -1, Src: src, Dst: dst, SPort: sport, DPort: 100, Size: size, StartNs: start, FCTNs: fct, StandaloneNs: sa}
}

func TestMatchPortsThenStart(t *testing.T) {
	ref := []hpccfmt.FCTRow{
		row(1, 2, 10000, 1000, 100, 5000, 4000), // 0: unique ports on both sides
		row(1, 2, 10001, 2000, 200, 5000, 4000), // 1: ports duplicated on the other side -> by start
		row(3, 2, 10000, 3000, 300, 5000, 4000), // 2: other side numbered its port differently -> by start
		row(3, 2, 10005, 4000, 400, 5000, 4000), // 3: same ports, different size -> not by ports; no start match either
		row(4, 2, 10000, 5000, 500, 5000, 4000), // 4: only here
	}
	other := []hpccfmt.FCTRow{
		row(3, 2, 10009, 3000, 299, 6000, 4000), // 2, start 1 ns earlier (ns-3 truncation)
		row(1, 2, 10001, 2000, 200, 6000, 4000), // 1
		row(1, 2, 10001, 9999, 250, 6000, 4000), // duplicate key, another flow: only here
		row(1, 2, 10000, 1000, 100, 6000, 4000), // 0
		row(3, 2, 10005, 4001, 400, 6000, 4000), // 3's key, another size: only here
	}
	m := Match(ref, other, MatchOptions{})
	want := []Pair{{0, 3, ByPorts}, {1, 1, ByStart}, {2, 0, ByStart}}
	if !reflect.DeepEqual(m.Pairs, want) {
		t.Errorf("pairs = %v, want %v", m.Pairs, want)
	}
	if !reflect.DeepEqual(m.UnmatchedRef, []int{3, 4}) || !reflect.DeepEqual(m.UnmatchedOther, []int{2, 4}) {
		t.Errorf("unmatched = %v / %v, want [3 4] / [2 4]", m.UnmatchedRef, m.UnmatchedOther)
	}
	if m.StartToleranceNs != DefaultStartToleranceNs {
		t.Errorf("tolerance %d, want the default %d", m.StartToleranceNs, DefaultStartToleranceNs)
	}
	// With an exact-start tolerance the 1 ns truncation no longer matches.
	m = Match(ref, other, MatchOptions{StartToleranceNs: -1})
	if len(m.Pairs) != 2 {
		t.Errorf("tolerance 0: %d pairs, want 2: %v", len(m.Pairs), m.Pairs)
	}
}

// Duplicates of one (src, dst, size) are paired in start order; the greedy
// pass pairs all three here, where pairing each with its nearest would
// leave one out (10 is nearer to 9 than 0 is, and 0 has no other partner).
func TestMatchDuplicatesInStartOrder(t *testing.T) {
	var ref, other []hpccfmt.FCTRow
	for _, s := range []int64{0, 10, 20} {
		ref = append(ref, row(1, 2, 7, 1000, s, 100, 100))
	}
	for _, s := range []int64{29, 9, 19} { // file order need not be start order
		other = append(other, row(1, 2, 7, 1000, s, 100, 100))
	}
	m := Match(ref, other, MatchOptions{StartToleranceNs: 10})
	want := []Pair{{0, 1, ByStart}, {1, 2, ByStart}, {2, 0, ByStart}}
	if !reflect.DeepEqual(m.Pairs, want) {
		t.Errorf("pairs = %v, want %v", m.Pairs, want)
	}
	if len(m.UnmatchedRef)+len(m.UnmatchedOther) != 0 {
		t.Errorf("unmatched %v %v", m.UnmatchedRef, m.UnmatchedOther)
	}
}

func TestPercentileRules(t *testing.T) {
	vs := make([]float64, 20)
	for i := range vs {
		vs[i] = float64(i + 1)
	}
	// nearest rank: index ceil(p n) - 1; HPCC: int(n p) (20 * 0.95 is
	// 19.0 in float64, as in Python).
	got := [][2]float64{
		{nearestRank(vs, 500), hpccIndex(vs, 0.5)},
		{nearestRank(vs, 950), hpccIndex(vs, 0.95)},
		{nearestRank(vs, 990), hpccIndex(vs, 0.99)},
	}
	want := [][2]float64{{10, 11}, {19, 20}, {20, 20}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("percentiles of 1..20 = %v, want %v", got, want)
	}
	if s := summarize([]float64{3, 1, 2}, NearestRank); s != (Stats{Mean: 2, P50: 2, P95: 3, P99: 3}) {
		t.Errorf("summarize = %+v", s)
	}
	if s := summarize(nil, HPCCIndex); s != (Stats{}) {
		t.Errorf("empty summarize = %+v", s)
	}
}

func TestHPCCGroups(t *testing.T) {
	// fct_analysis.py: l = i*n/100, r = (i+step)*n/100 in integers
	// (Python 2); expected bounds computed with Python for n = 45.
	order := allOf(45)
	var got [][2]int
	for _, g := range hpccGroups(order, 5) {
		got = append(got, [2]int{g[0], g[len(g)-1] + 1})
	}
	want := [][2]int{{0, 2}, {2, 4}, {4, 6}, {6, 9}, {9, 11}, {11, 13}, {13, 15}, {15, 18}, {18, 20}, {20, 22},
		{22, 24}, {24, 27}, {27, 29}, {29, 31}, {31, 33}, {33, 36}, {36, 38}, {38, 40}, {40, 42}, {42, 45}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("groups of 45 = %v\nwant %v", got, want)
	}
	// Fewer flows than buckets: the empty groups are left out.
	if g := hpccGroups(allOf(3), 5); len(g) != 3 {
		t.Errorf("3 flows: %d groups, want 3", len(g))
	}
}

// ccreplay's buckets here are metrics.Compute's: same sizes, counts and
// slowdown percentiles on the reference side, including runs of one size
// that Compute merges.
func TestBucketsAgreeWithMetrics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 10, 33, 200} {
		var fs []FlowDiff
		var rows []v2.FlowRow
		for i := range n {
			size := int64(1000 * (1 + rng.IntN(5)))
			if i%3 == 0 {
				size = 5000 // many of one size: merged groups
			}
			fct, sa := int64(1000+rng.IntN(100000)), int64(1000+rng.IntN(5000))
			f := FlowDiff{SizeBytes: size, StartNs: int64(i), FCTRefNs: fct, StandaloneRefNs: sa, SlowdownRef: slowdown(fct, sa)}
			fs = append(fs, f)
			rows = append(rows, v2.FlowRow{FlowID: int64(i), SizeBytes: size, StartNs: int64(i), FinishNs: int64(i) + fct, FCTNs: fct, Slowdown: f.SlowdownRef})
		}
		got := bucketStats(fs, ccreplayGroups(fs, sizeOrder(fs), 10), NearestRank)
		want := metrics.Compute(rows, nil, nil, metrics.Options{Buckets: 10}).Buckets
		if len(got) != len(want) {
			t.Fatalf("n=%d: %d buckets, metrics has %d", n, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.SizeMinBytes != w.SizeMinBytes || g.SizeMaxBytes != w.SizeMaxBytes || int64(g.Flows) != w.Flows ||
				g.SlowdownRef.P50 != w.SlowdownP50 || g.SlowdownRef.P95 != w.SlowdownP95 || g.SlowdownRef.P99 != w.SlowdownP99 {
				t.Errorf("n=%d bucket %d: %+v\nmetrics: %+v", n, i, g, w)
			}
		}
	}
}

// handMade is 4 flows of standalone FCT 100 ns: the reference's FCTs 100
// to 400 ns (slowdowns 1..4), the other's twice as long, its standalone
// FCTs twice as long too (so its own slowdowns equal the reference's).
func handMade() (Side, Side) {
	var a, b Side
	a.Label, b.Label = "ref", "other"
	for i := range int64(4) {
		a.Rows = append(a.Rows, row(1, 2, 10000+int(i), 1000*(i+1), 10*i, 100*(i+1), 100))
		b.Rows = append(b.Rows, row(1, 2, 10000+int(i), 1000*(i+1), 10*i, 200*(i+1), 200))
	}
	return a, b
}

func TestCompareHandMade(t *testing.T) {
	a, b := handMade()
	r, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := r.Overall
	if o.Flows != 4 || r.Match.ByPorts != 4 || r.Match.StandaloneDiffer != 4 || r.Match.StandaloneMaxRelDiff != 1 {
		t.Errorf("match %+v, flows %d", r.Match, o.Flows)
	}
	// Slowdowns 1..4 on both sides: nearest rank p50 of 4 = 2nd, p95 and p99 = 4th.
	if want := (Stats{Mean: 2.5, P50: 2, P95: 4, P99: 4}); o.SlowdownRef != want || o.SlowdownOther != want {
		t.Errorf("slowdowns %+v / %+v, want %+v", o.SlowdownRef, o.SlowdownOther, want)
	}
	if o.SlowdownRatio != (Stats{1, 1, 1, 1}) {
		t.Errorf("slowdown ratio %+v, want 1", o.SlowdownRatio)
	}
	// Over the reference's standalone FCT the other is twice as slow.
	if o.SlowdownOtherRefStandalone != (Stats{Mean: 5, P50: 4, P95: 8, P99: 8}) || o.SlowdownRatioRefStandalone != (Stats{2, 2, 2, 2}) {
		t.Errorf("ref-standalone slowdown %+v ratio %+v", o.SlowdownOtherRefStandalone, o.SlowdownRatioRefStandalone)
	}
	if o.FCTMeanRefNs != 250 || o.FCTMeanOtherNs != 500 || o.FCTMeanRatio != 2 {
		t.Errorf("FCT means %v %v ratio %v", o.FCTMeanRefNs, o.FCTMeanOtherNs, o.FCTMeanRatio)
	}
	// Last completion: max(10 i + 100 (i+1)) - 0 = 430, and 30 + 800 = 830.
	if o.LastCompletionRefNs != 430 || o.LastCompletionOtherNs != 830 || o.LastCompletionRatio != 830.0/430 {
		t.Errorf("last completion %d %d %v", o.LastCompletionRefNs, o.LastCompletionOtherNs, o.LastCompletionRatio)
	}
	// 4 flows, step 5: HPCC groups hold one flow each; ccreplay's 10
	// buckets of 4 flows are 4 buckets of one.
	if len(r.HPCCBuckets.Buckets) != 4 || len(r.Buckets.Buckets) != 4 {
		t.Errorf("%d HPCC and %d ccreplay buckets, want 4 and 4", len(r.HPCCBuckets.Buckets), len(r.Buckets.Buckets))
	}
	if b := r.HPCCBuckets.Buckets[2]; b.SizeMinBytes != 3000 || b.Flows != 1 || b.SlowdownRef.P99 != 3 || b.SlowdownRatioRefStandalone.P50 != 2 {
		t.Errorf("HPCC bucket 2 = %+v", b)
	}
	if len(r.TopSlower) != 4 || len(r.TopFaster) != 0 || r.TopSlower[0].FCTRatio != 2 || r.TopSlower[0].Src != 1 {
		t.Errorf("top slower %+v faster %+v", r.TopSlower, r.TopFaster)
	}
}

func TestCompareClampsAndTop(t *testing.T) {
	a := Side{Rows: []hpccfmt.FCTRow{row(1, 2, 1, 10, 0, 50, 100), row(1, 2, 2, 20, 0, 100, 100), row(1, 2, 3, 30, 0, 100, 100)}}
	b := Side{Rows: []hpccfmt.FCTRow{row(1, 2, 1, 10, 0, 40, 100), row(1, 2, 2, 20, 0, 300, 100), row(1, 2, 3, 30, 0, 50, 100)}}
	r, err := Compare(a, b, Options{Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Match.ClampedRef != 1 || r.Match.ClampedOther != 2 || r.Flows[0].SlowdownRef != 1 || r.Flows[2].SlowdownOther != 1 {
		t.Errorf("clamping: %+v %+v", r.Match, r.Flows)
	}
	if len(r.TopSlower) != 1 || r.TopSlower[0].SPort != 2 || len(r.TopFaster) != 1 || r.TopFaster[0].SPort != 3 {
		t.Errorf("top: %+v / %+v", r.TopSlower, r.TopFaster)
	}
}

func TestCompareTooFewMatched(t *testing.T) {
	a, b := handMade()
	b.Rows = b.Rows[:3] // 3 of 4: 75 %
	_, err := Compare(a, b, Options{})
	var me *MatchError
	if !errors.As(err, &me) || me.Matched != 3 || !strings.Contains(err.Error(), "75.0 % of the reference's 4") {
		t.Fatalf("err = %v, want a MatchError with 3 matched", err)
	}
	if _, err := Compare(a, b, Options{MinMatch: 0.75}); err != nil {
		t.Errorf("MinMatch 0.75: %v", err)
	}
	b.Rows = []hpccfmt.FCTRow{row(9, 9, 1, 1, 1, 1, 1)}
	if _, err := Compare(a, b, Options{MinMatch: -1}); !errors.As(err, &me) {
		t.Errorf("nothing matched, any fraction accepted: err = %v, want a MatchError", err)
	}
}

func TestCheckBands(t *testing.T) {
	a, b := handMade()
	self, err := Compare(a, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if vs := Check(self, Bands{MaxOverallErr: 1e-12, MaxBucketErr: 1e-12}); len(vs) != 0 {
		t.Errorf("a side against itself: %v", vs)
	}
	r, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Slowdown ratios are 1 (the standalone FCTs doubled too); mean FCT
	// (2) and last completion (830/430) are outside 1 ± 0.05.
	vs := Check(r, Bands{MaxOverallErr: 0.05, MaxBucketErr: 0.1, MinBucketFlows: 1})
	var got []string
	for _, v := range vs {
		got = append(got, v.Where+" "+v.Metric)
	}
	if want := []string{"overall mean FCT", "overall last completion"}; !reflect.DeepEqual(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
	if !strings.Contains(vs[0].String(), "ratio 2.0000 is outside 1 ± 0.05") {
		t.Errorf("violation text %q", vs[0])
	}
	// A bucket band applies to buckets of at least MinBucketFlows flows.
	r.Buckets.Buckets[1].SlowdownRatio.P95 = 1.5
	if vs := Check(r, Bands{MaxBucketErr: 0.1, MinBucketFlows: 1}); len(vs) != 1 || vs[0].Metric != "slowdown p95" || !strings.HasPrefix(vs[0].Where, "bucket 1 (2000-2000 B, 1 flows)") {
		t.Errorf("bucket violation: %v", vs)
	}
	if vs := Check(r, Bands{MaxBucketErr: 0.1, MinBucketFlows: 2}); len(vs) != 0 {
		t.Errorf("bucket of 1 flow below MinBucketFlows 2 still checked: %v", vs)
	}
}

func TestLoadTestdata(t *testing.T) {
	a, err := Load("testdata/ns3_fct.txt", "ns-3")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load("testdata/other_fct.txt", "other")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Match
	if m.Matched != 38 || m.ByPorts != 37 || m.ByStart != 1 || m.UnmatchedRef != 1 || m.UnmatchedOther != 1 || m.StandaloneDiffer != 0 {
		t.Errorf("match %+v", m)
	}
	if len(r.HPCCBuckets.Buckets) != 20 || len(r.Buckets.Buckets) == 0 {
		t.Errorf("%d HPCC buckets, %d ccreplay buckets", len(r.HPCCBuckets.Buckets), len(r.Buckets.Buckets))
	}
	// Every field name of the JSON is the documented one (docs/VALIDATE.md).
	j, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"reference":`, `"other":`, `"match":`, `"matched":`, `"by_ports":`, `"unmatched_reference":`, `"start_tolerance_ns":`,
		`"overall":`, `"slowdown_ratio":`, `"fct_mean_ratio":`, `"last_completion_ratio":`, `"hpcc_buckets":`, `"buckets":`,
		`"size_min_bytes":`, `"top_slower":`, `"top_faster":`, `"fct_ratio":`, `"p99":`} {
		if !bytes.Contains(j, []byte(k)) {
			t.Errorf("JSON has no %s", k)
		}
	}
	var buf bytes.Buffer
	WriteTable(&buf, r)
	for _, s := range []string{"matched 38 flows: 1 of 39 reference rows, 1 of 39 other rows unmatched; 37 by (src, dst, sport, dport), 1 by (src, dst, size) and start within 10 ns",
		"slowdown p99", "HPCC buckets", "ccreplay buckets", "flows slower in the other"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("table has no %q:\n%s", s, buf.String())
		}
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "nope.txt"), "nope.txt: no such file or directory"},
		{"testdata/malformed_fct.txt", "testdata/malformed_fct.txt:2: "},
		{empty, "no finished flow"},
		{dir, "neither " + runfolder.FCTFile + " nor a ccreplay run folder"},
	} {
		_, err := Load(c.path, "x")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Load(%s) = %v, want one line with %q", c.path, err, c.want)
		}
	}
	var pe *trace.ParseError
	if _, err := Load("testdata/malformed_fct.txt", "x"); !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("malformed: %v, want a ParseError at line 2", err)
	}
}

// FromRun gives what --fct-txt writes: sender-side FCT, the simulator's
// source ports, and a multi-message flow's standalone FCT with its
// transmission term replaced by each message's.
func TestFromRun(t *testing.T) {
	flows := []v2.FlowRow{
		{FlowID: 0, Src: 1, Dst: 2, SizeBytes: 1000, Messages: 1, StandaloneNs: 4250, BottleneckBps: 100e9},
		{FlowID: 1, Src: 1, Dst: 2, SizeBytes: 3000, Messages: 2, StandaloneNs: 4160 + 3144*8/100, BottleneckBps: 100e9},
	}
	msgs := []v2.MessageRow{
		{MsgID: 0, FlowID: 0, Src: 1, Dst: 2, SizeBytes: 1000, ReleaseNs: 10, SenderDoneNs: 5010},
		{MsgID: 1, FlowID: 1, Src: 1, Dst: 2, SizeBytes: 1000, ReleaseNs: 20, SenderDoneNs: -1}, // unfinished: takes a port, no row
		{MsgID: 2, FlowID: 1, Src: 1, Dst: 2, SizeBytes: 2000, ReleaseNs: 30, SenderDoneNs: 9030},
	}
	rows, note := FromRun(msgs, flows, 1000, 48)
	want := []hpccfmt.FCTRow{
		{ID: -1, Src: 1, Dst: 2, SPort: 10000, DPort: 100, Size: 1000, StartNs: 10, FCTNs: 5000, StandaloneNs: 4250},
		{ID: -1, Src: 1, Dst: 2, SPort: 10002, DPort: 100, Size: 2000, StartNs: 30, FCTNs: 9000, StandaloneNs: 4160 + 2096*8/100},
	}
	if !reflect.DeepEqual(rows, want) || note != "" {
		t.Errorf("rows = %+v (note %q)\nwant %+v", rows, note, want)
	}
	if _, note := FromRun(msgs, flows, 0, 0); !strings.Contains(note, "1 messages of multi-message flows keep their flow's standalone FCT") {
		t.Errorf("note without payload sizes: %q", note)
	}
}

// The shared ns-3 reference runs: each fct.txt against itself gives ratios
// of exactly 1, and runs of one flow file under two algorithms match every
// flow by ports.
func TestNS3Reference(t *testing.T) {
	root := "../../shared/data/ns3_reference/runs"
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared ns-3 reference data absent (%v)", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*"))
	for _, d := range dirs {
		s, err := Load(d, filepath.Base(d))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compare(s, s, Options{})
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if vs := Check(r, Bands{MaxOverallErr: 1e-15, MaxBucketErr: 1e-15}); len(vs) != 0 || r.Match.Matched != len(s.Rows) {
			t.Errorf("%s against itself: %d of %d matched, %v", d, r.Match.Matched, len(s.Rows), vs)
		}
	}
	a, errA := Load(filepath.Join(root, "ws16_hpcc"), "hpcc")
	b, errB := Load(filepath.Join(root, "ws16_dcqcn"), "dcqcn")
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	r, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Match.Matched != len(a.Rows) || r.Match.ByPorts != len(a.Rows) || r.Match.StandaloneDiffer != 0 {
		t.Errorf("ws16 hpcc vs dcqcn: %+v", r.Match)
	}
	if math.Abs(r.Overall.LastCompletionRatio-1) > 0.5 {
		t.Errorf("last completion ratio %v", r.Overall.LastCompletionRatio)
	}
}

// FuzzCompare feeds two arbitrary fct.txt texts through the reader, Match
// and Compare: nothing panics, pairs are one to one, counts add up and
// no number in the report is NaN or Inf.
func FuzzCompare(f *testing.F) {
	a, _ := os.ReadFile("testdata/ns3_fct.txt")
	b, _ := os.ReadFile("testdata/other_fct.txt")
	f.Add(a, b, int64(10))
	f.Add([]byte("0b000101 0b000201 10000 100 1000 5 0 0\n"), []byte("0b000101 0b000201 10000 100 1000 5 0 0\n0b000101 0b000201 10000 100 1000 5 1 0\n"), int64(0))
	f.Fuzz(func(t *testing.T, x, y []byte, tol int64) {
		ra, err1 := hpccfmt.ReadFCT(bytes.NewReader(x), "a")
		rb, err2 := hpccfmt.ReadFCT(bytes.NewReader(y), "b")
		if err1 != nil || err2 != nil {
			return
		}
		m := Match(ra, rb, MatchOptions{StartToleranceNs: tol})
		seenA, seenB := map[int]bool{}, map[int]bool{}
		for _, p := range m.Pairs {
			if seenA[p.Ref] || seenB[p.Other] {
				t.Fatalf("pair %v not one to one", p)
			}
			seenA[p.Ref], seenB[p.Other] = true, true
			if ra[p.Ref].Src != rb[p.Other].Src || ra[p.Ref].Dst != rb[p.Other].Dst || ra[p.Ref].Size != rb[p.Other].Size {
				t.Fatalf("pair %v joins different flows", p)
			}
		}
		if len(m.Pairs)+len(m.UnmatchedRef) != len(ra) || len(m.Pairs)+len(m.UnmatchedOther) != len(rb) {
			t.Fatalf("counts: %d pairs, %d+%d unmatched of %d and %d", len(m.Pairs), len(m.UnmatchedRef), len(m.UnmatchedOther), len(ra), len(rb))
		}
		r, err := Compare(Side{Rows: ra}, Side{Rows: rb}, Options{MinMatch: -1, Match: MatchOptions{StartToleranceNs: tol}})
		if err != nil {
			return
		}
		if _, err := json.Marshal(r); err != nil { // fails on NaN and Inf
			t.Fatal(err)
		}
		WriteTable(&bytes.Buffer{}, r)
	})
}
