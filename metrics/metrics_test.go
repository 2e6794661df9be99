package metrics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Hand-computed fixture. Three finished flows with goodputs 8, 8 and 4 Gb/s
// and one unfinished flow; five messages in two collectives (one
// unfinished) and one lone message; three switch ports and one host port
// over a 10 us run.
func fixtureFlows() []v2.FlowRow {
	return []v2.FlowRow{
		// size*8/fct = 8000 b / 1000 ns = 8 Gb/s
		{FlowID: 10, SizeBytes: 1000, StartNs: 0, FinishNs: 1000, FCTNs: 1000, Slowdown: 2,
			DataPktsSent: 1},
		// 16000 b / 2000 ns = 8 Gb/s
		{FlowID: 11, SizeBytes: 2000, StartNs: 500, FinishNs: 2500, FCTNs: 2000, Slowdown: 4,
			DataPktsSent: 2, CEPkts: 1, CNPs: 3, Nacks: 1, RetxBytes: 1000},
		// 32000 b / 8000 ns = 4 Gb/s
		{FlowID: 12, SizeBytes: 4000, StartNs: 1000, FinishNs: 9000, FCTNs: 8000, Slowdown: 1,
			DataPktsSent: 4, CEPkts: 1, CNPs: 1, Timeouts: 1},
		// unfinished: counted, its counters summed, no FCT
		{FlowID: 13, SizeBytes: 500, StartNs: 200, FinishNs: -1, FCTNs: -1,
			DataPktsSent: 3, CEPkts: 2, CNPs: 2},
	}
}

func fixtureMsgs() []v2.MessageRow {
	return []v2.MessageRow{
		{MsgID: 0, CollectiveID: 7, ReleaseNs: 0, FinishNs: 600, MCTNs: 600},
		{MsgID: 1, CollectiveID: 7, ReleaseNs: 100, FinishNs: 1100, MCTNs: 1000},
		{MsgID: 2, CollectiveID: 8, ReleaseNs: 50, FinishNs: -1, MCTNs: -1},
		{MsgID: 3, CollectiveID: -1, ReleaseNs: 0, FinishNs: 300, MCTNs: 300},
		{MsgID: 4, CollectiveID: 8, ReleaseNs: 20, FinishNs: 500, MCTNs: 480},
	}
}

func fixturePorts() []v2.PortRow {
	const dur = 10_000 // ns
	return []v2.PortRow{
		// 6250 B * 8 / (10 Gb/s * 10 us) = 50000 / 100000 = 0.5
		{Node: 100, Port: 0, IsSwitch: true, RateBps: 10e9, SimDurationNs: dur, TxBytes: 6250,
			DroppedPkts: 2, DroppedBytes: 2000, PausedNs: 1000, PausesSent: 1, MarkedPkts: 3,
			QLenAvgBytes: 100.5, QLenP99Bytes: 400, QLenMaxBytes: 900},
		// 12500 B * 8 / 100000 b = 1.0
		{Node: 100, Port: 1, IsSwitch: true, RateBps: 10e9, SimDurationNs: dur, TxBytes: 12500,
			MarkedPkts: 2, QLenAvgBytes: 300.25, QLenP99Bytes: 200, QLenMaxBytes: 1000},
		// idle switch port: no utilization sample, but its queue counts
		{Node: 100, Port: 2, IsSwitch: true, RateBps: 10e9, SimDurationNs: dur,
			QLenAvgBytes: 5, QLenP99Bytes: 5000, QLenMaxBytes: 10},
		// host port: counts for drops and PFC, not for switch util or queues
		{Node: 1, Port: 0, RateBps: 10e9, SimDurationNs: dur, TxBytes: 12500,
			DroppedPkts: 1, DroppedBytes: 100, PausedNs: 4000, PausesSent: 2,
			QLenAvgBytes: 99999, QLenP99Bytes: 99999, QLenMaxBytes: 99999},
	}
}

