package switchmodel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// A hand-computed step function: 0 B for 90 us, 10 kB for 9 us, 100 kB for
// 1 us. Time-weighted mean = (10000*9 + 100000*1)/100 = 1900 B; the queue
// is at most 10 kB for 99 % of the time, so p99 is 10 kB up to the
// histogram's bucket precision (1/32), and the max is 100 kB.
func TestQueueStatsStepFunction(t *testing.T) {
	var q QueueStats
	us := units.Microsecond
	q.Set(0, 0)
	q.Set(90*us, 10*units.KB)
	q.Set(99*us, 100*units.KB)
	mean, p99 := q.Finish(100 * us)
	if math.Abs(mean-1900) > 1e-9 {
		t.Errorf("mean=%g, want 1900", mean)
	}
	if p99 < 10*units.KB || float64(p99) > 10000*(1+1.0/32) {
		t.Errorf("p99=%d, want 10000 within 1/32", p99)
	}
	if q.Max != 100*units.KB {
		t.Errorf("Max=%d, want 100000", q.Max)
	}
}

// More cases: an empty queue; 2 % of the time at 100 kB puts p99 at
// 100 kB (capped by the maximum, not the bucket's upper bound); several
// changes at one instant count only the last one.
func TestQueueStatsCases(t *testing.T) {
	us := units.Microsecond
	var empty QueueStats
	if m, p := empty.Finish(50 * us); m != 0 || p != 0 {
		t.Errorf("empty queue: mean=%g p99=%d", m, p)
	}
	var q QueueStats
	q.Set(0, 0)
	q.Set(98*us, 100*units.KB)
	mean, p99 := q.Finish(100 * us)
	if math.Abs(mean-2000) > 1e-9 || p99 != 100*units.KB {
		t.Errorf("2%% at 100 kB: mean=%g p99=%d, want 2000 and 100000", mean, p99)
	}
	var z QueueStats
	z.Set(10*us, 5000)
	z.Set(10*us, 7000) // same instant: supersedes
	z.Set(20*us, 0)
	mean, _ = z.Finish(100 * us)
	if math.Abs(mean-700) > 1e-9 || z.Max != 7000 {
		t.Errorf("same-instant update: mean=%g Max=%d, want 700 and 7000", mean, z.Max)
	}
}

// The histogram's buckets: every value falls in a bucket whose upper bound
// is >= the value and within 1/32 of it, the bucket before ends below the
// value, and bucket indices grow with the value.
func TestBucketOfAndUpperAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	check := func(v units.Bytes) {
		i := bucketOf(v)
		up := bucketUpper(i)
		if up < v {
			t.Fatalf("value %d: bucket %d upper %d < value", v, i, up)
		}
		if float64(up-v) > float64(v)/32 {
			t.Fatalf("value %d: bucket %d upper %d, relative error %g > 1/32", v, i, up, float64(up-v)/float64(v))
		}
		if i > 0 && bucketUpper(i-1) >= v {
			t.Fatalf("value %d: previous bucket %d already ends at %d", v, i-1, bucketUpper(i-1))
		}
		if v > 0 && bucketOf(v-1) > i {
			t.Fatalf("bucketOf not monotone at %d", v)
		}
	}
	for v := units.Bytes(0); v < 5000; v++ {
		check(v)
	}
	for k := 0; k < 200000; k++ {
		e := rng.IntN(40)
		v := units.Bytes(rng.Int64N(int64(1)<<e + 1))
		check(v)
	}
	for e := 5; e < 50; e++ { // powers of two and their neighbours
		for _, d := range []int64{-1, 0, 1} {
			check(units.Bytes(int64(1)<<e + d))
		}
	}
}
