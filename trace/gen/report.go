package gen

import (
	"fmt"
	"io"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/cdf"
)

// Report is what `ccreplay gen` says of a generated trace.
type Report struct {
	Spec     string `json:"spec"`
	File     string `json:"file"`
	Seed     uint64 `json:"seed"`
	Hosts    int    `json:"hosts"`
	Ranks    int    `json:"ranks"`
	Messages int    `json:"messages"`
	// Bytes is the messages' total size; Collectives the distinct
	// collective ids; LastReleaseNs the latest release, ns.
	Bytes         int64 `json:"bytes"`
	Collectives   int   `json:"collectives"`
	LastReleaseNs int64 `json:"last_release_ns"`
	// A cdf generator's mean flow size (bytes) and its target and
	// achieved load (fractions of the hosts' capacity).
	MeanSizeBytes float64 `json:"mean_size_bytes,omitempty"`
	TargetLoad    float64 `json:"target_load,omitempty"`
	AchievedLoad  float64 `json:"achieved_load,omitempty"`
}

// NewReport describes tr, generated from spec with seed (st its cdf
// statistics, zero for other generators) and written to file.
func NewReport(spec, file string, seed uint64, tr *trace.Trace, st cdf.Stats) Report {
	r := Report{Spec: spec, File: file, Seed: seed, Hosts: tr.Hosts, Ranks: len(tr.Ranks), Messages: len(tr.Messages),
		MeanSizeBytes: st.MeanSize, TargetLoad: st.TargetLoad, AchievedLoad: st.AchievedLoad}
	coll := map[int64]bool{}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		r.Bytes += m.Bytes
		if m.CollectiveID >= 0 {
			coll[m.CollectiveID] = true
		}
		if ns := m.Release.Nanoseconds(); ns > r.LastReleaseNs {
			r.LastReleaseNs = ns
		}
	}
	r.Collectives = len(coll)
	return r
}

// WriteText prints the report in one or two lines.
func (r Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "wrote %s: %d messages, %d bytes, %d hosts", r.File, r.Messages, r.Bytes, r.Hosts)
	if r.Ranks > 0 {
		fmt.Fprintf(w, ", %d ranks", r.Ranks)
	}
	if r.Collectives > 0 {
		fmt.Fprintf(w, ", %d collectives", r.Collectives)
	}
	fmt.Fprintln(w)
	if r.MeanSizeBytes > 0 {
		fmt.Fprintf(w, "mean flow size used %.0f B; target load %.3f, achieved %.3f\n", r.MeanSizeBytes, r.TargetLoad, r.AchievedLoad)
	}
}
