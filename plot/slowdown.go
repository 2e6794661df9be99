package plot

import (
	"fmt"

	"github.com/ccreplay/ccreplay/metrics"
)

// SlowdownName is the file name of the slowdown-per-bucket view.
const SlowdownName = "slowdown_buckets"

// percentileDash are the dash patterns of p50, p95 and p99.
var percentileDash = [3]int{0, 1, 2}

// Slowdown is the slowdown (FCT / ideal FCT) per flow-size bucket, HPCC
// style (FDCC, Zhang 2023, FCT-slowdown figures): each run's flows sorted by
// size into nBuckets buckets of equal count (metrics.Compute's buckets:
// when the count does not divide, the first buckets have one flow more),
// and in each bucket the p50, p95 and p99 of the finished flows' slowdown
// (nearest rank, as summary.json). x = bucket number 1..n, ticked with the
// first run's largest flow size per bucket; y = slowdown, logarithmic.
// One colour per run, one dash per percentile; Count holds the flows of
// each bucket. A bucket without a finished flow has no point.
func Slowdown(runs []*Run, nBuckets int) (Figure, error) {
	if nBuckets <= 0 {
		nBuckets = metrics.DefaultBuckets
	}
	fig := Figure{
		Name:   SlowdownName,
		Title:  "FCT slowdown per flow-size bucket (equal flow counts)",
		XLabel: "flow size bucket (largest flow in bucket, bytes)",
		YLabel: "slowdown (FCT / ideal FCT)",
		LogY:   true,
	}
	var p Panel
	var ref []metrics.Bucket
	refLabel, sameSizes := "", true
	for _, r := range runs {
		bs := metrics.Compute(r.Flows, nil, nil, metrics.Options{Buckets: nBuckets}).Buckets
		if len(bs) == 0 {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: no flow, no curve", r.Label))
			continue
		}
		if ref == nil {
			ref, refLabel = bs, r.Label
		} else if !sameBounds(ref, bs) {
			sameSizes = false
		}
		added := false
		for k, get := range []func(metrics.Bucket) float64{
			func(b metrics.Bucket) float64 { return b.SlowdownP50 },
			func(b metrics.Bucket) float64 { return b.SlowdownP95 },
			func(b metrics.Bucket) float64 { return b.SlowdownP99 },
		} {
			s := Series{
				Label:  fmt.Sprintf("%s p%s", r.Label, []string{"50", "95", "99"}[k]),
				Colour: r.Group, Dash: percentileDash[k], Points: true,
			}
			for i, b := range bs {
				if v := get(b); b.FlowsFinished > 0 && v > 0 {
					s.X = append(s.X, float64(i+1))
					s.Y = append(s.Y, v)
					s.Count = append(s.Count, b.Flows)
				}
			}
			if len(s.X) > 0 {
				p.Series = append(p.Series, s)
				added = true
			}
		}
		if added {
			p.Legend = append(p.Legend, Key{Label: r.Label, Colour: r.Group, Points: true})
		} else {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: no finished flow, no curve", r.Label))
		}
	}
	if len(p.Series) == 0 {
		return Figure{}, skipf(SlowdownName, "no run has a finished flow")
	}
	for k, name := range []string{"p50", "p95", "p99"} {
		p.Legend = append(p.Legend, Key{Label: name, Colour: -1, Dash: percentileDash[k]})
	}
	fig.XTicks = bucketTicks(ref)
	if !sameSizes {
		fig.XLabel = "flow size bucket (largest flow of " + refLabel + ", bytes)"
		fig.Notes = append(fig.Notes, "the runs' flow sizes differ: bucket ticks show the first run's sizes")
	}
	fig.Panels = []Panel{p}
	return fig, nil
}

// sameBounds reports whether two runs cut their flows at the same sizes.
func sameBounds(a, b []metrics.Bucket) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].SizeMinBytes != b[i].SizeMinBytes || a[i].SizeMaxBytes != b[i].SizeMaxBytes || a[i].Flows != b[i].Flows {
			return false
		}
	}
	return true
}

// bucketTicks ticks every bucket and labels at most about six of them
// with their largest flow size, never the same label twice in a row.
func bucketTicks(bs []metrics.Bucket) []Tick {
	every := (len(bs) + 5) / 6
	ticks := make([]Tick, len(bs))
	prev := ""
	for i, b := range bs {
		ticks[i] = Tick{Value: float64(i + 1)}
		if l := formatBytes(b.SizeMaxBytes); i%every == 0 && l != prev {
			ticks[i].Label, prev = l, l
		}
	}
	return ticks
}
