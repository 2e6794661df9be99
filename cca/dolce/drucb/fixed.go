package drucb

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/ccreplay/ccreplay/internal/splitmix"
)

// Fixed is DR-UCB in integer arithmetic with the paper's storage budget:
// "Dolce-RC only requires four bytes of storage per arm ... We use four
// bytes (a DWORD) to represent each of these two variables in any
// computations involving them. However, we only use two bytes to store
// each of them in NICs" (Dolce-RC, Ye 2023, Section IV-B.2), and logarithm, square
// root and reciprocal in fixed point (Section IV-B.3). The paper omits the
// details ("Due to space limitation, we do not describe the details
// here"); this is our realisation.
//
// Stored state, 4 bytes per arm (AppendState, little-endian):
//
//	bytes 0-1  m_i   ArmTriedNum, a 16-bit float with a 4-bit exponent e
//	                 and a 12-bit mantissa (significand s = 4096+mantissa,
//	                 or the mantissa alone when e = 0), value s*2^(e-15) in
//	                 [0, 8192), block-scaled: n_i(t-1) = value(m_i)*gamma^r
//	bytes 2-3  mu_i  RewardACC/ArmTriedNum, the discounted mean reward,
//	                 unsigned Q0.16 (1.0 saturates to 65535/65536)
//
// plus r = t mod floor(K/epsilon) (Slot), which the caller stores with its
// own counters (Dolce-RC packs it in its fifth DWORD).
//
// Why this form. With gamma = 0.9998 a count shrinks by 0.02 % per
// iteration, less than half a unit in the last place of a 16-bit value of
// any format wide enough for counts up to 1/(1-gamma) = 5000, so a
// per-iteration discount rounded to 16 bits would leave rarely played arms
// undiscounted. Instead the discount is deferred: line 10 multiplies the
// shared scale gamma^r (r counts iterations since the last
// renormalisation, which is exactly line 3's r, so it costs no storage),
// the arm played at iteration t gains gamma^-(r+1) in m (see increment),
// and when r wraps to 0 every m_i is multiplied by gamma^floor(K/epsilon)
// (0.948 for the paper's 266) and rounded. The float format keeps 13
// significant bits at every magnitude, so a count of 5 is as precise,
// relatively, as one of 5000; small counts decide the exploration bonus.
// The largest value, gamma^-floor(K/epsilon)/(1-gamma) = 5274 for the
// paper's parameters, must stay below 8192.
//
// Storing the mean rather than RewardACC (RewardACC = mu_i*n_i) keeps 16
// bits of precision where the UCB index needs it: the discount of line 10
// multiplies RewardACC and ArmTriedNum alike, so it leaves the mean
// unchanged, and only the played arm's mean moves: mu += (x - mu)/n(t),
// stochastically rounded (see UpdateQ). What 16 bits cannot give: the mean
// of an arm played n times carries a rounding random walk of about
// 2^-16*sqrt(n/8) (2e-4 at n = 2000), while UCB keeps the best indices
// within ~1e-5 of each other, so over long runs the arm chosen in a given
// iteration often differs from float64's, always among near ties; what is
// learnt does not (TestFixedMatchesFloat).
//
// Computation uses 64-bit intermediates: counts in Q.14 (the float's
// finest step), reward and index in Q.16, log2 by Turner's bit-by-bit
// squaring (Dolce-RC, Ye 2023 refs. [17], [19]), ln = log2*ln2, an integer square
// root, and one division per update and per index. The tables gamma^c and
// sum_{k<=c} gamma^-k (Q.32) for c in [0, floor(K/epsilon)] are
// configuration (shared by every connection), not per-connection state.
// Iteration's t is kept for reporting and to seed the rounding dither (see
// UpdateQ).
type Fixed struct {
	cfg    Config
	period int64
	gpow   []uint64 // gpow[c] = gamma^c in Q.32, c in [0, period]
	cum    []uint64 // cum[c] = sum_{k=1..c} gamma^-k in Q.32, c in [0, period]
	xiQ    uint64   // xi in Q.16

	m, mu []uint16
	r     int64 // t mod period
	t     int64 // not stored in the NIC: for Iteration, Describe and the dither
	arm   int
}

var _ Policy = (*Fixed)(nil)

// MaxFixedPeriod is the largest floor(K/epsilon) Fixed accepts: r is kept
// in 10 bits of Dolce-RC's fifth DWORD.
const MaxFixedPeriod = 1 << 10

