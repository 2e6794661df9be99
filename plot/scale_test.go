package plot

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// scaleHand is a small grid given out of order: the duration series
// first, two hosts points and two load points. Wall time per packet-hop
// in ns: hosts 100 and 200; load 300 and 400; duration 500, 600 and 700;
// the median of the seven is 400.
func scaleHand() []ScalePoint {
	return []ScalePoint{
		{Series: "duration", Hosts: 320, Load: 0.3, DurationMs: 4, Flows: 400, PacketHops: 4e6, WallS: 2.8, PeakRSSMiB: 90},
		{Series: "duration", Hosts: 320, Load: 0.3, DurationMs: 1, Flows: 100, PacketHops: 1e6, WallS: 0.5, PeakRSSMiB: 80},
		{Series: "duration", Hosts: 320, Load: 0.3, DurationMs: 2, Flows: 200, PacketHops: 2e6, WallS: 1.2, PeakRSSMiB: 85},
		{Series: "hosts", Hosts: 128, Load: 0.3, DurationMs: 1, Flows: 50, PacketHops: 5e5, WallS: 0.1, PeakRSSMiB: 60},
		{Series: "hosts", Hosts: 16, Load: 0.3, DurationMs: 1, Flows: 7, PacketHops: 1e4, WallS: 0.001, PeakRSSMiB: 40},
		{Series: "load", Hosts: 320, Load: 0.1, DurationMs: 1, Flows: 30, PacketHops: 2e5, WallS: 0.06, PeakRSSMiB: 70},
		{Series: "load", Hosts: 320, Load: 0.9, DurationMs: 1, Flows: 300, PacketHops: 3e6, WallS: 1.2, PeakRSSMiB: 95},
	}
}

func TestScaleWallData(t *testing.T) {
	fig, err := ScaleWall(scaleHand())
	must(t, err)
	if fig.Name != "scale_wall" || fig.Title != "Cost against scale" || !fig.LogX || !fig.LogY || len(fig.Panels) != 1 {
		t.Fatalf("figure %+v", fig)
	}
	ss := fig.Panels[0].Series
	want := []Series{
		{Label: "hosts 16..128 (load 0.3, 1 ms)", Colour: 0, Points: true, X: []float64{1e4, 5e5}, Y: []float64{0.001, 0.1}},
		{Label: "load 0.1..0.9 (320 hosts, 1 ms)", Colour: 1, Points: true, X: []float64{2e5, 3e6}, Y: []float64{0.06, 1.2}},
		{Label: "1..4 ms (320 hosts, load 0.3)", Colour: 2, Points: true, X: []float64{1e6, 2e6, 4e6}, Y: []float64{0.5, 1.2, 2.8}},
		// y = 400 ns × x over the whole x range.
		{Label: "linear: 400 ns per packet-hop", Colour: -1, Dash: 1, X: []float64{1e4, 4e6}, Y: []float64{0.004, 1.6}},
	}
	if len(ss) != len(want) {
		t.Fatalf("%d series, want %d: %+v", len(ss), len(want), ss)
	}
	for i := range want {
		if !closeSeries(ss[i], want[i]) || ss[i].Points != want[i].Points {
			t.Errorf("series %d:\n got %+v\nwant %+v", i, ss[i], want[i])
		}
	}
	// The reference line's slope is the median ns per packet-hop.
	ref := ss[len(ss)-1]
	if slope := (ref.Y[1] - ref.Y[0]) / (ref.X[1] - ref.X[0]) * 1e9; math.Abs(slope-400) > 1e-6 {
		t.Errorf("reference slope %g ns per hop, want 400", slope)
	}
	var labels []string
	for _, k := range fig.Panels[0].Legend {
		labels = append(labels, k.Label)
	}
	if wantL := []string{want[0].Label, want[1].Label, want[2].Label, want[3].Label}; !slices.Equal(labels, wantL) {
		t.Errorf("legend %q, want %q", labels, wantL)
	}
	if !strings.Contains(strings.Join(fig.Notes, "\n"), "whole ccreplay process") {
		t.Errorf("notes %q do not say the wall time is whole-process", fig.Notes)
	}
}

// An even number of points: the reference is the mean of the middle two;
// a single-valued series is labelled with its one value; a series of
// another name follows the known ones.
func TestScaleWallMedianAndLabels(t *testing.T) {
	pts := []ScalePoint{
		{Series: "custom", Hosts: 16, Load: 0.5, DurationMs: 0.2, PacketHops: 1000, WallS: 1e-4}, // 100 ns
		{Series: "hosts", Hosts: 16, Load: 0.3, DurationMs: 0.2, PacketHops: 1000, WallS: 2e-4},  // 200 ns
		{Series: "load", Hosts: 16, Load: 0.1, DurationMs: 0.4, PacketHops: 1000, WallS: 3e-4},   // 300 ns
		{Series: "load", Hosts: 32, Load: 0.3, DurationMs: 0.2, PacketHops: 2000, WallS: 1e-3},   // 500 ns
	}
	fig, err := ScaleWall(pts)
	must(t, err)
	var labels []string
	for _, s := range fig.Panels[0].Series {
		labels = append(labels, s.Label)
	}
	want := []string{
		"hosts 16 (load 0.3, 0.2 ms)",
		"load 0.1..0.3 (hosts 16..32, 0.2..0.4 ms)",
		"custom (16 hosts, load 0.5, 0.2 ms)",
		"linear: 250 ns per packet-hop",
	}
	if !slices.Equal(labels, want) {
		t.Errorf("labels\n got %q\nwant %q", labels, want)
	}
	if c := fig.Panels[0].Series[2].Colour; c != 3 {
		t.Errorf("custom series colour %d, want 3 (after the known three)", c)
	}
}

