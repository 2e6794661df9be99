package cdf

import (
	"math"
	"path/filepath"
	"strings"
)

// keyValueFile is the base name (without extension) of Homa's Facebook
// key-value distribution, whose table stops at a CDF of 0.47.
const keyValueFile = "FacebookKeyValueMsgSizeDist"

// Generalized Pareto parameters of the Facebook ETC value sizes above
// 15 B: Atikoglu et al., "Workload Analysis of a Large-Scale Key-Value
// Store", SIGMETRICS 2012, section 5.1 ("Generalized Pareto with
// parameters theta = 0, sigma = 214.476, k = 0.348238"), as
// HomaSimulation's MsgSizeDistributions.cc (getFacebookSizeInterarrival)
// uses them.
const (
	kvSigma = 214.476
	kvK     = 0.348238
	// kvMaxSize caps a drawn size, as HomaSimulation does (0x40000000).
	kvMaxSize = 1 << 30
)

// isKeyValue reports whether path names Homa's key-value distribution.
func isKeyValue(path string) bool {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base)) == keyValueFile
}

// gpdTail continues a table above its last point (from, at cdf p0) with
// a generalized Pareto distribution of shape k and scale sigma shifted
// to start at from.
type gpdTail struct {
	from, p0, sigma, k float64
}

// quantile is HomaSimulation's inversion for p0 < u < 1:
// from + ((1-p0)/(1-u))^k - 1) x sigma/k, capped at kvMaxSize.
func (t *gpdTail) quantile(u float64) float64 {
	x := t.from + (math.Pow((1-t.p0)/(1-u), t.k)-1)*t.sigma/t.k
	return min(x, kvMaxSize)
}

// moments returns E[X] and E[X^2] of the tail given that it is drawn:
// the shifted generalized Pareto moments, from + sigma/(1-k) and
// from^2 + 2 from sigma/(1-k) + 2 sigma^2/((1-k)(1-2k)), finite for
// k < 1/2. NB: the cap changes them by a relative 1e-18 or so
// (P(X > 2^30) = (1 + k 2^30/sigma)^(-1/k)), which is ignored.
func (t *gpdTail) moments() (m1, m2 float64) {
	e1 := t.sigma / (1 - t.k)
	e2 := 2 * t.sigma * t.sigma / ((1 - t.k) * (1 - 2*t.k))
	return t.from + e1, t.from*t.from + 2*t.from*e1 + e2
}
