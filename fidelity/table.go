package fidelity

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/metrics"
)

// WriteTable prints r for humans: the two sides and the matching, the
// overall table, both bucket tables and the flows that differ most, in
// aligned columns (metrics.Format's units). Columns with the other side's
// FCT over the reference's standalone FCT are shown only when the
// standalone FCTs of some matched flows differ (else they repeat the
// others). Errors of w are ignored (as with fmt.Fprintf).
func WriteTable(w io.Writer, r *Report) {
	m := r.Match
	fmt.Fprintf(w, "reference: %s (%s: %s)\n", r.Reference.Label, r.Reference.Path, r.Reference.Source)
	fmt.Fprintf(w, "other:     %s (%s: %s)\n", r.Other.Label, r.Other.Path, r.Other.Source)
	fmt.Fprintf(w, "matched %d flows: %d of %d reference rows, %d of %d other rows unmatched; %d by (src, dst, sport, dport), %d by (src, dst, size) and start within %d ns\n",
		m.Matched, m.UnmatchedRef, m.RefRows, m.UnmatchedOther, m.OtherRows, m.ByPorts, m.ByStart, m.StartToleranceNs)
	if m.StandaloneDiffer > 0 {
		fmt.Fprintf(w, "standalone FCT differs on %d matched flows (at most %.2f %%): the \"ref sa\" columns divide the other's FCT by the reference's standalone FCT\n",
			m.StandaloneDiffer, 100*m.StandaloneMaxRelDiff)
	} else {
		fmt.Fprintln(w, "standalone FCT identical on every matched flow")
	}
	if m.ClampedRef+m.ClampedOther > 0 {
		fmt.Fprintf(w, "FCT below its standalone FCT (slowdown clamped to 1): %d reference, %d other flows\n", m.ClampedRef, m.ClampedOther)
	}
	fmt.Fprintln(w, "slowdown = max(1, FCT / standalone FCT); ratio = other / reference")
	refSA := m.StandaloneDiffer > 0

	fmt.Fprintf(w, "\noverall (%d flows, percentiles nearest rank)\n", r.Overall.Flows)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "metric\treference\tother\tratio\t"
	if refSA {
		head += "other (ref sa)\tratio (ref sa)\t"
	}
	fmt.Fprintln(tw, head)
	o := r.Overall
	sd := func(label string, get func(Stats) float64) {
		line := fmt.Sprintf("%s\t%s\t%s\t%.4f\t", label, fx(get(o.SlowdownRef)), fx(get(o.SlowdownOther)), get(o.SlowdownRatio))
		if refSA {
			line += fmt.Sprintf("%s\t%.4f\t", fx(get(o.SlowdownOtherRefStandalone)), get(o.SlowdownRatioRefStandalone))
		}
		fmt.Fprintln(tw, line)
	}
	sd("slowdown p50", func(s Stats) float64 { return s.P50 })
	sd("slowdown p95", func(s Stats) float64 { return s.P95 })
	sd("slowdown p99", func(s Stats) float64 { return s.P99 })
	sd("slowdown mean", func(s Stats) float64 { return s.Mean })
	dash := ""
	if refSA {
		dash = "\t\t"
	}
	fmt.Fprintf(tw, "FCT mean\t%s\t%s\t%.4f\t%s\n", fns(o.FCTMeanRefNs), fns(o.FCTMeanOtherNs), o.FCTMeanRatio, dash)
	fmt.Fprintf(tw, "last completion\t%s\t%s\t%.4f\t%s\n", fns(float64(o.LastCompletionRefNs)), fns(float64(o.LastCompletionOtherNs)), o.LastCompletionRatio, dash)
	tw.Flush()

	fmt.Fprintf(w, "\nHPCC buckets (%s; percentiles index int(n p))\n", r.HPCCBuckets.Rule)
	writeBuckets(w, r.HPCCBuckets.Buckets, refSA)
	fmt.Fprintf(w, "\nccreplay buckets (%s; percentiles nearest rank)\n", r.Buckets.Rule)
	writeBuckets(w, r.Buckets.Buckets, refSA)

	for _, l := range []struct {
		title string
		fs    []FlowDiff
	}{{"slower in the other (FCT ratio > 1)", r.TopSlower}, {"faster in the other (FCT ratio < 1)", r.TopFaster}} {
		fmt.Fprintf(w, "\n%d flows %s\n", len(l.fs), l.title)
		if len(l.fs) == 0 {
			continue
		}
		writeFlows(w, l.fs)
	}
}

// WriteViolations prints the ratios outside their bands, one per line,
// or that every checked ratio is inside.
func WriteViolations(w io.Writer, b Bands, vs []Violation) {
	fmt.Fprintf(w, "\nbands: overall 1 ± %g, buckets of >= %d flows 1 ± %g: ", b.MaxOverallErr, b.MinBucketFlows, b.MaxBucketErr)
	if len(vs) == 0 {
		fmt.Fprintln(w, "every ratio inside")
		return
	}
	fmt.Fprintf(w, "%d ratios outside\n", len(vs))
	for _, v := range vs {
		fmt.Fprintln(w, "  "+v.String())
	}
}

func writeBuckets(w io.Writer, bs []Bucket, refSA bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cols := []string{"#", "flow size (bytes)", "flows", "p50 ref", "p50 other", "ratio", "p95 ref", "p95 other", "ratio", "p99 ref", "p99 other", "ratio"}
	if refSA {
		cols = append(cols, "p50 ratio (ref sa)", "p99 ratio (ref sa)")
	}
	fmt.Fprintln(tw, strings.Join(cols, "\t")+"\t")
	for i, b := range bs {
		line := fmt.Sprintf("%d\t%d-%d\t%d\t%s\t%s\t%.4f\t%s\t%s\t%.4f\t%s\t%s\t%.4f\t", i, b.SizeMinBytes, b.SizeMaxBytes, b.Flows,
			fx(b.SlowdownRef.P50), fx(b.SlowdownOther.P50), b.SlowdownRatio.P50,
			fx(b.SlowdownRef.P95), fx(b.SlowdownOther.P95), b.SlowdownRatio.P95,
			fx(b.SlowdownRef.P99), fx(b.SlowdownOther.P99), b.SlowdownRatio.P99)
		if refSA {
			line += fmt.Sprintf("%.4f\t%.4f\t", b.SlowdownRatioRefStandalone.P50, b.SlowdownRatioRefStandalone.P99)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

func writeFlows(w io.Writer, fs []FlowDiff) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "src\tdst\tsport\tdport\tsize (bytes)\tstart (ns)\tFCT ref\tFCT other\tratio\tstandalone ref\tstandalone other\t")
	for _, f := range fs {
		ports := fmt.Sprintf("%d\t%d", f.SPort, f.DPort)
		if f.OtherSPort != f.SPort || f.OtherDPort != f.DPort {
			ports = fmt.Sprintf("%d/%d\t%d/%d", f.SPort, f.OtherSPort, f.DPort, f.OtherDPort)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\t%s\t%s\t%.4f\t%s\t%s\t\n", f.Src, f.Dst, ports, f.SizeBytes, f.StartNs,
			fns(float64(f.FCTRefNs)), fns(float64(f.FCTOtherNs)), f.FCTRatio, fns(float64(f.StandaloneRefNs)), fns(float64(f.StandaloneOtherNs)))
	}
	tw.Flush()
}

func fx(v float64) string  { return metrics.Format(v, metrics.UnitX) }
func fns(v float64) string { return metrics.Format(v, metrics.UnitNs) }
