package plot

import (
	"bytes"
	"reflect"
	"testing"
)

// ncHand is 5 samples 1 us apart: the model's backlog rises to 3 MB and
// falls, the replay's peaks at 2 MB; the model pauses at samples 1-2, the
// replay at sample 3 only.
func ncHand() *NetcalcCurves {
	return &NetcalcCurves{
		TNs:           []int64{0, 1000, 2000, 3000, 4000},
		ModelBacklog:  []float64{0, 1e6, 3e6, 2e6, 0},
		ModelRate:     []float64{0, 200e9, 100e9, 0, 0},
		ModelPaused:   []bool{false, true, true, false, false},
		FlowRates:     [][]float64{{0, 100e9, 50e9, 0, 0}, {0, 100e9, 50e9, 0, 0}},
		FlowLabels:    []string{"flow 0", "flow 1"},
		ReplayBacklog: []float64{0, 0.5e6, 2e6, 1e6, 0},
		ReplayRate:    []float64{0, 150e9, 100e9, 50e9, 0},
		ReplayPaused:  []bool{false, false, false, true, false},
	}
}

func TestNetcalcBacklogData(t *testing.T) {
	fig, err := NetcalcBacklog(ncHand())
	if err != nil {
		t.Fatal(err)
	}
	if fig.Name != "backlog" || fig.XLabel != "time (ms)" || fig.YLabel != "backlog (MB)" || len(fig.Panels) != 1 {
		t.Fatalf("figure %+v", fig)
	}
	ss := fig.Panels[0].Series
	if len(ss) != 4 {
		t.Fatalf("%d series, want model, replay and one pause mark each", len(ss))
	}
	want := []Series{
		{Label: "model", Colour: 0, X: []float64{0, 0.001, 0.002, 0.003, 0.004}, Y: []float64{0, 1, 3, 2, 0}},
		{Label: "replay", Colour: 1, X: []float64{0, 0.001, 0.002, 0.003, 0.004}, Y: []float64{0, 0.5, 2, 1, 0}},
		// Pause bars above the highest curve (3 MB): model over samples
		// 1-2, replay's single sample one step long.
		{Label: "model PFC pause 0", Colour: 6, X: []float64{0.001, 0.002}, Y: []float64{3.12, 3.12}},
		{Label: "replay PFC pause 0", Colour: 7, X: []float64{0.003, 0.004}, Y: []float64{3.24, 3.24}},
	}
	for i := range want {
		if !closeSeries(ss[i], want[i]) {
			t.Errorf("series %d:\n got %+v\nwant %+v", i, ss[i], want[i])
		}
	}
	if len(fig.Panels[0].Legend) != 4 {
		t.Errorf("legend %+v", fig.Panels[0].Legend)
	}
	// Without --compare and without PFC: the model's curve alone.
	c := ncHand()
	c.ReplayBacklog, c.ReplayRate, c.ReplayPaused, c.ModelPaused = nil, nil, nil, nil
	fig, err = NetcalcBacklog(c)
	if err != nil || len(fig.Panels[0].Series) != 1 || len(fig.Panels[0].Legend) != 1 {
		t.Errorf("model only: %v %+v", err, fig.Panels)
	}
}

func TestNetcalcRatesData(t *testing.T) {
	fig, err := NetcalcRates(ncHand())
	if err != nil {
		t.Fatal(err)
	}
	ss := fig.Panels[0].Series
	x := []float64{0, 0.001, 0.002, 0.003, 0.004}
	want := []Series{
		{Label: "model (all flows)", Colour: 0, X: x, Y: []float64{0, 200, 100, 0, 0}},
		{Label: "replay (all flows)", Colour: 1, X: x, Y: []float64{0, 150, 100, 50, 0}},
		{Label: "model flow 0", Colour: 2, Dash: 2, X: x, Y: []float64{0, 100, 50, 0, 0}},
		{Label: "model flow 1", Colour: 3, Dash: 2, X: x, Y: []float64{0, 100, 50, 0, 0}},
	}
	if len(ss) != len(want) {
		t.Fatalf("%d series, want %d", len(ss), len(want))
	}
	for i := range want {
		if !closeSeries(ss[i], want[i]) {
			t.Errorf("series %d:\n got %+v\nwant %+v", i, ss[i], want[i])
		}
	}
}

// Past NetcalcMaxPoints steps, backlog keeps the largest of each bin at
// its time and rates the mean at the bin's middle.
func TestNetcalcBinning(t *testing.T) {
	n := 2*NetcalcMaxPoints + 2 // 3 steps per point
	c := &NetcalcCurves{TNs: make([]int64, n), ModelBacklog: make([]float64, n), ModelRate: make([]float64, n)}
	for i := range n {
		c.TNs[i] = int64(i) * 1000
		c.ModelRate[i] = float64(i%3) * 3e9 // 0, 3, 6 Gb/s: mean 3
	}
	c.ModelBacklog[4] = 7e6
	if k := NetcalcBins(n); k != 3 {
		t.Fatalf("NetcalcBins(%d) = %d", n, k)
	}
	b, err := NetcalcBacklog(c)
	if err != nil {
		t.Fatal(err)
	}
	s := b.Panels[0].Series[0]
	if len(s.X) != (n+2)/3 || s.X[1] != 0.004 || s.Y[1] != 7 || s.X[0] != 0 {
		t.Errorf("backlog: %d points, second (%v, %v)", len(s.X), s.X[1], s.Y[1])
	}
	r, err := NetcalcRates(c)
	if err != nil {
		t.Fatal(err)
	}
	s = r.Panels[0].Series[0]
	if s.X[1] != 0.004 || s.Y[1] != 3 {
		t.Errorf("rates: second point (%v, %v), want (0.004, 3)", s.X[1], s.Y[1])
	}
}

func TestNetcalcPauseIntervals(t *testing.T) {
	tns := []int64{0, 10, 20, 30, 40, 50, 60, 70}
	p := []bool{true, false, true, true, false, false, true, false}
	if got, want := PauseIntervals(tns, p, 1), [][2]int64{{0, 10}, {20, 30}, {60, 70}}; !reflect.DeepEqual(got, want) {
		t.Errorf("k=1: %v, want %v", got, want)
	}
	if got, want := PauseIntervals(tns, p, 2), [][2]int64{{0, 30}, {60, 70}}; !reflect.DeepEqual(got, want) {
		t.Errorf("k=2: %v, want %v", got, want)
	}
	if got := PauseIntervals(tns, make([]bool, 8), 1); got != nil {
		t.Errorf("no pause: %v", got)
	}
}

func TestNetcalcErrorsAndRender(t *testing.T) {
	c := ncHand()
	c.ReplayRate = c.ReplayRate[:3]
	if _, err := Netcalc(c); err == nil {
		t.Error("short replay rate: no error")
	}
	if _, err := Netcalc(&NetcalcCurves{}); err == nil {
		t.Error("no samples: no error")
	}
	figs, err := Netcalc(ncHand())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		b, err := Render(f, "png")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s: not a PNG", f.Name)
		}
	}
}

func closeSeries(a, b Series) bool {
	if a.Label != b.Label || a.Colour != b.Colour || a.Dash != b.Dash || len(a.X) != len(b.X) || len(a.Y) != len(b.Y) {
		return false
	}
	for i := range a.X {
		if d := a.X[i] - b.X[i]; d > 1e-12 || d < -1e-12 {
			return false
		}
		if d := a.Y[i] - b.Y[i]; d > 1e-9 || d < -1e-9 {
			return false
		}
	}
	return true
}
