package plot

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// fixture is a run folder written the way replay writes one.
type fixture struct {
	cca      string
	seed     uint64
	trace    string
	endNs    int64
	flows    []v2.FlowRow
	messages []v2.MessageRow
	ports    []v2.PortRow
	packets  []v2.PacketRow // written when not nil
}

// write puts the fixture's files into dir.
func (f fixture) write(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	m := runfolder.Manifest{SchemaVersion: v2.Version, CCA: f.cca, Seed: f.seed, Trace: f.trace, SimEndNs: f.endNs}
	m.Config.MTUPayloadBytes, m.Config.HeaderBytes = 1000, 48
	must(t, runfolder.Write(dir, &m))
	must(t, output.WriteRows(filepath.Join(dir, runfolder.FlowsFile), f.flows))
	must(t, output.WriteRows(filepath.Join(dir, runfolder.MessagesFile), f.messages))
	must(t, output.WriteRows(filepath.Join(dir, runfolder.PortsFile), f.ports))
	if f.packets != nil {
		must(t, output.WriteRows(filepath.Join(dir, runfolder.PacketsFile), f.packets))
	}
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// flow is a finished flow of size bytes, started at start and taking fct
// ns, whose ideal FCT is ideal ns.
func flow(id, size, start, fct, ideal int64) v2.FlowRow {
	return v2.FlowRow{FlowID: id, Src: int32(id % 4), Dst: 4, SizeBytes: size, StartNs: start, FinishNs: start + fct,
		FCTNs: fct, IdealFCTNs: ideal, Slowdown: float64(fct) / float64(ideal)}
}

func unfinished(id, size int64) v2.FlowRow {
	return v2.FlowRow{FlowID: id, SizeBytes: size, FinishNs: -1, FCTNs: -1}
}

func load(t *testing.T, dirs ...string) []*Run {
	t.Helper()
	runs, err := LoadRuns(dirs)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// DESIGN.md "Metric definitions": FCT = last byte delivered - first
// release; the CDF counts finished flows only and ends at exactly 1.
func TestFCTCDF(t *testing.T) {
	dir := t.TempDir()
	a := fixture{cca: "dcqcn:zhu2015", seed: 1, flows: []v2.FlowRow{
		flow(1, 1000, 0, 3000, 1000), flow(2, 1000, 0, 1000, 1000), flow(3, 1000, 0, 3000, 1000),
		flow(4, 1000, 0, 2000, 1000), unfinished(5, 1000),
	}}.write(t, filepath.Join(dir, "a"))
	b := fixture{cca: "hpcc:paper", seed: 1, flows: []v2.FlowRow{
		flow(1, 1000, 0, 1500, 1000), flow(2, 1000, 0, 900_000, 1000),
	}}.write(t, filepath.Join(dir, "b"))
	fig, err := FCTCDF(load(t, a, b))
	if err != nil {
		t.Fatal(err)
	}
	ss := fig.Panels[0].Series
	if len(ss) != 2 {
		t.Fatalf("%d curves, want one per run", len(ss))
	}
	// Distinct FCTs 1, 2, 3 us with 1/4, 2/4, 4/4 of the 4 finished flows.
	want := Series{Label: "dcqcn:zhu2015", X: []float64{1, 1, 2, 3}, Y: []float64{0, 0.25, 0.5, 1}}
	if !reflect.DeepEqual(ss[0], want) {
		t.Errorf("dcqcn CDF = %+v, want %+v", ss[0], want)
	}
	for _, s := range ss {
		if s.Y[len(s.Y)-1] != 1 {
			t.Errorf("%s: last point %v, want exactly 1", s.Label, s.Y[len(s.Y)-1])
		}
		for i := 1; i < len(s.X); i++ {
			if s.X[i] < s.X[i-1] || s.Y[i] < s.Y[i-1] {
				t.Errorf("%s: not monotone at point %d: %v", s.Label, i, s)
			}
		}
	}
	if len(fig.Notes) != 1 || !strings.Contains(fig.Notes[0], "1 of 5 flows unfinished") {
		t.Errorf("notes %q, want the unfinished flow counted", fig.Notes)
	}
	if !fig.LogX { // 1 us .. 900 us spans more than two decades
		t.Error("x axis not logarithmic over 1..900 us")
	}
	if ss[0].Colour == ss[1].Colour {
		t.Error("two algorithms share a colour")
	}
}

// Slowdown buckets: equal counts (first buckets one flow more), nearest
// rank percentiles as metrics.Compute (DESIGN.md "Percentiles ... per
// flow-size bucket (HPCC style: flows sorted by size into buckets of
// equal count)"; FDCC (Zhang 2023), Fig. 6.4 plots slowdown per size).
func TestSlowdownBuckets(t *testing.T) {
	var flows []v2.FlowRow
	for i := range int64(23) {
		// Sizes 1..23 KB; slowdown grows with the id.
		flows = append(flows, flow(i, (i+1)*1000, 0, 1000+100*i, 1000))
	}
	flows = append(flows, unfinished(99, 50_000))
	dir := fixture{cca: "dcqcn:zhu2015", seed: 1, flows: flows}.write(t, t.TempDir())
	runs := load(t, dir)
	fig, err := Slowdown(runs, 5)
	if err != nil {
		t.Fatal(err)
	}
	ss := fig.Panels[0].Series
	if len(ss) != 3 {
		t.Fatalf("%d series, want p50, p95 and p99", len(ss))
	}
	// 24 flows into 5 buckets: 5,5,5,5,4.
	if want := []int64{5, 5, 5, 5, 4}; !slices.Equal(ss[0].Count, want) {
		t.Errorf("bucket counts %v, want %v", ss[0].Count, want)
	}
	// Bucket 1 holds flows 0..4, slowdowns 1.0..1.4: p50 = ceil(0.5*5)-1 =
	// index 2 = 1.2; p99 = index 4 = 1.4.
	if got := ss[0].Y[0]; math.Abs(got-1.2) > 1e-12 {
		t.Errorf("bucket 1 p50 = %v, want 1.2", got)
	}
	if got := ss[2].Y[0]; math.Abs(got-1.4) > 1e-12 {
		t.Errorf("bucket 1 p99 = %v, want 1.4", got)
	}
	// The data are metrics.Compute's buckets.
	bs := metrics.Compute(runs[0].Flows, nil, nil, metrics.Options{Buckets: 5}).Buckets
	for i, b := range bs {
		if ss[1].Y[i] != b.SlowdownP95 || ss[1].X[i] != float64(i+1) {
			t.Errorf("bucket %d p95 (%v, %v), want (%d, %v)", i, ss[1].X[i], ss[1].Y[i], i+1, b.SlowdownP95)
		}
	}
	if !fig.LogY || len(fig.XTicks) != 5 || fig.XTicks[0].Label != "5KB" {
		t.Errorf("LogY %v, ticks %+v: want log y and 5 ticks starting at 5KB", fig.LogY, fig.XTicks)
	}
	if ss[0].Dash == ss[1].Dash || ss[1].Dash == ss[2].Dash {
		t.Error("percentiles share a line style")
	}
}

// packetsAt builds the dequeue rows of DATA packets: one per (t, depth).
func dequeue(node, port int32, flow int64, tNs, delayNs, depth int64, bytes int32) v2.PacketRow {
	return v2.PacketRow{TNs: tNs, Event: v2.EventDequeue, Kind: v2.KindData, Node: node, Port: port, FlowID: flow,
		Src: int32(flow), Dst: 3, Bytes: bytes, QDepthBytes: depth, QueueDelayNs: delayNs}
}

// A 2-host-to-1 fixture: hosts 0, 1, 3; switch 8 port 3 is congested.
func congestedFixture(withPackets bool) fixture {
	f := fixture{cca: "dcqcn:zhu2015", seed: 1, endNs: 1000,
		flows: []v2.FlowRow{flow(0, 5000, 0, 900, 500), flow(1, 3000, 100, 800, 400)},
		ports: []v2.PortRow{
			{Node: 0, Port: 0, PeerNode: 8, SimDurationNs: 1000},
			{Node: 1, Port: 0, PeerNode: 8, SimDurationNs: 1000},
			{Node: 8, Port: 3, IsSwitch: true, PeerNode: 3, QLenMaxBytes: 9000, SimDurationNs: 1000},
			{Node: 8, Port: 0, IsSwitch: true, PeerNode: 0, QLenMaxBytes: 60, SimDurationNs: 1000}, // ACKs only
		},
	}
	if withPackets {
		f.packets = []v2.PacketRow{
			// First hop (host NICs): bytes per bin for the rate view.
			dequeue(0, 0, 0, 50, 0, 0, 1048),
			dequeue(0, 0, 0, 60, 0, 0, 1048),
			dequeue(1, 0, 1, 150, 0, 0, 1048),
			// The congested port: enqueued at t - delay.
			dequeue(8, 3, 0, 400, 300, 2000, 1048), // enq 100 -> bin 1
			dequeue(8, 3, 1, 420, 250, 5000, 1048), // enq 170 -> bin 1
			dequeue(8, 3, 0, 700, 100, 9000, 1048), // enq 600 -> bin 6
			dequeue(8, 3, 1, 999, 0, 0, 1048),      // enq 999 -> bin 9
			{TNs: 500, Event: v2.EventDeliver, Kind: v2.KindData, Node: 3, Port: -1, QDepthBytes: 77777}, // not a dequeue
		}
	}
	return f
}

// Queue length over time: the largest qdepth_enq_bytes of the packets
// enqueued in each bin, >= 0, only congested switch ports.
func TestQueueOverTime(t *testing.T) {
	dir := congestedFixture(true).write(t, t.TempDir())
	fig, err := QueueOverTime(load(t, dir), TimeOptions{Bins: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Panels) != 1 || !strings.HasPrefix(fig.Panels[0].Title, "switch 8 port 3") {
		t.Fatalf("panels %+v, want switch 8 port 3 alone (port 0 only ever held an ACK)", fig.Panels)
	}
	s := fig.Panels[0].Series[0]
	want := []float64{0, 5, 0, 0, 0, 0, 9, 0, 0, 0} // KB per 100 ns bin
	if !slices.Equal(s.Y, want) {
		t.Errorf("queue %v, want %v", s.Y, want)
	}
	if s.X[0] != 0.05 || s.X[9] != 0.95 || fig.XLabel != "time (us)" {
		t.Errorf("x %v..%v %q, want bin centres 0.05..0.95 us", s.X[0], s.X[9], fig.XLabel)
	}
	for _, y := range s.Y {
		if y < 0 {
			t.Errorf("negative queue %v", y)
		}
	}
}

func TestQueueNeedsPackets(t *testing.T) {
	dir := congestedFixture(false).write(t, t.TempDir())
	_, err := QueueOverTime(load(t, dir), TimeOptions{})
	var sk *Skipped
	if !errors.As(err, &sk) || !strings.Contains(sk.Reason, "--packets data") {
		t.Fatalf("err = %v, want a skip telling to run with --packets data", err)
	}
}

// Rate from packets.parquet: wire bytes leaving the source NIC per bin,
// x 8 / bin width, over the flow's active bins.
func TestRateFromPackets(t *testing.T) {
	dir := congestedFixture(true).write(t, t.TempDir())
	fig, err := RateOverTime(load(t, dir), TimeOptions{Bins: 10, RateBins: 5})
	if err != nil {
		t.Fatal(err)
	}
	ss := fig.Panels[0].Series
	if len(ss) != 2 || !strings.Contains(fig.Title, runfolder.PacketsFile) {
		t.Fatalf("series %d, title %q: want both flows from "+runfolder.PacketsFile, len(ss), fig.Title)
	}
	// Flow 0 (largest first): 2 x 1048 B in bin [0, 200) ns = 83.84 Gb/s;
	// active 0..900 ns = bins 0..4.
	if want := []float64{2 * 1048 * 8 / 200.0, 0, 0, 0, 0}; !slices.Equal(ss[0].Y, want) {
		t.Errorf("flow 0 rate %v Gb/s, want %v", ss[0].Y, want)
	}
	// Flow 1 starts at 100 ns, finishes at 900 ns: bins 0..4.
	if ss[1].Y[0] != 1048*8/200.0 || len(ss[1].Y) != 5 {
		t.Errorf("flow 1 rate %v Gb/s", ss[1].Y)
	}
}

// decisionRow is decisions.parquet as the rate view reads it.
type decisionRow struct {
	TNs        int64 `parquet:"t_ns"`
	FlowID     int64 `parquet:"flow_id"`
	NewRateBps int64 `parquet:"new_rate_bps"`
}

// Rate from decisions.parquet: the decided rate holds until the next
// decision; a bin's value is its time-weighted mean.
func TestRateFromDecisions(t *testing.T) {
	dir := congestedFixture(false).write(t, t.TempDir())
	must(t, output.WriteRows(filepath.Join(dir, DecisionsFile), []decisionRow{
		{TNs: 0, FlowID: 0, NewRateBps: 100e9},
		{TNs: 150, FlowID: 0, NewRateBps: 50e9},
		{TNs: 300, FlowID: 1, NewRateBps: 10e9},
		{TNs: 450, FlowID: 0, NewRateBps: 20e9},
		{TNs: 500, FlowID: 7, NewRateBps: 1}, // another flow
	}))
	fig, err := RateOverTime(load(t, dir), TimeOptions{Bins: 5, RateBins: 5})
	if err != nil {
		t.Fatal(err)
	}
	ss := fig.Panels[0].Series
	// Flow 0, bins of 200 ns to its finish at 900 ns: [0,200) = (150*100 +
	// 50*50)/200 = 87.5; [200,400) = 50; [400,600) = (50*50+150*20)/200 =
	// 27.5; then 20, 20.
	if want := []float64{87.5, 50, 27.5, 20, 20}; !slices.Equal(ss[0].Y, want) {
		t.Errorf("flow 0 rate %v Gb/s, want %v", ss[0].Y, want)
	}
	// Flow 1: no rate before its first decision at 300 ns, 10 Gb/s from
	// there to its finish at 900 ns (bins 1..4).
	if want := []float64{0.3, 0.5, 0.7, 0.9}; !slices.Equal(ss[1].X, want) || !slices.Equal(ss[1].Y, []float64{10, 10, 10, 10}) {
		t.Errorf("flow 1 at %v us = %v, want from bin 1 at 10 Gb/s", ss[1].X, ss[1].Y)
	}
	if !strings.Contains(fig.Title, DecisionsFile) {
		t.Errorf("title %q does not name the source", fig.Title)
	}
}

func TestRateNeedsASource(t *testing.T) {
	dir := congestedFixture(false).write(t, t.TempDir())
	_, err := RateOverTime(load(t, dir), TimeOptions{})
	var sk *Skipped
	if !errors.As(err, &sk) {
		t.Fatalf("err = %v, want a skip", err)
	}
}

func TestBadDecisions(t *testing.T) {
	dir := congestedFixture(false).write(t, t.TempDir())
	type wrong struct {
		TNs    int64 `parquet:"t_ns"`
		FlowID int64 `parquet:"flow_id"`
	}
	must(t, output.WriteRows(filepath.Join(dir, DecisionsFile), []wrong{{1, 0}}))
	_, err := RateOverTime(load(t, dir), TimeOptions{})
	if err == nil || !strings.Contains(err.Error(), `missing column "new_rate_bps"`) || !strings.Contains(err.Error(), DecisionsFile) {
		t.Fatalf("err = %v, want the missing column and the file named", err)
	}
}

// alltoallMessages is a 3-host all-to-all collective per (id, size),
// released at rel and finished at fin.
func alltoallMessages(colls []int64, sizes []int64, rel, fin []int64) []v2.MessageRow {
	var ms []v2.MessageRow
	for k, id := range colls {
		for s := int32(0); s < 3; s++ {
			for d := int32(0); d < 3; d++ {
				if s != d {
					ms = append(ms, v2.MessageRow{MsgID: int64(len(ms)), Src: s, Dst: d, SizeBytes: sizes[k],
						CollectiveID: id, ReleaseNs: rel[k], FinishNs: fin[k] - int64(s)})
				}
			}
		}
		// The zero-byte barrier after each iteration, outside collectives.
		ms = append(ms, v2.MessageRow{MsgID: int64(len(ms)), CollectiveID: -1, ReleaseNs: fin[k], FinishNs: fin[k]})
	}
	return ms
}

// MPI_Alltoall latency (Dolce-RC, Ye 2023, Fig. 5): one point per message size,
// the mean over timed iterations of last finish - first release;
// osu-alltoall specs leave warm-ups out (gen.OSUPlan).
func TestAlltoallFromSpec(t *testing.T) {
	// sizes 8;64, warmup 1, iters 2: collectives 0 (warm-up), 1, 2 of 8 B
	// and 3 (warm-up), 4, 5 of 64 B.
	f := fixture{cca: "dcqcn:zhu2015", seed: 1, trace: "osu-alltoall:nodes=3,ppn=1,sizes=8;64,warmup=1,iters=2",
		messages: alltoallMessages(
			[]int64{0, 1, 2, 3, 4, 5}, []int64{8, 8, 8, 64, 64, 64},
			[]int64{0, 100, 200, 300, 400, 500}, []int64{90, 110, 230, 390, 480, 600})}
	dir := f.write(t, t.TempDir())
	fig, err := AlltoallLatency(load(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	s := fig.Panels[0].Series[0]
	// 8 B: (10 + 30)/2 = 20 ns; 64 B: (80 + 100)/2 = 90 ns.
	want := Series{Label: "dcqcn:zhu2015", Points: true, X: []float64{8, 64}, Y: []float64{0.02, 0.09}, Count: []int64{2, 2}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("alltoall = %+v, want %+v", s, want)
	}
	if !fig.LogX || !fig.LogY || len(fig.XTicks) != 2 {
		t.Errorf("want log-log axes ticked at each size, got %+v", fig)
	}
}

// Without a spec, collectives of one message size between every pair of
// their hosts are timed iterations of that size.
func TestAlltoallInferred(t *testing.T) {
	f := fixture{cca: "hpcc:paper", seed: 1, trace: "alltoall.csv",
		messages: alltoallMessages([]int64{0, 1, 2}, []int64{64, 8, 64}, []int64{0, 100, 200}, []int64{50, 130, 300})}
	dir := f.write(t, t.TempDir())
	fig, err := AlltoallLatency(load(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	s := fig.Panels[0].Series[0]
	if want := []float64{8, 64}; !slices.Equal(s.X, want) {
		t.Fatalf("sizes %v, want one point per size %v", s.X, want)
	}
	// 8 B: 30 ns; 64 B: (50 + 100)/2 = 75 ns.
	if want := []float64{0.03, 0.075}; !slices.Equal(s.Y, want) {
		t.Errorf("latency %v us, want %v", s.Y, want)
	}
	if len(fig.Notes) != 1 || !strings.Contains(fig.Notes[0], "inferred") {
		t.Errorf("notes %q, want the inference said", fig.Notes)
	}
}

func TestAlltoallSkipsIncast(t *testing.T) {
	// An incast as one collective: hosts 0, 1 -> 2 only.
	f := fixture{cca: "dcqcn:zhu2015", seed: 1, trace: "incast:n=2", messages: []v2.MessageRow{
		{MsgID: 0, Src: 0, Dst: 2, SizeBytes: 100, CollectiveID: 0, FinishNs: 10},
		{MsgID: 1, Src: 1, Dst: 2, SizeBytes: 100, CollectiveID: 0, FinishNs: 10},
	}}
	dir := f.write(t, t.TempDir())
	_, err := AlltoallLatency(load(t, dir))
	var sk *Skipped
	if !errors.As(err, &sk) {
		t.Fatalf("err = %v, want a skip", err)
	}
}

func TestLabels(t *testing.T) {
	root := t.TempDir()
	a := fixture{cca: "dcqcn:zhu2015", seed: 1}.write(t, filepath.Join(root, "a"))
	b := fixture{cca: "dcqcn:zhu2015", seed: 2}.write(t, filepath.Join(root, "b"))
	c := fixture{cca: "hpcc:paper", seed: 1}.write(t, filepath.Join(root, "c"))
	runs := load(t, a, b, c)
	var got []string
	for _, r := range runs {
		got = append(got, r.Label)
	}
	if want := []string{"dcqcn:zhu2015 seed=1", "dcqcn:zhu2015 seed=2", "hpcc:paper"}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if runs[0].Group != runs[1].Group || runs[0].Variant == runs[1].Variant || runs[2].Group == runs[0].Group {
		t.Error("a colour per algorithm and a dash per seed expected")
	}
}

func TestLoadRunErrors(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, runfolder.SummaryFile), []byte("{"), 0o644))
	if _, err := LoadRuns([]string{dir}); err == nil || !strings.Contains(err.Error(), runfolder.SummaryFile+": not a run manifest") {
		t.Errorf("err = %v", err)
	}
	// A folder whose summary.json does not say complete is refused.
	dir3 := t.TempDir()
	must(t, output.WriteJSONAtomic(filepath.Join(dir3, runfolder.SummaryFile), runfolder.Manifest{SchemaVersion: v2.Version, CCA: "x"}))
	if _, err := LoadRuns([]string{dir3}); err == nil || !errors.Is(err, runfolder.ErrIncomplete) {
		t.Errorf("incomplete folder: err = %v", err)
	}
	dir2 := fixture{cca: "x", seed: 1}.write(t, t.TempDir())
	must(t, os.WriteFile(filepath.Join(dir2, runfolder.FlowsFile), []byte("not parquet"), 0o644))
	if _, err := LoadRuns([]string{dir2}); err == nil || !strings.Contains(err.Error(), runfolder.FlowsFile) {
		t.Errorf("err = %v", err)
	}
}

// Rendering: a 6x4 in PNG at 150 dpi and an SVG, byte-identical when
// drawn twice; data a log axis cannot show is an error, not a panic.
func TestRender(t *testing.T) {
	dir := congestedFixture(true).write(t, t.TempDir())
	runs := load(t, dir)
	cdf, err := FCTCDF(runs)
	must(t, err)
	queue, err := QueueOverTime(runs, TimeOptions{Bins: 10})
	must(t, err)
	for _, fig := range []Figure{cdf, queue} {
		b, err := Render(fig, "png")
		must(t, err)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", fig.Name, err)
		}
		if sz := img.Bounds().Size(); sz.X != 900 || (len(fig.Panels) == 1 && sz.Y != 600) {
			t.Errorf("%s: %v pixels, want 900 wide (600 high with one panel)", fig.Name, sz)
		}
		again, _ := Render(fig, "png")
		if !bytes.Equal(b, again) {
			t.Errorf("%s: two PNG renderings differ", fig.Name)
		}
		s, err := Render(fig, "svg")
		must(t, err)
		if !bytes.HasPrefix(s, []byte("<?xml")) || !bytes.Contains(s, []byte("<svg")) {
			t.Errorf("%s: not an SVG: %.60q", fig.Name, s)
		}
		again, _ = Render(fig, "svg")
		if !bytes.Equal(s, again) {
			t.Errorf("%s: two SVG renderings differ", fig.Name)
		}
	}
	if _, err := Render(cdf, "gif"); err == nil || !strings.Contains(err.Error(), `unknown format "gif"`) {
		t.Errorf("gif: err = %v", err)
	}
	bad := Figure{Name: "bad", LogY: true, Panels: []Panel{{Series: []Series{{Label: "z", X: []float64{1, 2}, Y: []float64{1, 0}}}}}}
	if _, err := Render(bad, "png"); err == nil || !strings.Contains(err.Error(), `series "z" point 1`) {
		t.Errorf("zero on a log axis: err = %v", err)
	}
}

func TestWriteFigure(t *testing.T) {
	dir := congestedFixture(true).write(t, t.TempDir())
	fig, err := FCTCDF(load(t, dir))
	must(t, err)
	out := t.TempDir()
	paths, err := WriteFigure(out, fig, Formats)
	must(t, err)
	if want := []string{filepath.Join(out, "fct_cdf.png"), filepath.Join(out, "fct_cdf.svg")}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 2 {
		t.Errorf("%d files in the folder, want 2 (no temporary left)", len(ents))
	}
	if _, err := WriteFigure(filepath.Join(out, "missing", "dir"), fig, Formats); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

// Same inputs, same figure data.
func TestDeterministicData(t *testing.T) {
	dir := congestedFixture(true).write(t, t.TempDir())
	build := func() []Figure {
		runs := load(t, dir)
		var figs []Figure
		for _, f := range []func() (Figure, error){
			func() (Figure, error) { return FCTCDF(runs) },
			func() (Figure, error) { return Slowdown(runs, 3) },
			func() (Figure, error) { return QueueOverTime(runs, TimeOptions{Bins: 20}) },
			func() (Figure, error) { return RateOverTime(runs, TimeOptions{Bins: 20}) },
		} {
			fig, err := f()
			must(t, err)
			figs = append(figs, fig)
		}
		return figs
	}
	if a, b := build(), build(); !reflect.DeepEqual(a, b) {
		t.Error("two builds from the same runs differ")
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[int64]string{
		1: "1B", 1000: "1KB", 1024: "1KiB", 65536: "64KiB", 1 << 20: "1MiB", 100_000: "100KB",
		786_432: "768KiB", 786_400: "786KB", 1500: "1.5KB", 2_345_678: "2.3MB", 3e9: "3GB",
	} {
		if got := formatBytes(b); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestTicks(t *testing.T) {
	var labels []string
	for _, tk := range (linearTicks{}).Ticks(0, 1100) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"0", "500", "1000"}; !slices.Equal(labels, want) {
		t.Errorf("linear labels %q, want %q", labels, want)
	}
	labels = nil
	for _, tk := range (logTicks{}).Ticks(math.Log10(1.5), math.Log10(30_000)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"10", "100", "1000", "10k"}; !slices.Equal(labels, want) {
		t.Errorf("log labels %q, want %q", labels, want)
	}
}

// Colours follow the algorithm, not the order the folders were given in,
// so two figures of the same algorithms look alike; and PoolSeeds draws
// one curve per algorithm from all its runs' flows.
func TestStableColoursAndPooledSeeds(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	for _, c := range []struct {
		cca  string
		seed uint64
	}{{"hpcc:paper", 1}, {"dcqcn:zhu2015", 1}, {"dcqcn:zhu2015", 2}, {"dcqcn:zhu2015", 3}} {
		dirs = append(dirs, fixture{cca: c.cca, seed: c.seed}.write(t, filepath.Join(root, fmt.Sprintf("%s-%d", strings.ReplaceAll(c.cca, ":", "-"), c.seed))))
	}
	colour := func(order []string) map[string]int {
		m := map[string]int{}
		for _, r := range load(t, order...) {
			m[r.Manifest.CCA] = r.Group
		}
		return m
	}
	a, b := colour(dirs), colour([]string{dirs[3], dirs[2], dirs[1], dirs[0]})
	if !maps.Equal(a, b) || a["dcqcn:zhu2015"] != 0 || a["hpcc:paper"] != 1 {
		t.Errorf("colours %v and %v, want dcqcn first and the same in both orders", a, b)
	}
	runs := load(t, dirs...)
	pooled, firsts := PoolSeeds(runs)
	if len(pooled) != 2 || len(firsts) != 2 || pooled[0].Label != "dcqcn:zhu2015 (3 runs)" || len(pooled[0].Flows) != 3*len(runs[1].Flows) {
		t.Fatalf("pooled %d runs (%q, %d flows), firsts %d", len(pooled), pooled[0].Label, len(pooled[0].Flows), len(firsts))
	}
	if pooled[1] != runs[0] || firsts[0] != runs[1] {
		t.Error("a lone run should pass through and the first run of each algorithm be kept")
	}
}

// Regression (issue 33, class 2): decisions.parquet is read at offsets,
// so a link to /dev/zero is refused at once, and a file larger than
// limits.MaxRunParquetBytes from its size, each in one line naming it.
func TestReadDecisionsBounded(t *testing.T) {
	testfiles.Bounded{
		Read: func(path string) error {
			_, err := readDecisions(path, map[int64]bool{0: true})
			return err
		},
		Limit:      limits.MaxRunParquetBytes,
		Big:        "big.parquet",
		Zero:       "zero.parquet",
		Prefix:     "decisions: ",
		TooBig:     "68719476737 bytes, more than 64 GiB, the limit of a run's " + runfolder.DecisionsFile,
		NotRegular: "is a character device; a run's " + runfolder.DecisionsFile + " must be a regular file",
	}.CheckRefused(t)
}