func fixtureWant() Summary {
	return Summary{
		Flows: 4, FlowsFinished: 3,
		Messages: 5, MessagesFinished: 4,
		Collectives: 2, CollectivesFinished: 1,
		SimDurationNs: 10_000,

		// FCTs {1000, 2000, 8000}; nearest rank ceil(p*3)-1: p50 -> 1, p90 -> 2.
		FCTMeanNs: 11000.0 / 3, FCTP50Ns: 2000, FCTP90Ns: 8000, FCTP95Ns: 8000,
		FCTP99Ns: 8000, FCTP999Ns: 8000, FCTMaxNs: 8000,
		// slowdowns {2, 4, 1} -> sorted {1, 2, 4}; mean 7/3.
		SlowdownMean: 7.0 / 3, SlowdownP50: 2, SlowdownP90: 4, SlowdownP95: 4,
		SlowdownP99: 4, SlowdownP999: 4, SlowdownMax: 4,
		// MCTs {600, 1000, 300, 480} -> sorted {300, 480, 600, 1000}; mean 2380/4.
		// p50: ceil(2)-1 = 1 -> 480; p90: ceil(3.6)-1 = 3 -> 1000.
		MCTMeanNs: 595, MCTP50Ns: 480, MCTP90Ns: 1000, MCTP95Ns: 1000,
		MCTP99Ns: 1000, MCTP999Ns: 1000, MCTMaxNs: 1000,
		// collective 7: last finish 1100 - first release 0; 8 is unfinished.
		CCTMeanNs: 1100, CCTP50Ns: 1100, CCTP90Ns: 1100, CCTP95Ns: 1100,
		CCTP99Ns: 1100, CCTP999Ns: 1100, CCTMaxNs: 1100,

		// sorted by size: 13 (500, unfinished), 10 (1000) | 11 (2000), 12 (4000)
		Buckets: []Bucket{
			{SizeMinBytes: 500, SizeMaxBytes: 1000, Flows: 2, FlowsFinished: 1,
				FCTP50Ns: 1000, FCTP95Ns: 1000, FCTP99Ns: 1000,
				SlowdownP50: 2, SlowdownP95: 2, SlowdownP99: 2},
			{SizeMinBytes: 2000, SizeMaxBytes: 4000, Flows: 2, FlowsFinished: 2,
				FCTP50Ns: 2000, FCTP95Ns: 8000, FCTP99Ns: 8000,
				SlowdownP50: 1, SlowdownP95: 4, SlowdownP99: 4},
		},

		DataPktsSent: 10, CEPkts: 4,
		ECNRatio: 0.4, // Dolce-RC: ECN ratio = CE-marked / sent = 4/10
		CNPs:     6, Nacks: 1, Timeouts: 1, RetxBytes: 1000,
		DropsPkts: 3, DropsBytes: 2100,

		// x = {8, 8, 4} Gb/s, mean 20/3.
		// FDCC thesis: unfair ratio = (BWmax-BWavg)/BWavg = (8-20/3)/(20/3) = 0.2
		UnfairRatio: 0.2,
		// Jain: (Σx)^2/(n Σx^2) = 400/(3*144)
		JainIndex: 400.0 / 432,
		// PCC-RL: fairness = min rate / max rate = 4/8
		MinMaxRateRatio: 0.5,
		// (1000+2000+4000)*8 b / (9000 - 0) ns
		GoodputBps:     56000.0 / 9000 * 1e9,
		GoodputMeanBps: 20e9 / 3,

		SwitchUtilMax: 1, SwitchUtilMean: 0.75, // ports 0.5 and 1.0; idle port excluded
		QLenAvgBytes: 300.25, QLenP99Bytes: 5000, QLenMaxBytes: 1000,
		// Σ paused / (ports * duration) = 5000 / (4 * 10000); worst port 4000/10000
		PFCPauseFraction: 0.125, PFCPauseFractionMax: 0.4,
		PauseFrames:   3,
		ECNMarkedPkts: 5,
	}
}

// checkSummary compares every field, integers exactly and floats to a
// relative 1e-12, naming the JSON field of a mismatch.
func checkSummary(t *testing.T, got, want Summary) {
	t.Helper()
	compareStruct(t, "", reflect.ValueOf(got), reflect.ValueOf(want))
}