// NewFixed validates cfg (filling its defaults) and returns a fixed-point
// bandit at t = 0.
func NewFixed(cfg Config) (*Fixed, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	period := cfg.Period()
	if period > MaxFixedPeriod {
		return nil, fmt.Errorf("fixed point: floor(K/epsilon) = %d exceeds %d (10 bits)", period, MaxFixedPeriod)
	}
	if cfg.Xi > 1000 {
		return nil, fmt.Errorf("fixed point: xi must be at most 1000, got %v", cfg.Xi)
	}
	f := &Fixed{cfg: cfg, period: period, m: make([]uint16, cfg.K), mu: make([]uint16, cfg.K)}
	f.xiQ = uint64(math.Round(cfg.Xi * 65536))

	// gamma^c and gamma^-c in Q.32 by repeated integer multiplication.
	g32 := uint64(math.Round(cfg.Gamma * (1 << 32)))
	gi32 := uint64(math.Round((1 << 32) / cfg.Gamma))
	f.gpow = make([]uint64, period+1)
	f.cum = make([]uint64, period+1)
	f.gpow[0] = 1 << 32
	inv := uint64(1 << 32)
	for c := int64(1); c <= period; c++ {
		f.gpow[c] = mulQ32(f.gpow[c-1], g32)
		inv = mulQ32(inv, gi32)
		f.cum[c] = f.cum[c-1] + inv
	}
	if lim := float64(inv) / (1 << 32) / (1 - cfg.Gamma); lim >= 8192 {
		return nil, fmt.Errorf("fixed point: gamma %v too close to 1: counts up to gamma^-%d/(1-gamma) = %.0f must stay below 8192", cfg.Gamma, period, lim)
	}
	f.arm = f.choose()
	return f, nil
}

// decode is the value of a stored count in Q.14.
func decode(u uint16) uint64 {
	e, mant := uint(u>>12), uint64(u&0xFFF)
	if e <= 1 {
		return uint64(u) // e = 0: mant; e = 1: 4096 + mant
	}
	return (4096 + mant) << (e - 1)
}

// encode rounds x (Q.14) to the nearest stored count, saturating at the
// largest.
func encode(x uint64) uint16 {
	if x < 8192 {
		return uint16(x)
	}
	e := uint(bits.Len64(x)) - 12 // x in [2^(e+11), 2^(e+12))
	q := roundShift(x, e-1)       // in [4096, 8192]
	if q == 8192 {
		q, e = 4096, e+1
	}
	if e > 15 {
		return 0xFFFF
	}
	return uint16(e<<12 | uint(q-4096))
}

// mulQ32 is a*b/2^32 rounded to nearest, for Q.32 operands.
func mulQ32(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	lo, carry := bits.Add64(lo, 1<<31, 0)
	hi += carry
	return hi<<32 | lo>>32
}

// roundShift is x/2^s rounded to nearest, s >= 1.
func roundShift(x uint64, s uint) uint64 { return (x + 1<<(s-1)) >> s }

// Config returns the validated configuration.
func (f *Fixed) Config() Config { return f.cfg }

// Arm is I_t, the arm of the current iteration.
func (f *Fixed) Arm() int { return f.arm }

// Iteration is t, the number of rewards observed so far.
func (f *Fixed) Iteration() int64 { return f.t }

// Slot is r = t mod floor(K/epsilon) (Algorithm 1 line 3), the part of the
// iteration count the NIC stores.
func (f *Fixed) Slot() int64 { return f.r }

// Exploring reports whether the current iteration is an exploration slot.
func (f *Fixed) Exploring() bool { return f.r < int64(f.cfg.K) }

// Count is n_i(t-1) as the stored state represents it.
func (f *Fixed) Count(i int) float64 {
	return float64(decode(f.m[i])) / (1 << 14) * float64(f.gpow[f.r]) / (1 << 32)
}

// Mean is the stored discounted mean reward of arm i.
func (f *Fixed) Mean(i int) float64 { return float64(f.mu[i]) / 65536 }

// Update observes reward x for arm, rounded to Q0.16 (see UpdateQ).
func (f *Fixed) Update(arm int, x float64) {
	f.UpdateQ(arm, QuantizeReward(x))
}

// QuantizeReward rounds x in [0, 1] to Q0.16, saturating at 65535; NaN
// and negative values give 0.
func QuantizeReward(x float64) uint16 {
	x = clampReward(x)
	return uint16(min(65535, math.Round(x*65536)))
}

// UpdateQ observes reward xq (Q0.16) for arm: lines 9-10 of Algorithm 1
// in the block-scaled form described on Fixed, then lines 3-8 for t+1.
func (f *Fixed) UpdateQ(arm int, xq uint16) {
	if arm < 0 || arm >= f.cfg.K {
		panic("drucb.UpdateQ: arm out of range")
	}
	c := f.r + 1
	m := decode(encode(decode(f.m[arm]) + f.increment(f.m[arm], c)))
	f.m[arm] = encode(m)
	// n_arm(t) = value*gamma^c in Q.16, at least 1 after a play.
	n16 := max(1, roundShift(m*f.gpow[c], 30))
	// NB: delta = (x - mu)/n(t) in Q.16 ulps, plus a dither in [0, 1),
	// floored: stochastic rounding. Rounding to nearest would leave a dead
	// zone (with n = 2700 a reward within 0.02 of the mean changes
	// nothing, so an exploited arm's mean sticks), and since the mean is
	// an average over about n = 5000 updates, any per-update bias b is
	// amplified to n*b: the dither must average 1/2 to better than 1e-4,
	// which a short deterministic sequence indexed by r does not. It is a
	// hash of t (splitmix64), standing for the NIC's hardware random
	// number generator; t is not part of the stored state.
	d := int64(xq) - int64(f.mu[arm])
	dither := int64((splitmix.Next(uint64(f.t)) >> 48) * n16 >> 16)
	delta := floorDiv(d<<16+dither, int64(n16))
	f.mu[arm] = uint16(min(65535, max(0, int64(f.mu[arm])+delta)))
	if c == f.period {
		for i, v := range f.m {
			f.m[i] = encode(mulQ32(decode(v), f.gpow[f.period]))
		}
		c = 0
	}
	f.r = c
	f.t++
	f.arm = f.choose()
}

