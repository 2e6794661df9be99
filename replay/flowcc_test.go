package replay

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// infoRecorder wraps an algorithm and keeps the FlowInfo it starts with.
type infoRecorder struct {
	cca.Algorithm
	got *cca.FlowInfo
}

func (r infoRecorder) Start(now units.Time, f cca.FlowInfo) {
	*r.got = f
	r.Algorithm.Start(now, f)
}

// TestFlowCC: Config.FlowCC gives each flow's algorithm the base RTT and
// hop count it lists, whatever the topology's path says (estimate's link
// networks hand their flows the full network's). Given each flow's own
// CCInfo under every base RTT mode, the run is the run without it, row for
// row (HPCC, whose T is the base RTT; Swift, whose target grows with the
// hops); given other values, the algorithm starts with them; a list of
// the wrong length, or a zero, is bad input.
func TestFlowCC(t *testing.T) {
	topo := replaytest.Topology(t, "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", 16)
	tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.5,duration=50us", 3)
	for _, cc := range []string{"hpcc", "swift"} {
		for _, mode := range []BaseRTTMode{BaseRTTPath, BaseRTTNS3Pair, BaseRTTNS3Max} {
			cfg := baseConfig(t, topo, cc)
			cfg.CCBaseRTT = mode
			want := mustRun(t, cfg, tr, "")
			flows, err := FlowPaths(&cfg, tr)
			if err != nil {
				t.Fatal(err)
			}
			maxRTT, _ := topology.NS3MaxRTT(topo, cfg.NIC.MTUPayload)
			cfg.FlowCC = make([]FlowCCInfo, len(flows))
			for i := range flows {
				cfg.FlowCC[i] = cfg.CCInfo(flows[i].Path, maxRTT)
			}
			if got := mustRun(t, cfg, tr, ""); !reflect.DeepEqual(got.Flows, want.Flows) {
				t.Errorf("%s, mode %q: the flows' own CCInfo as FlowCC changed the run", cc, mode)
			}
		}
	}
	cfg := baseConfig(t, replaytest.Topology(t, "star:hosts=3", 3), "hpcc")
	tr = replaytest.Workload(t, "incast:n=2,size=100KB", 1)
	got := make([]cca.FlowInfo, 2)
	cfg.WrapCC = func(fid int32, a cca.Algorithm) cca.Algorithm { return infoRecorder{a, &got[fid]} }
	cfg.FlowCC = []FlowCCInfo{{BaseRTT: 37 * units.Microsecond, Hops: 9}, {BaseRTT: 5 * units.Microsecond, Hops: 2}}
	mustRun(t, cfg, tr, "")
	for i, fc := range cfg.FlowCC {
		if got[i].BaseRTT != fc.BaseRTT || got[i].Hops != fc.Hops {
			t.Errorf("flow %d started with base RTT %v, %d hops; want %v, %d", i, got[i].BaseRTT, got[i].Hops, fc.BaseRTT, fc.Hops)
		}
	}
	for _, bad := range [][]FlowCCInfo{cfg.FlowCC[:1], {{BaseRTT: 1, Hops: 1}, {BaseRTT: 0, Hops: 2}}, {{BaseRTT: 1, Hops: 0}, {BaseRTT: 1, Hops: 2}}} {
		cfg.FlowCC = bad
		_, err := Run(cfg, tr)
		if !errors.Is(err, ErrBadInput) || strings.Contains(err.Error(), "\n") {
			t.Errorf("FlowCC %+v: err %v, want one line of bad input", bad, err)
		}
	}
}
