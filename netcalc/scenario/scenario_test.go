package scenario

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// paperIncast is the 31-to-1 incast of CC-NetCalc (Lehal 2024), Section V,
// as a request.
func paperIncast(out string, cc netcalc.CCKind, pfc bool, params ...string) *Request {
	return &Request{Workload: "incast:n=31,size=10MB", Topology: "star:hosts=32,rate=100G,delay=1us", Seed: 1,
		CC: cc, Params: params, PFC: pfc, Dt: "100ns", Horizon: "10ms", Record: "1us", Out: out, Format: "parquet",
		Registry: all.Registry()}
}

// The star incast maps onto exactly PaperIncast (C = 100 Gb/s, ΔR = 2 x
// (1us + 1us), 31 x 10 MB at t = 0, X_off/X_on 950/925 kB), and Run's
// summary gives the model's own peak: the PFC-only plateau near 30 MB
// (Fig. 7b).
func TestPaperIncastMapsOntoTheModel(t *testing.T) {
	r := paperIncast(filepath.Join(t.TempDir(), "pfc"), netcalc.LineRate, true)
	m, err := r.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	want := netcalc.PaperIncast(false, true)
	want.Record = units.Microsecond
	for i := range want.Flows { // the generator's release times are 0 too
		want.Flows[i].Arrivals[0].At = m.Config.Flows[i].Arrivals[0].At
	}
	if !reflect.DeepEqual(m.Config, want) {
		t.Fatalf("config\n got %+v\nwant %+v", m.Config, want)
	}
	res, err := netcalc.Run(want)
	if err != nil {
		t.Fatal(err)
	}
	var peak float64
	for _, v := range res.Aggregate.Backlog {
		peak = max(peak, v)
	}
	s, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if s.PeakBacklogBytes != peak {
		t.Errorf("summary peak %v, netcalc.Run peak %v", s.PeakBacklogBytes, peak)
	}
	if s.FinalBacklogBytes < 27e6 || s.FinalBacklogBytes > 33e6 || peak < 27e6 || peak > 33e6 {
		t.Errorf("backlog plateau: peak %v, at 10 ms %v; want 27-33 MB", peak, s.FinalBacklogBytes)
	}
	if s.FirstPauseNs <= 0 || s.CBps != int64(100*units.Gbps) || s.DeltaRNs != 4000 || s.XOffBytes != 950_000 || s.XOnBytes != 925_000 {
		t.Errorf("summary %+v", s)
	}
}

// configured is a two-flow model of cc with the overrides kvs.
func configured(t *testing.T, cc netcalc.CCKind, kvs ...string) (netcalc.Config, error) {
	t.Helper()
	cfg := netcalc.Config{CC: cc, Dt: 100 * units.Nanosecond, Horizon: units.Millisecond, C: 100 * units.Gbps,
		DeltaR: 4 * units.Microsecond, Flows: []netcalc.Flow{{InitRate: 100 * units.Gbps}, {InitRate: 40 * units.Gbps}}}
	err := Configure(&cfg, kvs)
	return cfg, err
}

// The tables' defaults are the values netcalc gives zero fields (DCQCN:
// Section V-B and Table II; Vegas: ns-3 TcpVegas) and Section IV-B's
// Algorithm 1 parameters (Fig. 6) for aimd-rate, so that writing them
// out changes no result.
func TestTableDefaults(t *testing.T) {
	d, err := configured(t, netcalc.DCQCN)
	if err != nil {
		t.Fatal(err)
	}
	if want := netcalc.DCQCNParams(); d.AIMD != want || d.ECN == nil || *d.ECN != netcalc.DCQCNECN() {
		t.Errorf("dcqcn: AIMD %+v ECN %+v, want %+v and %+v", d.AIMD, d.ECN, want, netcalc.DCQCNECN())
	}
	if v, _ := configured(t, netcalc.Vegas); v.Vegas != netcalc.VegasDefaults() {
		t.Errorf("vegas: %+v, want %+v", v.Vegas, netcalc.VegasDefaults())
	}
	if a, _ := configured(t, netcalc.AIMDRate); a.AIMD != netcalc.PaperFairness().AIMD {
		t.Errorf("aimd-rate: %+v, want Section IV-B's %+v", a.AIMD, netcalc.PaperFairness().AIMD)
	}
	w, _ := configured(t, netcalc.AIMDWindow)
	if want := (netcalc.WindowParams{Alpha: 1000, Beta: 0.5, Timeout: units.Millisecond, W0: 10 * units.KB, Threshold: 100 * units.KB}); w.Window != want {
		t.Errorf("aimd-window: %+v, want %+v", w.Window, want)
	}
	if l, _ := configured(t, netcalc.LineRate); l.Flows[0].InitRate != 100*units.Gbps || l.Flows[1].InitRate != 40*units.Gbps {
		t.Errorf("linerate: flows start at %v and %v, want their links' rates", l.Flows[0].InitRate, l.Flows[1].InitRate)
	}
	// DCQCN with the defaults written out runs as with netcalc's zero fields.
	zero := d
	zero.AIMD, zero.ECN = netcalc.AIMDParams{}, nil
	a, err := netcalc.Run(d)
	if err != nil {
		t.Fatal(err)
	}
	b, err := netcalc.Run(zero)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Aggregate, b.Aggregate) || !reflect.DeepEqual(a.Events, b.Events) {
		t.Error("dcqcn: explicit defaults and netcalc's zero fields give different results")
	}
}