func TestScaleWallLeavesOut(t *testing.T) {
	if _, err := ScaleWall(nil); err == nil || !strings.Contains(err.Error(), "no points") {
		t.Errorf("no points: err = %v", err)
	}
	pts := scaleHand()
	pts[0].PacketHops = 0     // duration 4 ms
	pts[3].WallS = math.NaN() // hosts 128
	pts[4].WallS = -1         // hosts 16: the hosts series is gone
	fig, err := ScaleWall(pts)
	must(t, err)
	if n := len(fig.Panels[0].Series); n != 3 {
		t.Fatalf("%d series, want load, duration and the reference", n)
	}
	if l := fig.Panels[0].Series[0].Label; !strings.HasPrefix(l, "load ") {
		t.Errorf("first series %q, want the load series", l)
	}
	if d := fig.Panels[0].Series[1]; len(d.X) != 2 || d.Label != "1..2 ms (320 hosts, load 0.3)" {
		t.Errorf("duration series %+v", d)
	}
	left := 0
	for _, n := range fig.Notes {
		if strings.Contains(n, "left out") {
			left++
		}
	}
	if left != 3 {
		t.Errorf("notes %q: want 3 points left out", fig.Notes)
	}
	for _, s := range fig.Panels[0].Series {
		for i := range s.X {
			if !(s.X[i] > 0 && s.Y[i] > 0) {
				t.Errorf("series %q point %d (%g, %g) on a log axis", s.Label, i, s.X[i], s.Y[i])
			}
		}
	}
	bad := []ScalePoint{{Series: "hosts", Hosts: 16, PacketHops: 0, WallS: 1}, {Series: "load", PacketHops: 5, WallS: 0}}
	if _, err := ScaleWall(bad); err == nil || !strings.Contains(err.Error(), "no point") {
		t.Errorf("nothing drawable: err = %v", err)
	}
}

func TestScaleMemoryData(t *testing.T) {
	fig, err := ScaleMemory(scaleHand())
	must(t, err)
	if fig.Name != "scale_memory" || fig.LogX || fig.LogY || !fig.XFromZero || !fig.YFromZero || len(fig.Panels) != 1 {
		t.Fatalf("figure %+v", fig)
	}
	ss := fig.Panels[0].Series
	if len(ss) != 1 {
		t.Fatalf("%d series, want the duration series alone", len(ss))
	}
	want := Series{Label: "1..4 ms (320 hosts, load 0.3)", Colour: 2, Points: true,
		X: []float64{1, 2, 4}, Y: []float64{80, 85, 90}, Count: []int64{100, 200, 400}}
	if !reflect.DeepEqual(ss[0], want) {
		t.Errorf("series\n got %+v\nwant %+v", ss[0], want)
	}
	if len(fig.Panels[0].Legend) != 1 || fig.Panels[0].Legend[0].Label != want.Label {
		t.Errorf("legend %+v", fig.Panels[0].Legend)
	}
	// Slope of (1,80) (2,85) (4,90): 45/14 ≈ 3.21 MiB per ms.
	if notes := strings.Join(fig.Notes, "\n"); !strings.Contains(notes, "3.21 MiB per simulated ms") {
		t.Errorf("notes %q lack the slope", notes)
	}
}

func TestScaleMemorySkips(t *testing.T) {
	if _, err := ScaleMemory(nil); err == nil || errors.As(err, new(*Skipped)) {
		t.Errorf("no points: err = %v, want a plain error", err)
	}
	var noDur []ScalePoint
	for _, p := range scaleHand() {
		if p.Series != "duration" {
			noDur = append(noDur, p)
		}
	}
	var sk *Skipped
	if _, err := ScaleMemory(noDur); !errors.As(err, &sk) || sk.View != "scale_memory" {
		t.Errorf("no duration series: err = %v, want *Skipped", err)
	}
	// Unknown peak memory (0) is left out; all unknown is a skip.
	pts := scaleHand()
	pts[1].PeakRSSMiB = 0
	fig, err := ScaleMemory(pts)
	must(t, err)
	if s := fig.Panels[0].Series[0]; !slices.Equal(s.X, []float64{2, 4}) {
		t.Errorf("x %v, want the 1 ms point left out", s.X)
	}
	if !strings.Contains(strings.Join(fig.Notes, "\n"), "left out duration point 320 hosts, load 0.3, 1 ms") {
		t.Errorf("notes %q", fig.Notes)
	}
	for i := range pts {
		pts[i].PeakRSSMiB = 0
	}
	if _, err := ScaleMemory(pts); !errors.As(err, &sk) {
		t.Errorf("no RSS known: err = %v, want *Skipped", err)
	}
}

func TestScaleRender(t *testing.T) {
	wall, err := ScaleWall(scaleHand())
	must(t, err)
	mem, err := ScaleMemory(scaleHand())
	must(t, err)
	for _, fig := range []Figure{wall, mem} {
		for _, f := range Formats {
			b, err := Render(fig, f)
			if err != nil {
				t.Fatalf("%s as %s: %v", fig.Name, f, err)
			}
			if len(b) == 0 {
				t.Errorf("%s as %s: empty", fig.Name, f)
			}
			if again, _ := Render(fig, f); !bytes.Equal(b, again) {
				t.Errorf("%s as %s: two renderings differ", fig.Name, f)
			}
		}
	}
	out := t.TempDir()
	paths, err := WriteFigure(out, wall, Formats)
	must(t, err)
	if len(paths) != 2 {
		t.Errorf("paths %q", paths)
	}
}
