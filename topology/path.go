package topology

import (
	"math"
	"math/bits"

	"github.com/ccreplay/ccreplay/units"
)

// PathBaseRTT is the round trip of one data packet of dataBytes (wire size,
// bytes) and its ACK of ackBytes along path without queueing, assuming the
// ACK returns over the same links:
//
//	sum over hops of 2*Delay + TxTime(dataBytes, Rate) + TxTime(ackBytes, Rate)
//
// in picoseconds, with units.TxTime's round-up per hop.
func PathBaseRTT(path []Hop, dataBytes, ackBytes units.Bytes) units.Time {
	var rtt units.Time
	for _, h := range path {
		rtt += 2*h.Delay + units.TxTime(dataBytes, h.Rate) + units.TxTime(ackBytes, h.Rate)
	}
	return rtt
}

// PathBottleneck returns the lowest link rate on path in bits per second, or
// 0 for an empty path.
func PathBottleneck(path []Hop) units.BitsPerSec {
	var b units.BitsPerSec
	for i, h := range path {
		if i == 0 || h.Rate < b {
			b = h.Rate
		}
	}
	return b
}

// PathOneWay returns the sum of the propagation delays on path, in
// picoseconds.
func PathOneWay(path []Hop) units.Time {
	var d units.Time
	for _, h := range path {
		d += h.Delay
	}
	return d
}

// NumPackets returns how many packets carry payload bytes when each carries
// at most mtuPayload payload bytes: ceil(payload/mtuPayload), and 1 for an
// empty message (which still sends one header-only packet). It panics when
// mtuPayload <= 0.
func NumPackets(payload, mtuPayload units.Bytes) int64 {
	if mtuPayload <= 0 {
		panic("topology.NumPackets: non-positive mtuPayload")
	}
	if payload <= 0 {
		return 1
	}
	return int64((payload + mtuPayload - 1) / mtuPayload)
}

// IdealOneWay is the exact time, in picoseconds, from the first bit of a
// message leaving the sender to its last byte arriving at the receiver when
// the message is alone on path: payload bytes cut into NumPackets packets of
// at most mtuPayload payload bytes plus header bytes each, sent back to back
// at the first hop's rate, every link store-and-forward and FIFO, each
// packet's serialization time units.TxTime(wire bytes, rate).
//
// Packet i leaves hop k at F(i,k) = max(F(i,k-1) + Delay(k-1), F(i-1,k)) +
// tx(i,k), so the last arrival is the sum of all delays plus the longest
// chain of tx(i,k) over monotone staircases from (first packet, first hop)
// to (last packet, last hop). All packets but the last have the same size
// P and the last one has L <= P, so the longest chain runs the full-size
// packets through hops 1..m staying on the slowest of them, then the last
// packet through hops m..H:
//
//	sum(delays) + max over m of [ sum_{k<=m} tx(P,k) + (n-2) max_{k<=m} tx(P,k) + sum_{k>=m} tx(L,k) ]
//
// for n >= 2 packets (sum_k tx(P,k) for one). NB: when every packet has the
// same size this is the familiar "first packet up to the slowest hop b,
// every packet through b, last packet after b"; with a shorter last packet
// that formula can be too small (two equal hops, 1000 B then 100 B: the
// full packet, not the short one, is still on the second hop), which is why
// the maximum over m is taken. An empty path gives 0.
func IdealOneWay(path []Hop, payload, mtuPayload, header units.Bytes) units.Time {
	if len(path) == 0 {
		return 0
	}
	n := NumPackets(payload, mtuPayload)
	first := min(max(payload, 0), mtuPayload) + header
	last := max(payload, 0) - units.Bytes(n-1)*mtuPayload + header
	delays := PathOneWay(path)
	if n == 1 {
		var t units.Time
		for _, h := range path {
			t += units.TxTime(first, h.Rate)
		}
		return delays + t
	}
	var suffixLast units.Time // sum_{k>=m} tx(L,k), shrinking as m grows
	for _, h := range path {
		suffixLast += units.TxTime(last, h.Rate)
	}
	var prefixFirst, maxFirst, best units.Time
	for _, h := range path {
		tp := units.TxTime(first, h.Rate)
		prefixFirst += tp
		maxFirst = max(maxFirst, tp)
		best = max(best, prefixFirst+units.Time(n-2)*maxFirst+suffixLast)
		suffixLast -= units.TxTime(last, h.Rate)
	}
	return delays + best
}

// NS3BaseRTT is the HPCC ns-3 simulator's base round-trip time of a path
// (third.cc: CalculateRoute accumulates it per host pair, CalculateRoutes
// sums it into pairRtt), in picoseconds and always whole nanoseconds:
//
//	2 * sum of the links' propagation delays + sum over links of payload * 8 / rate
//
// in integer nanoseconds, each link's serialization term truncated: one
// packet's payload (not its headers, not the ACK) serialized once per
// hop. On a one-switch star of 100 Gb/s, 1 us links and 1000-byte
// payloads it is 4 us + 2 x 80 ns = 4160 ns.
func NS3BaseRTT(path []Hop, payload units.Bytes) units.Time {
	var delay, tx int64
	for _, h := range path {
		delay += int64(h.Delay / units.Nanosecond)
		tx += int64(mulDiv(uint64(max(payload, 0)), 8_000_000_000, uint64(max(h.Rate, 1))))
	}
	return units.Time(2*delay+tx) * units.Nanosecond
}

// NS3StandaloneFCT is the HPCC ns-3 simulator's standalone FCT, the
// denominator of its slowdown (third.cc qp_finish), in picoseconds and
// always whole nanoseconds:
//
//	NS3BaseRTT(path, payload) + (size + packets * header) * 8 / bottleneck
//
// with packets = ceil(size / payload), header the per-packet header bytes
// without INT (48 in the simulator), the path's slowest link as
// bottleneck, and the transmission term in integer nanoseconds,
// truncated. A 99,564-byte flow on the star above: 4160 + 104,364 * 8 /
// 100 = 12,509 ns. It is the time from the flow's start until the sender
// has the ACK of its last byte when the flow is alone, so it bounds the
// sender-side FCT, not the receiver-side one. An empty path gives 0.
func NS3StandaloneFCT(path []Hop, size, payload, header units.Bytes) units.Time {
	if len(path) == 0 || payload <= 0 {
		return 0
	}
	total := max(size, 0) + units.Bytes(NumPackets(size, payload))*header
	b := PathBottleneck(path)
	tx := mulDiv(uint64(total), 8_000_000_000, uint64(max(b, 1)))
	return NS3BaseRTT(path, payload) + units.Time(tx)*units.Nanosecond
}

// mulDiv is a*b/c truncated, without overflow in the product (the
// simulator's uint64 arithmetic does not overflow for its 32-bit sizes);
// the result saturates at MaxInt64.
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, c)
	return min(q, math.MaxInt64)
}
