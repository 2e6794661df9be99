package cdf

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Convention is how a CDF table is turned into a distribution.
type Convention int

const (
	// Auto means "the file format's own convention" (see the package
	// comment). A Dist never has it.
	Auto Convention = iota
	// Linear interpolates sizes between the table's points (HPCC).
	Linear
	// Step gives each point's size the probability mass between its CDF
	// value and the previous one (Opera, Homa).
	Step
)

// conventionNames are the conventions' names, indexed by Convention: what
// String prints and ParseConvention reads.
var conventionNames = [...]string{Auto: "auto", Linear: "linear", Step: "step"}

// String returns "auto", "linear" or "step".
func (c Convention) String() string {
	if c >= 0 && int(c) < len(conventionNames) {
		return conventionNames[c]
	}
	return fmt.Sprintf("Convention(%d)", int(c))
}

// ParseConvention parses "auto", "linear" or "step" (case-insensitive; ""
// is auto).
func ParseConvention(s string) (Convention, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "" {
		return Auto, nil
	}
	for c, n := range conventionNames {
		if name == n {
			return Convention(c), nil
		}
	}
	return Auto, fmt.Errorf("invalid convention %q (want auto, linear or step)", s)
}

// Dist is a flow-size distribution: a CDF table under a convention,
// optionally with a parametric tail. It is immutable and safe for
// concurrent use.
type Dist struct {
	// Name is where the distribution came from: a file path, or the
	// name given to New.
	Name string
	// Family is the family name when the distribution was loaded by
	// name (see Resolve), else "".
	Family string
	// Format is the file format: "hpcc", "opera", "homa", or "table" for
	// a distribution built with New.
	Format string
	// Convention is Linear or Step.
	Convention Convention
	// PacketBytes is the bytes per packet the sizes were multiplied by,
	// for files whose sizes are in packets; 0 when sizes are bytes.
	PacketBytes int64
	// HeaderMean is the mean size the file states on its first line
	// (homa format), in bytes after any packet scaling; 0 when the file
	// states none. Mean is computed from the table, not taken from here.
	HeaderMean float64

	sizes []float64 // bytes, non-decreasing
	cdf   []float64 // fractions, non-decreasing, last 1 (or tail.from)
	tail  *gpdTail  // parametric tail above the table, or nil
	mean  float64   // bytes
	m2    float64   // second moment, bytes^2
}

// New builds a distribution from points (sizes in bytes, cdf as fractions
// in [0, 1], both non-decreasing, the last cdf 1) under conv (Linear or
// Step). name labels it in messages.
func New(name string, sizes, cdf []float64, conv Convention) (*Dist, error) {
	if len(sizes) != len(cdf) {
		return nil, fmt.Errorf("%s: %d sizes but %d cdf values", name, len(sizes), len(cdf))
	}
	for i := range sizes {
		if err := checkPoint(sizes, cdf, i, 1); err != nil {
			return nil, fmt.Errorf("%s: point %d: %w", name, i+1, err)
		}
	}
	for i, s := range sizes {
		if s > maxSize {
			return nil, fmt.Errorf("%s: point %d: size %v above the %g B limit", name, i+1, s, float64(maxSize))
		}
	}
	d := &Dist{Name: name, Format: "table", sizes: append([]float64(nil), sizes...), cdf: append([]float64(nil), cdf...)}
	if err := d.finish(conv); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

// checkPoint checks point i against the previous one; top is the CDF's
// full scale (1, or 100 for percent), and messages show the values as
// given.
func checkPoint(sizes, cdf []float64, i int, top float64) error {
	s, c := sizes[i], cdf[i]
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0) || s < 0:
		return fmt.Errorf("size %v must be a finite number >= 0", s)
	case math.IsNaN(c) || c < 0 || c > top*(1+cdfSlack):
		return fmt.Errorf("cdf %v must be in [0, %v]", c, top)
	case i > 0 && s < sizes[i-1]:
		return fmt.Errorf("size %v below the previous %v: sizes must not decrease", s, sizes[i-1])
	case i > 0 && c < cdf[i-1]:
		return fmt.Errorf("cdf %v below the previous %v: a CDF must not decrease", c, cdf[i-1])
	}
	return nil
}

