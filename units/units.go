// Package units defines the simulator's integer units: time in picoseconds,
// sizes in bytes and rates in bits per second, with parsing and conversion
// helpers shared by every other package.
package units

import (
	"fmt"
	"math"
	"math/bits"
)

// Time is simulated time in picoseconds. A 64 B frame at 800 Gb/s lasts
// 640 ps; int64 picoseconds cover about 106 days.
type Time int64

// Bytes is a size in bytes.
type Bytes int64

// BitsPerSec is a rate in bits per second.
type BitsPerSec int64

// Never is a time later than any event of a run.
const Never Time = math.MaxInt64

// Time constants.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// Rate constants.
const (
	Kbps BitsPerSec = 1000
	Mbps BitsPerSec = 1000 * Kbps
	Gbps BitsPerSec = 1000 * Mbps
)

// Size constants (decimal, as the papers use: MB means 10^6 bytes).
const (
	KB Bytes = 1000
	MB Bytes = 1000 * KB
	GB Bytes = 1000 * MB
)

// Nanoseconds returns t truncated to whole nanoseconds, the unit of outputs.
func (t Time) Nanoseconds() int64 { return int64(t) / 1000 }

// Seconds returns t as floating-point seconds.
func (t Time) Seconds() float64 { return float64(t) / 1e12 }

// Microseconds returns n microseconds as a Time.
func Microseconds(n float64) Time { return Time(math.Round(n * 1e6)) }

// Nanos returns n nanoseconds as a Time.
func Nanos(n int64) Time { return Time(n) * Nanosecond }

// String formats t with a unit that keeps it readable (e.g. "12.5us").
func (t Time) String() string {
	switch {
	case t == Never:
		return "never"
	case t%Second == 0 && t != 0:
		return fmt.Sprintf("%ds", t/Second)
	case t >= Millisecond || t <= -Millisecond:
		return trimFloat(float64(t)/float64(Millisecond)) + "ms"
	case t >= Microsecond || t <= -Microsecond:
		return trimFloat(float64(t)/float64(Microsecond)) + "us"
	case t >= Nanosecond || t <= -Nanosecond:
		return trimFloat(float64(t)/float64(Nanosecond)) + "ns"
	default:
		return fmt.Sprintf("%dps", int64(t))
	}
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.6f", f)
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// String formats r as e.g. "100Gbps".
func (r BitsPerSec) String() string {
	switch {
	case r >= Gbps && r%Gbps == 0:
		return fmt.Sprintf("%dGbps", r/Gbps)
	case r >= Gbps:
		return trimFloat(float64(r)/float64(Gbps)) + "Gbps"
	case r >= Mbps:
		return trimFloat(float64(r)/float64(Mbps)) + "Mbps"
	default:
		return fmt.Sprintf("%dbps", int64(r))
	}
}

// TxTime is the serialization time of n bytes at rate r, rounded up to the
// next picosecond so that a link never carries more than its rate. A time
// that int64 picoseconds cannot hold saturates to Never; a negative n
// counts as 0. It panics on a non-positive rate (a configuration bug
// caught earlier by validation).
func TxTime(n Bytes, r BitsPerSec) Time {
	if r <= 0 {
		panic("units.TxTime: non-positive rate")
	}
	if n <= 0 {
		return 0
	}
	// n*8*1e12/r without overflow: 128-bit multiply then divide.
	hi, lo := bits.Mul64(uint64(n), 8e12)
	if hi >= uint64(r) {
		return Never // the quotient needs more than 64 bits
	}
	q, rem := bits.Div64(hi, lo, uint64(r))
	if rem != 0 {
		q++
	}
	if q > uint64(Never) {
		return Never
	}
	return Time(q)
}

// BytesIn is the number of whole bytes that rate r carries in duration d,
// saturating at the largest Bytes (0 for d <= 0 or r <= 0).
func BytesIn(d Time, r BitsPerSec) Bytes {
	if d <= 0 {
		return 0
	}
	if r <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(d), uint64(r))
	if hi >= uint64(8e12) {
		return math.MaxInt64 // beyond int64 bytes: saturate
	}
	q, _ := bits.Div64(hi, lo, uint64(8e12))
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return Bytes(q)
}
