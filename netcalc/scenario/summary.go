package scenario

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/units"
)

// Summary is summary.json of a netcalc folder.
type Summary struct {
	SchemaVersion string   `json:"schema_version"`
	Kind          string   `json:"kind"`
	Workload      string   `json:"workload"`
	Topology      string   `json:"topology"`
	Seed          uint64   `json:"seed"`
	CCA           string   `json:"cca"`
	CCAParams     []string `json:"cca_params"`
	PFC           bool     `json:"pfc"`
	DtNs          int64    `json:"dt_ns"`
	HorizonNs     int64    `json:"horizon_ns"`
	RecordNs      int64    `json:"record_ns"`
	Format        string   `json:"format"`
	// The model's inputs derived from the workload and the topology.
	Dst       int32  `json:"dst_host"`
	CBps      int64  `json:"c_bps"`
	DeltaRNs  int64  `json:"delta_r_ns"`
	XOffBytes int64  `json:"pfc_xoff_bytes"`
	XOnBytes  int64  `json:"pfc_xon_bytes"`
	Flows     []Flow `json:"flows"`
	// Results, at the recorded steps.
	PeakBacklogBytes  float64 `json:"peak_backlog_bytes"`
	PeakBacklogNs     int64   `json:"peak_backlog_ns"`
	FinalBacklogBytes float64 `json:"final_backlog_bytes"`
	FirstPauseNs      int64   `json:"first_pause_ns"` // -1: no pause
	Cuts              int     `json:"cuts"`           // cnp + timeout events
	CNPs              int     `json:"cnps"`
	Timeouts          int     `json:"timeouts"`
	Pauses            int     `json:"pauses"`
	Events            int     `json:"events"`
	CurveRows         int     `json:"curve_rows"`
	// ModelWallMs is printed in the text summary only: summary.json stays
	// byte-identical for the same inputs.
	ModelWallMs float64 `json:"-"`
	// Compare is the packet replay's side with Request.Compare (else
	// absent).
	Compare  *Compare `json:"compare,omitempty"`
	Files    []string `json:"files"`
	Warnings []string `json:"warnings"`

	cfg *netcalc.Config // for the text summary
	out string
}

func nsOf(t units.Time) int64 { return int64(t / units.Nanosecond) }

// summarize computes summary.json but for the wall time, the comparison
// and the files.
func summarize(r *Request, m *Model, res *netcalc.Result) *Summary {
	cfg, st := &m.Config, m.Setup
	s := &Summary{
		SchemaVersion: Schema, Kind: "netcalc", Workload: filepath.ToSlash(st.TraceName),
		Topology: st.Topology.Describe(), Seed: st.Req.Seed, CCA: string(r.CC), CCAParams: r.Params,
		PFC: r.PFC, DtNs: nsOf(cfg.Dt), HorizonNs: nsOf(cfg.Horizon), RecordNs: nsOf(cfg.Record),
		Format: r.Format, Dst: m.Path.Dst, CBps: int64(cfg.C), DeltaRNs: nsOf(cfg.DeltaR), Flows: m.Path.Sources,
		FirstPauseNs: -1, Events: len(res.Events), cfg: cfg, out: r.Out,
	}
	if s.CCAParams == nil {
		s.CCAParams = []string{}
	}
	if cfg.PFC != nil {
		s.XOffBytes, s.XOnBytes = int64(cfg.PFC.XOff), int64(cfg.PFC.XOn)
	}
	bl := res.Aggregate.Backlog
	for k, v := range bl {
		if v > s.PeakBacklogBytes {
			s.PeakBacklogBytes, s.PeakBacklogNs = v, nsOf(res.T(k))
		}
	}
	if len(bl) > 0 {
		s.FinalBacklogBytes = bl[len(bl)-1]
	}
	s.CurveRows = len(bl) * (len(res.Flows) + 1)
	for _, e := range res.Events {
		switch e.Kind {
		case netcalc.EvCNP:
			s.CNPs++
		case netcalc.EvTimeout:
			s.Timeouts++
		case netcalc.EvPause:
			if s.Pauses == 0 {
				s.FirstPauseNs = nsOf(e.T)
			}
			s.Pauses++
		}
	}
	s.Cuts = s.CNPs + s.Timeouts
	return s
}

// onOff is how the text summary shows PFC.
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// pauseText is a first pause's time, or "none" for -1.
func pauseText(ns int64) string {
	if ns < 0 {
		return "none"
	}
	return units.FormatDuration(units.Nanos(ns))
}

// delayText is a delay in ns, or "none" for -1.
func delayText(ns int64) string {
	if ns < 0 {
		return "none"
	}
	return fmt.Sprintf("%.1f us", float64(ns)/1e3)
}

// WriteText writes the text summary of a run Run returned.
func (s *Summary) WriteText(w io.Writer) error {
	cfg := s.cfg
	fmt.Fprintf(w, "ccreplay netcalc: %s under %s (pfc %s) on %s: %d flows into host %d, C %v, ΔR %v\n",
		s.Workload, s.CCA, onOff(s.PFC), s.Topology, len(cfg.Flows), s.Dst, cfg.C, cfg.DeltaR)
	fmt.Fprintf(w, "peak backlog %.3f MB at %s, first PFC pause %s, %d cuts, %d events; model %v of %v in %.0f ms; outputs in %s\n",
		s.PeakBacklogBytes/1e6, units.FormatDuration(units.Nanos(s.PeakBacklogNs)),
		pauseText(s.FirstPauseNs), s.Cuts, s.Events, cfg.Horizon, cfg.Dt, s.ModelWallMs, s.out)
	c := s.Compare
	if c == nil {
		return nil
	}
	fmt.Fprintf(w, "replay (%s): peak backlog %.3f MB at %s, first PFC pause %s; replay %.0f ms, %.1fx the model's wall time; in %s, %s and %s\n",
		c.ReplayCCA, c.PeakBacklogBytes/1e6, units.FormatDuration(units.Nanos(c.PeakBacklogNs)), pauseText(c.FirstPauseNs),
		c.ReplayWallMs, c.ReplayWallMs/max(s.ModelWallMs, 0.001), CompareDir+"/", CompareFile, CompareFlowsFile)
	_, err := fmt.Fprintf(w, "peak delay at the bottleneck: model %s, replay %s; Jain's index of the flows' bytes by the horizon: model %.4f, replay %.4f\n",
		delayText(c.ModelPeakDelayNs), delayText(c.ReplayPeakDelayNs), c.ModelJain, c.ReplayJain)
	return err
}