// maxSize bounds a flow size, 1 TB: far above any published distribution,
// low enough that sums of many flows fit an int64.
const maxSize = 1e12

// cdfSlack is how far the last CDF value may miss 1 (100 %) and still be
// taken as 1: rounding in published tables.
const cdfSlack = 1e-6

// finish checks that the table ends at 1 (unless a tail continues it),
// sets the convention and computes the moments.
func (d *Dist) finish(conv Convention) error {
	if len(d.sizes) == 0 {
		return fmt.Errorf("no points")
	}
	last := d.cdf[len(d.cdf)-1]
	if d.tail == nil {
		if math.Abs(last-1) > cdfSlack {
			return fmt.Errorf("the CDF ends at %v, not at 1 (100 %%)", last)
		}
		d.cdf[len(d.cdf)-1] = 1
	}
	if d.tail != nil && conv == Linear {
		return errors.New("this distribution continues its table with a parametric (generalized Pareto) tail and is only defined under the step convention")
	}
	if conv != Linear && conv != Step {
		return fmt.Errorf("convention %v: want linear or step", conv)
	}
	d.Convention = conv
	d.mean, d.m2 = d.moments()
	return nil
}

// Mean is the mean flow size in bytes under the convention, computed
// from the table (and the tail's closed form): for Step the sum of
// size_i x (cdf_i - cdf_{i-1}); for Linear the first size times its CDF
// plus, for each segment, the midpoint size times the segment's mass.
func (d *Dist) Mean() float64 { return d.mean }

// moments returns E[S] and E[S^2] of the continuous distribution (before
// rounding to whole bytes).
func (d *Dist) moments() (m1, m2 float64) {
	prev := 0.0
	for i, s := range d.sizes {
		w := d.cdf[i] - prev
		if d.Convention == Linear && i > 0 {
			a := d.sizes[i-1]
			m1 += w * (a + s) / 2
			m2 += w * (a*a + a*s + s*s) / 3
		} else {
			m1 += w * s
			m2 += w * s * s
		}
		prev = d.cdf[i]
	}
	if d.tail != nil {
		w := 1 - prev
		t1, t2 := d.tail.moments()
		m1 += w * t1
		m2 += w * t2
	}
	return m1, m2
}

// Sample maps u, uniform in [0, 1), to a flow size in bytes (>= 1).
// Values of u outside [0, 1) are clamped into it.
func (d *Dist) Sample(u float64) int64 {
	switch {
	case !(u > 0): // also NaN
		u = 0
	case u >= 1:
		u = math.Nextafter(1, 0)
	}
	var x float64
	if d.tail != nil && u > d.cdf[len(d.cdf)-1] {
		x = d.tail.quantile(u)
	} else {
		i := sort.SearchFloat64s(d.cdf, u) // first i with cdf[i] >= u
		switch {
		case i >= len(d.cdf): // only with a tail; handled above
			i = len(d.cdf) - 1
			x = d.sizes[i]
		case d.Convention == Step || i == 0:
			x = d.sizes[i]
		default:
			c0, c1 := d.cdf[i-1], d.cdf[i] // c0 < u <= c1
			x0, x1 := d.sizes[i-1], d.sizes[i]
			x = x0 + (x1-x0)*(u-c0)/(c1-c0)
		}
	}
	return max(1, int64(math.Round(x)))
}

// Points returns copies of the table: sizes in bytes and CDF fractions.
func (d *Dist) Points() (sizes, cdf []float64) {
	return append([]float64(nil), d.sizes...), append([]float64(nil), d.cdf...)
}

// String describes d, e.g. "websearch data/hpcc/WebSearch_distribution.txt
// (hpcc, linear): mean 1711250 B".
func (d *Dist) String() string {
	s := d.Name
	if d.Family != "" {
		s = d.Family + " " + s
	}
	s += fmt.Sprintf(" (%s, %s", d.Format, d.Convention)
	if d.PacketBytes > 0 {
		s += fmt.Sprintf(", sizes in packets of %d B", d.PacketBytes)
	}
	if d.tail != nil {
		s += ", generalized Pareto tail"
	}
	return s + fmt.Sprintf("): mean %.0f B", d.mean)
}