// increment is gamma^-c in Q.14 rounded to a multiple of the unit in the
// last place of the stored count u. NB: rounding each increment to nearest
// would always round gamma^-c in [1, 1.055] to 1 once counts reach 512
// (ulp 1/8 and more), undercounting by 2.7 % on average; rounding the
// cumulative sum (Bresenham) instead makes the increments of an arm
// played in every slot add up exactly over a block of floor(K/epsilon).
func (f *Fixed) increment(u uint16, c int64) uint64 {
	s := uint(0)
	if e := uint(u >> 12); e >= 2 {
		s = e - 1
	}
	return (roundShift(f.cum[c], 18+s) - roundShift(f.cum[c-1], 18+s)) << s
}

// floorDiv is floor(a/b), b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// IndexQ is arm i's index (Algorithm 1 line 7) in Q.16; MaxUint64 for an
// arm whose count is 0.
func (f *Fixed) IndexQ(i int) uint64 {
	if f.m[i] == 0 {
		return math.MaxUint64
	}
	n16 := max(1, roundShift(decode(f.m[i])*f.gpow[f.r], 30))
	var sum uint64
	for _, v := range f.m {
		sum += decode(v)
	}
	total16 := roundShift(sum*f.gpow[f.r], 30)
	var ln16 uint64
	if total16 > 1<<16 {
		ln16 = (log2Q16(total16) * ln2Q16) >> 16
	}
	bonus2 := (f.xiQ * ln16 << 16) / n16 // Q.32
	return uint64(f.mu[i]) + isqrt(bonus2)
}

// Index is IndexQ as a float, +Inf for an arm never played.
func (f *Fixed) Index(i int) float64 {
	q := f.IndexQ(i)
	if q == math.MaxUint64 {
		return math.Inf(1)
	}
	return float64(q) / 65536
}

func (f *Fixed) choose() int {
	if f.r < int64(f.cfg.K) {
		return int(f.r)
	}
	best, bestIdx := 0, uint64(0)
	for i := range f.m {
		if idx := f.IndexQ(i); i == 0 || idx > bestIdx {
			best, bestIdx = i, idx
		}
	}
	return best
}

// ln2Q16 is ln 2 in Q.16.
const ln2Q16 = 45426

// log2Q16 is log2 of x (Q.16, x >= 1.0) in Q.16, by Turner's algorithm:
// the integer part from the leading bit, then one fractional bit per
// squaring of the mantissa (kept in Q.31).
func log2Q16(x uint64) uint64 {
	ip := bits.Len64(x) - 1 - 16         // floor(log2 x), x >= 2^16
	y := x << (64 - bits.Len64(x)) >> 32 // mantissa in [1, 2), Q.31
	res := uint64(ip) << 16
	for b := uint64(1) << 15; b > 0; b >>= 1 {
		y = y * y >> 31
		if y >= 2<<31 {
			y >>= 1
			res |= b
		}
	}
	return res
}

// isqrt is floor(sqrt(x)).
func isqrt(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	r := uint64(math.Sqrt(float64(x))) // NB: exact IEEE sqrt, then corrected
	for r*r > x {
		r--
	}
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// AppendState appends the stored per-arm state, 4 bytes per arm: m_i then
// mu_i, each a little-endian uint16 (see Fixed).
func (f *Fixed) AppendState(b []byte) []byte {
	for i := range f.m {
		b = binary.LittleEndian.AppendUint16(b, f.m[i])
		b = binary.LittleEndian.AppendUint16(b, f.mu[i])
	}
	return b
}

// Describe formats the state like Bandit.Describe, from the stored values.
func (f *Fixed) Describe() string {
	n := make([]float64, f.cfg.K)
	for i := range n {
		n[i] = f.Count(i)
	}
	return describe(f.t, f.arm, f.Exploring(), n, func(i int) (float64, bool) {
		if f.m[i] == 0 {
			return 0, false
		}
		return f.Mean(i), true
	})
}

// String is Describe.
func (f *Fixed) String() string { return f.Describe() }
