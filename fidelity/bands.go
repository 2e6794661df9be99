package fidelity

import (
	"fmt"
	"math"
)

// Default bands of `ccreplay validate --bands`.
const (
	DefaultMaxOverallErr  = 0.05
	DefaultMaxBucketErr   = 0.10
	DefaultMinBucketFlows = 30
)

// Bands are the tolerated relative errors of a Report's ratios: a ratio r
// is inside its band when |r - 1| <= the band's error. A band of 0 is not
// checked.
type Bands struct {
	// MaxOverallErr bounds the overall slowdown p50, p95 and p99 ratios,
	// the mean FCT ratio and the last-completion ratio.
	MaxOverallErr float64 `json:"max_overall_err"`
	// MaxBucketErr bounds the slowdown p50, p95 and p99 ratios of every
	// bucket of both bucketings that holds at least MinBucketFlows flows.
	MaxBucketErr float64 `json:"max_bucket_err"`
	// MinBucketFlows is the smallest bucket MaxBucketErr applies to
	// (smaller buckets' percentiles are a few flows' values).
	MinBucketFlows int `json:"min_bucket_flows"`
}

// DefaultBands are the bands `--bands` checks without other flags.
var DefaultBands = Bands{MaxOverallErr: DefaultMaxOverallErr, MaxBucketErr: DefaultMaxBucketErr, MinBucketFlows: DefaultMinBucketFlows}

// Violation is one ratio outside its band.
type Violation struct {
	// Where is "overall", "hpcc bucket 3 (20000-30000 B)" or "bucket 2
	// (...)"; Metric the ratio's name ("slowdown p99", "mean FCT", "last
	// completion").
	Where  string  `json:"where"`
	Metric string  `json:"metric"`
	Ratio  float64 `json:"ratio"`
	// MaxErr is the band: |Ratio - 1| must be <= MaxErr.
	MaxErr float64 `json:"max_err"`
}

func (v Violation) String() string {
	return fmt.Sprintf("%s %s ratio %.4f is outside 1 ± %g", v.Where, v.Metric, v.Ratio, v.MaxErr)
}

// Check lists every ratio of r outside its band, overall first, then the
// HPCC buckets, then ccreplay's buckets, each in size order; none when
// every ratio is inside.
func Check(r *Report, b Bands) []Violation {
	var out []Violation
	test := func(where, metric string, ratio, maxErr float64) {
		if maxErr > 0 && !(math.Abs(ratio-1) <= maxErr) {
			out = append(out, Violation{Where: where, Metric: metric, Ratio: ratio, MaxErr: maxErr})
		}
	}
	o := r.Overall
	test("overall", "slowdown p50", o.SlowdownRatio.P50, b.MaxOverallErr)
	test("overall", "slowdown p95", o.SlowdownRatio.P95, b.MaxOverallErr)
	test("overall", "slowdown p99", o.SlowdownRatio.P99, b.MaxOverallErr)
	test("overall", "mean FCT", o.FCTMeanRatio, b.MaxOverallErr)
	test("overall", "last completion", o.LastCompletionRatio, b.MaxOverallErr)
	for _, set := range []struct {
		name string
		bs   []Bucket
	}{{"hpcc bucket", r.HPCCBuckets.Buckets}, {"bucket", r.Buckets.Buckets}} {
		for i, bk := range set.bs {
			if bk.Flows < b.MinBucketFlows {
				continue
			}
			where := fmt.Sprintf("%s %d (%d-%d B, %d flows)", set.name, i, bk.SizeMinBytes, bk.SizeMaxBytes, bk.Flows)
			test(where, "slowdown p50", bk.SlowdownRatio.P50, b.MaxBucketErr)
			test(where, "slowdown p95", bk.SlowdownRatio.P95, b.MaxBucketErr)
			test(where, "slowdown p99", bk.SlowdownRatio.P99, b.MaxBucketErr)
		}
	}
	return out
}
