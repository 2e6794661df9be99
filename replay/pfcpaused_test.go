package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/units"
)

// flows.parquet's pfc_paused_ns (FDCC thesis, Fig. 6.3b, per flow): in an
// 8-to-1 incast at line rate whose switch PAUSEs the senders, every flow
// is backlogged, so each sender NIC's paused time is (up to a packet time
// per pause, and the pauses after its last packet left) its flow's
// pfc_paused_ns; a flow on a NIC never paused has 0, and without PFC every
// flow has 0. The conservation checks of baseConfig run throughout.
func TestFlowPFCPaused(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=8,size=1MB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "linerate")
	cfg.Switch.BufferBytes = 2 * units.MB

	res := mustRun(t, cfg, tr, "")
	allFinished(t, res)
	hostPaused := map[int32]int64{}
	for _, p := range res.Ports {
		if !p.IsSwitch {
			hostPaused[p.Node] = p.PausedNs
		}
	}
	var paused int
	for _, f := range res.Flows {
		nicPaused := hostPaused[f.Src]
		switch {
		case nicPaused == 0 && f.PFCPausedNs != 0:
			t.Errorf("flow %d: pfc_paused_ns %d on a NIC never paused", f.FlowID, f.PFCPausedNs)
		case nicPaused > 0 && (f.PFCPausedNs <= 0 || f.PFCPausedNs > nicPaused):
			t.Errorf("flow %d: pfc_paused_ns %d, want in (0, its NIC's paused_ns %d]", f.FlowID, f.PFCPausedNs, nicPaused)
		}
		if f.PFCPausedNs > f.FCTNs {
			t.Errorf("flow %d: pfc_paused_ns %d beyond its FCT %d", f.FlowID, f.PFCPausedNs, f.FCTNs)
		}
		if f.PFCPausedNs > 0 {
			paused++
		}
	}
	if paused == 0 {
		t.Fatal("no flow was held by a PAUSE: the scenario no longer exercises PFC")
	}
	if s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}); s.PFCPausedFracMean <= 0 || s.PFCPausedFracMean >= 1 {
		t.Errorf("pfc_paused_frac_mean = %v, want in (0, 1)", s.PFCPausedFracMean)
	}
	t.Logf("%d of %d flows paused, pfc_paused_frac_mean %.4f", paused, len(res.Flows), metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).PFCPausedFracMean)

	cfg.Switch.PFC.Enabled = false
	cfg.NIC.RTO = 200 * units.Microsecond
	lossy := mustRun(t, cfg, tr, "")
	allFinished(t, lossy)
	for _, f := range lossy.Flows {
		if f.PFCPausedNs != 0 {
			t.Errorf("without PFC: flow %d pfc_paused_ns %d", f.FlowID, f.PFCPausedNs)
		}
	}
	if metrics.Compute(lossy.Flows, lossy.Messages, lossy.Ports, metrics.Options{}).PFCPausedFracMean != 0 {
		t.Errorf("without PFC: pfc_paused_frac_mean = %v", metrics.Compute(lossy.Flows, lossy.Messages, lossy.Ports, metrics.Options{}).PFCPausedFracMean)
	}
}