func TestConfigureOverrides(t *testing.T) {
	c, err := configured(t, netcalc.DCQCN, "beta=0.5", "init_rate=25Gbps", "beta=0.6", "timeout=0", "kmax=100KB", "imax=1500")
	if err != nil {
		t.Fatal(err)
	}
	if c.AIMD.Beta != 0.6 || c.Flows[0].InitRate != 25*units.Gbps || c.Flows[1].InitRate != 25*units.Gbps ||
		c.ECN.KMax != 100*units.KB || c.ECN.IMax != 1500 || c.ECN.KMin != netcalc.DCQCNECN().KMin {
		t.Errorf("overrides not applied in order: %+v ECN %+v", c, c.ECN)
	}
	// netcalc's DCQCN reads a zero timeout as 3 ms: 0 means one past the horizon.
	if c.AIMD.Timeout != c.Horizon+c.Dt {
		t.Errorf("dcqcn timeout=0: %v, want %v (never fires)", c.AIMD.Timeout, c.Horizon+c.Dt)
	}
	if w, _ := configured(t, netcalc.AIMDWindow, "timeout=off", "w0=3000"); w.Window.Timeout != 0 || w.Window.W0 != 3000 {
		t.Errorf("aimd-window: %+v", w.Window)
	}
	for _, tc := range []struct {
		cc   netcalc.CCKind
		kv   string
		want string
	}{
		{netcalc.Vegas, "kmin=5KB", "--cca-param kmin: unknown parameter of vegas (known: gamma, high, imax, low, w0)"},
		{netcalc.LineRate, "beta=0.5", "unknown parameter of linerate (known: init_rate)"},
		{netcalc.DCQCN, "beta=1.5", "--cca-param beta: must be in (0, 1), got 1.5"},
		{netcalc.DCQCN, "pmax=0", "--cca-param pmax: must be in (0, 1], got 0"},
		{netcalc.AIMDRate, "ai_every=fast", "--cca-param ai_every: invalid duration"},
		{netcalc.Vegas, "w0=0", "--cca-param w0: must be positive"},
		{netcalc.AIMDRate, "beta", `--cca-param "beta": want KEY=VALUE`},
		{"cubic", "beta=0.5", "unknown model congestion control"},
	} {
		_, err := configured(t, tc.cc, tc.kv)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want %q", tc.cc, tc.kv, err, tc.want)
		}
	}
}

// The help lists every model CC with each of its keys and its default.
func TestParamHelp(t *testing.T) {
	h := ParamHelp()
	for _, cc := range CCs {
		if !strings.Contains(h, "  "+string(cc)+": ") {
			t.Errorf("help lacks %s", cc)
		}
		for _, p := range tables[cc].Schema(nil).Params {
			if p.Values[""] == "" || !strings.Contains(h, p.Key) {
				t.Errorf("%s: key %s (default %q) not in the help", cc, p.Key, p.Values[""])
			}
		}
	}
	if !strings.Contains(h, "55us") || !strings.Contains(h, "200KB") {
		t.Errorf("help lacks DCQCN's Table II defaults:\n%s", h)
	}
}

// Messages of one queue pair are one flow whose bytes arrive in order,
// every NoFlow message a flow of its own; C is the receiver's link, ΔR
// twice the path's propagation delay.
func TestMapWorkloadFlows(t *testing.T) {
	topo, err := topology.Star(4, 100*units.Gbps, units.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	us := units.Microsecond
	tr := &trace.Trace{Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 3, Bytes: 1000, Release: 5 * us, FlowID: 7},
		{ID: 1, Src: 0, Dst: 3, Bytes: 500, Release: 2 * us, FlowID: 7},
		{ID: 2, Src: 1, Dst: 3, Bytes: 300, FlowID: trace.NoFlow},
		{ID: 3, Src: 1, Dst: 3, Bytes: 200, FlowID: trace.NoFlow},
	}}
	p, err := MapWorkload(tr, topo)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Flows) != 3 || p.C != 100*units.Gbps || p.DeltaR != 4*us || p.Dst != 3 {
		t.Fatalf("%d flows, C %v, ΔR %v, dst %d", len(p.Flows), p.C, p.DeltaR, p.Dst)
	}
	if a := p.Flows[0].Arrivals; len(a) != 2 || a[1].At != 5*us || p.Sources[0].Bytes != 1500 {
		t.Errorf("queue pair 7: arrivals %+v, sources %+v", a, p.Sources[0])
	}
	tr.Messages[3].Dst = 2
	if _, err := MapWorkload(tr, topo); err == nil || !strings.Contains(err.Error(), "no single bottleneck") {
		t.Errorf("two destinations: %v", err)
	}
}

// Jain's index is 1 for equal shares and 1/n when one flow gets all.
func TestJain(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{nil, 1}, {[]float64{3, 3, 3}, 1}, {[]float64{4, 0, 0, 0}, 0.25}, {[]float64{0, 0}, 1}} {
		if got := jain(tc.xs); got != tc.want {
			t.Errorf("jain(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}