func compareStruct(t *testing.T, prefix string, got, want reflect.Value) {
	t.Helper()
	typ := got.Type()
	for i := range typ.NumField() {
		name := prefix + strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
		g, w := got.Field(i), want.Field(i)
		switch g.Kind() {
		case reflect.Float64:
			if !closeTo(g.Float(), w.Float()) {
				t.Errorf("%s = %v, want %v", name, g.Float(), w.Float())
			}
		case reflect.Int64:
			if g.Int() != w.Int() {
				t.Errorf("%s = %d, want %d", name, g.Int(), w.Int())
			}
		case reflect.Slice:
			if g.Len() != w.Len() {
				t.Errorf("%s: %d entries, want %d", name, g.Len(), w.Len())
				continue
			}
			for j := range g.Len() {
				compareStruct(t, name+"["+string(rune('0'+j))+"].", g.Index(j), w.Index(j))
			}
		default:
			t.Fatalf("%s: unexpected kind %v", name, g.Kind())
		}
	}
}

func closeTo(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

func TestComputeFixture(t *testing.T) {
	flows, msgs, ports := fixtureFlows(), fixtureMsgs(), fixturePorts()
	got := Compute(flows, msgs, ports, Options{Buckets: 2})
	checkSummary(t, got, fixtureWant())

	// The inputs are not modified (Compute sorts copies).
	if !reflect.DeepEqual(flows, fixtureFlows()) || !reflect.DeepEqual(msgs, fixtureMsgs()) ||
		!reflect.DeepEqual(ports, fixturePorts()) {
		t.Error("Compute modified its inputs")
	}
	// Pure: the same rows give the same summary, bit for bit.
	if again := Compute(flows, msgs, ports, Options{Buckets: 2}); !reflect.DeepEqual(got, again) {
		t.Error("two calls on the same rows differ")
	}
	// Compute makes room for the rows first (Grow); an Accumulator given
	// them one at a time without it, or told too few, sums the same.
	for _, grow := range []int{-1, 0, 1} {
		a := NewAccumulator(Options{Buckets: 2})
		if grow >= 0 {
			a.Grow(grow, grow)
		}
		for i := range flows {
			a.AddFlow(&flows[i])
		}
		for i := range msgs {
			a.AddMessage(&msgs[i])
		}
		if s := a.Summary(ports); !reflect.DeepEqual(got, s) {
			t.Errorf("Accumulator (Grow %d) and Compute differ", grow)
		}
	}
}

func TestSimDurationWithoutPorts(t *testing.T) {
	// Without ports the run ends at the last finish of a flow (9000) or a
	// message (1100).
	s := Compute(fixtureFlows(), fixtureMsgs(), nil, Options{})
	if s.SimDurationNs != 9000 {
		t.Errorf("sim_duration_ns = %d, want 9000", s.SimDurationNs)
	}
}

func TestRank(t *testing.T) {
	// Nearest rank: index = ceil(p*n) - 1, clamped to [0, n-1].
	for _, c := range []struct{ n, perMille, want int }{
		{0, p50, 0}, // no values: clamped (percentile returns 0)
		{1, 0, 0}, {1, p50, 0}, {1, p999, 0},
		{2, p50, 0}, // ceil(1.0) - 1
		{2, 501, 1}, // ceil(1.002) - 1
		{2, p90, 1}, {2, p999, 1},
		{3, p50, 1}, // ceil(1.5) - 1
		{10, p50, 4}, {10, p90, 8}, {10, p95, 9}, {10, p999, 9},
		{100, p99, 98}, {100, p999, 99},
		{1000, p99, 989}, {1000, p999, 998},
		{1001, p999, 999}, // ceil(999.999) - 1
		{2000, p999, 1997},
		{5, 1000, 4}, {5, 0, 0},
	} {
		if got := rank(c.n, c.perMille); got != c.want {
			t.Errorf("rank(n=%d, p=%d/1000) = %d, want %d", c.n, c.perMille, got, c.want)
		}
	}
}

func TestPercentileSmall(t *testing.T) {
	if got := percentile([]int64{}, p99); got != 0 {
		t.Errorf("empty p99 = %d", got)
	}
	one := []int64{42}
	for _, p := range []int{p50, p90, p95, p99, p999} {
		if got := percentile(one, p); got != 42 {
			t.Errorf("n=1 p%d = %d, want 42", p, got)
		}
	}
	two := []int64{10, 20}
	if got := percentile(two, p50); got != 10 {
		t.Errorf("n=2 p50 = %d, want 10 (nearest rank, no interpolation)", got)
	}
	if got := percentile(two, p999); got != 20 {
		t.Errorf("n=2 p99.9 = %d, want 20", got)
	}
	// 1..1000: p99.9 is the 999th value, p99 the 990th.
	vs := make([]int64, 1000)
	for i := range vs {
		vs[i] = int64(i + 1)
	}
	st := summary(vs)
	if st.p999 != 999 || st.p99 != 990 || st.p50 != 500 || st.max != 1000 || st.mean != 500.5 {
		t.Errorf("1..1000: %+v", st)
	}
}

func TestFairness(t *testing.T) {
	cases := []struct {
		name                 string
		x                    []float64
		unfair, jain, minmax float64
	}{
		{"empty", nil, 0, 0, 0},
		{"all zero", []float64{0, 0}, 0, 0, 0},
		{"one flow", []float64{5}, 0, 1, 1},
		{"equal", []float64{3, 3, 3, 3}, 0, 1, 1},
		// FDCC thesis: unfair = (BWmax-BWavg)/BWavg = (3-1.5)/1.5;
		// Jain = 6^2/(4*(9+1+1+1)) = 36/48; PCC-RL min/max = 1/3.
		{"one hog", []float64{3, 1, 1, 1}, 1, 0.75, 1.0 / 3},
		// one flow starved: Jain = 1/n, min/max = 0, unfair = (4-2)/2
		{"starved", []float64{4, 0}, 1, 0.5, 0},
	}
	for _, c := range cases {
		if got := unfairRatio(c.x); !closeTo(got, c.unfair) {
			t.Errorf("%s: unfair ratio = %v, want %v", c.name, got, c.unfair)
		}
		if got := jainIndex(c.x); !closeTo(got, c.jain) {
			t.Errorf("%s: Jain = %v, want %v", c.name, got, c.jain)
		}
		if got := minMaxRatio(c.x); !closeTo(got, c.minmax) {
			t.Errorf("%s: min/max = %v, want %v", c.name, got, c.minmax)
		}
	}
}

// Groups holding one and the same size are merged: a workload of equal
// flows has one bucket (the table once printed ten identical rows), two
// sizes give two, and a group spanning two sizes stays apart.
func TestBucketsMergeIdenticalSizes(t *testing.T) {
	mk := func(sizes ...int64) []v2.FlowRow {
		var fl []v2.FlowRow
		for i, s := range sizes {
			fl = append(fl, v2.FlowRow{FlowID: int64(i), SizeBytes: s, FinishNs: 10, FCTNs: 10, Slowdown: 1})
		}
		return fl
	}
	ranges := func(bs []Bucket) []string {
		var out []string
		for _, b := range bs {
			out = append(out, fmt.Sprintf("%d-%d:%d", b.SizeMinBytes, b.SizeMaxBytes, b.Flows))
		}
		return out
	}
	same := make([]int64, 20)
	for i := range same {
		same[i] = 1_000_000
	}
	two := append(slices.Repeat([]int64{100}, 10), slices.Repeat([]int64{200}, 10)...)
	mixed := append(slices.Repeat([]int64{100}, 15), slices.Repeat([]int64{200}, 5)...)
	for _, tc := range []struct {
		sizes []int64
		want  []string
	}{
		{same, []string{"1000000-1000000:20"}},
		{two, []string{"100-100:10", "200-200:10"}},
		// Groups of 2: 100x7 groups, then {100,200} spans both, then 200x2.
		{mixed, []string{"100-100:14", "100-200:2", "200-200:4"}},
	} {
		if got := ranges(Compute(mk(tc.sizes...), nil, nil, Options{}).Buckets); !slices.Equal(got, tc.want) {
			t.Errorf("sizes %v: buckets %v, want %v", tc.sizes, got, tc.want)
		}
	}
}

func TestBucketsSplit(t *testing.T) {
	// 10 flows into 3 buckets: 4, 3, 3 (the last ones have one fewer).
	// Sizes tie, so flow_id decides the order: ids are given shuffled.
	ids := []int64{9, 2, 7, 0, 5, 1, 8, 3, 6, 4}
	var flows []v2.FlowRow
	for _, id := range ids {
		flows = append(flows, v2.FlowRow{
			FlowID: id, SizeBytes: 100 * (id / 5), // 0 for ids 0-4, 100 for 5-9
			StartNs: 0, FinishNs: 10 * (id + 1), FCTNs: 10 * (id + 1), Slowdown: float64(id + 1),
		})
	}
	flows[0].FinishNs, flows[0].FCTNs = -1, -1 // id 9 unfinished
	got := Compute(flows, nil, nil, Options{Buckets: 3}).Buckets
	want := []Bucket{
		// ids 0,1,2,3: FCTs {10,20,30,40}: p50 ceil(2)-1=1 -> 20; p95, p99 -> 40
		{SizeMinBytes: 0, SizeMaxBytes: 0, Flows: 4, FlowsFinished: 4,
			FCTP50Ns: 20, FCTP95Ns: 40, FCTP99Ns: 40, SlowdownP50: 2, SlowdownP95: 4, SlowdownP99: 4},
		// ids 4,5,6: FCTs {50,60,70}
		{SizeMinBytes: 0, SizeMaxBytes: 100, Flows: 3, FlowsFinished: 3,
			FCTP50Ns: 60, FCTP95Ns: 70, FCTP99Ns: 70, SlowdownP50: 6, SlowdownP95: 7, SlowdownP99: 7},
		// ids 7,8,9 (9 unfinished): FCTs {80,90}
		{SizeMinBytes: 100, SizeMaxBytes: 100, Flows: 3, FlowsFinished: 2,
			FCTP50Ns: 80, FCTP95Ns: 90, FCTP99Ns: 90, SlowdownP50: 8, SlowdownP95: 9, SlowdownP99: 9},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("buckets:\n got %+v\nwant %+v", got, want)
	}

	// Fewer flows than buckets: one bucket per flow. Default count is 10.
	three := []v2.FlowRow{{FlowID: 0, SizeBytes: 1}, {FlowID: 1, SizeBytes: 2}, {FlowID: 2, SizeBytes: 3}}
	if b := Compute(three, nil, nil, Options{}).Buckets; len(b) != 3 {
		t.Errorf("3 flows, 10 buckets: got %d buckets", len(b))
	}
	many := make([]v2.FlowRow, 25)
	for i := range many {
		many[i] = v2.FlowRow{FlowID: int64(i), SizeBytes: int64(i), FinishNs: -1}
	}
	var counts []int64
	for _, b := range Compute(many, nil, nil, Options{}).Buckets {
		counts = append(counts, b.Flows)
	}
	if want := []int64{3, 3, 3, 3, 3, 2, 2, 2, 2, 2}; !slices.Equal(counts, want) {
		t.Errorf("25 flows in 10 buckets: %v, want %v", counts, want)
	}
}

// allFinite reports the first NaN or Inf float in v (a struct or slice).
func allFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float64:
		if !isFinite(v.Float()) {
			return path
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if p := allFinite(v.Field(i), path+"."+v.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if p := allFinite(v.Index(i), path); p != "" {
				return p
			}
		}
	}
	return ""
}

func TestNoNaN(t *testing.T) {
	inf := math.Inf(1)
	cases := map[string]struct {
		flows []v2.FlowRow
		msgs  []v2.MessageRow
		ports []v2.PortRow
	}{
		"empty": {},
		"degenerate": {
			flows: []v2.FlowRow{
				{FlowID: 1, SizeBytes: 0, StartNs: 5, FinishNs: 5, FCTNs: 0, Slowdown: math.NaN()},
				{FlowID: 2, SizeBytes: 10, StartNs: 5, FinishNs: 5, FCTNs: 0, Slowdown: inf},
				{FlowID: 3, FinishNs: -1, FCTNs: -1},
			},
			msgs: []v2.MessageRow{{CollectiveID: 1, FinishNs: -1, MCTNs: -1}},
			ports: []v2.PortRow{
				{IsSwitch: true, TxBytes: 10, RateBps: 0, SimDurationNs: 0, QLenAvgBytes: math.NaN()},
				{IsSwitch: false, PausedNs: 10, SimDurationNs: 0},
			},
		},
	}
	for name, c := range cases {
		s := Compute(c.flows, c.msgs, c.ports, Options{})
		if p := allFinite(reflect.ValueOf(s), "Summary"); p != "" {
			t.Errorf("%s: %s is not finite", name, p)
		}
		if _, err := json.Marshal(s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Empty inputs: all zeros and an empty (not null) bucket list.
	s := Compute(nil, nil, nil, Options{})
	if !reflect.DeepEqual(s, Summary{Buckets: []Bucket{}}) {
		t.Errorf("empty inputs: %+v", s)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"buckets":[]`) {
		t.Errorf("empty buckets marshal as %s", b)
	}
}

func TestJSONNames(t *testing.T) {
	b, err := json.Marshal(Compute(fixtureFlows(), fixtureMsgs(), fixturePorts(), Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	var want []string
	for _, stat := range []string{"mean", "p50", "p90", "p95", "p99", "p999", "max"} {
		want = append(want, "fct_"+stat+"_ns", "slowdown_"+stat, "mct_"+stat+"_ns")
	}
	want = append(want, "flows", "flows_finished", "messages", "messages_finished",
		"sim_duration_ns", "buckets", "data_pkts_sent", "ce_pkts", "ecn_ratio", "cnps",
		"nacks", "timeouts", "retx_bytes", "drops_pkts", "drops_bytes", "unfair_ratio",
		"jain_index", "min_max_rate_ratio", "goodput_bps", "goodput_mean_bps",
		"switch_util_max", "switch_util_mean", "qlen_avg_bytes", "qlen_p99_bytes",
		"qlen_max_bytes", "pfc_pause_fraction", "pfc_pause_fraction_max", "pause_frames",
		"ecn_marked_pkts", "slowdown_standalone_mean", "slowdown_standalone_p50",
		"slowdown_standalone_p99", "goodput_norm", "pfc_paused_frac_mean")
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("summary JSON has no %q", k)
		}
	}
	bucket := m["buckets"].([]any)[0].(map[string]any)
	for _, k := range []string{"size_min_bytes", "size_max_bytes", "flows", "fct_p50_ns",
		"fct_p95_ns", "fct_p99_ns", "slowdown_p50", "slowdown_p95", "slowdown_p99"} {
		if _, ok := bucket[k]; !ok {
			t.Errorf("bucket JSON has no %q", k)
		}
	}
}

func TestWriteTable(t *testing.T) {
	var buf bytes.Buffer
	WriteTable(&buf, Compute(fixtureFlows(), fixtureMsgs(), fixturePorts(), Options{Buckets: 2}))
	out := buf.String()
	for _, want := range []string{
		"flows                    3 of 4 finished\n",
		"FCT p99                  8.000 us\n",
		"FCT mean                 3.667 us\n",
		"MCT p50                  480 ns\n",
		"slowdown mean            2.33x\n",
		"ECN ratio                40.00 %\n",
		"goodput (aggregate)      6.222 Gb/s\n",
		"unfair ratio             0.2000\n",
		"switch util mean         75.00 %\n",
		"queue p99 (worst port)   4.883 KiB\n",
		"PFC paused (all ports)   12.50 %\n",
		"PFC paused (flow mean)   0.00 %\n",
		"FCT/standalone p99       0.00x\n",
		"goodput / receiver link  n/a (needs one receiver and a finished flow)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	// Bucket table: a header and one right-aligned line per bucket.
	for _, want := range []string{
		"flow size (bytes)  flows  finished   FCT p50   FCT p95   FCT p99  slowdown p50    p95    p99\n",
		"         500-1000      2         1  1.000 us  1.000 us  1.000 us         2.00x  2.00x  2.00x\n",
		"        2000-4000      2         2  2.000 us  8.000 us  8.000 us         1.00x  4.00x  4.00x\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("bucket table lacks %q:\n%s", want, out)
		}
	}
	if testing.Verbose() {
		t.Log("\n" + out)
	}
}

func TestFormatUnits(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Format(1_342_000, UnitNs), "1.342 ms"}, {Format(93.75e9, UnitBps), "93.750 Gb/s"},
		{Format(1536, UnitBytes), "1.500 KiB"}, {Format(math.NaN(), UnitNs), "n/a"},
		{fmtPct(0.1234), "12.34 %"}, {fmtX(3.214), "3.21x"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
