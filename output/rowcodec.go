package output

import (
	"encoding/binary"
	"math"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// RowCodec writes a row as a record of Size bytes and reads it back: the
// form of a row in a Reorder's spill file, read only by the process that
// wrote it.
type RowCodec[T any] struct {
	Size   int
	Encode func(b []byte, row *T)
	Decode func(b []byte, row *T)
}

// FlowRowCodec and MessageRowCodec are the codecs of flows.parquet's and
// messages.parquet's rows: every field as an 8-byte little-endian word,
// in the order of the struct (a test fails when a field is left out).
var (
	FlowRowCodec    = codecOf(flowRowFields)
	MessageRowCodec = codecOf(messageRowFields)
)

// fields visits the fields of a row in order.
type fields interface {
	i64(p *int64)
	i32(p *int32)
	f64(p *float64)
}

func codecOf[T any](visit func(*T, fields)) RowCodec[T] {
	var zero T
	var c counter
	visit(&zero, &c)
	return RowCodec[T]{
		Size:   c.n * 8,
		Encode: func(b []byte, row *T) { visit(row, &encoder{b: b}) },
		Decode: func(b []byte, row *T) { visit(row, &decoder{b: b}) },
	}
}

type counter struct{ n int }

func (c *counter) i64(*int64)   { c.n++ }
func (c *counter) i32(*int32)   { c.n++ }
func (c *counter) f64(*float64) { c.n++ }

type encoder struct {
	b []byte
	i int
}

func (e *encoder) put(v uint64) { binary.LittleEndian.PutUint64(e.b[e.i:], v); e.i += 8 }
func (e *encoder) i64(p *int64) { e.put(uint64(*p)) }
func (e *encoder) i32(p *int32) { e.put(uint64(int64(*p))) }
func (e *encoder) f64(p *float64) {
	e.put(math.Float64bits(*p))
}

type decoder struct {
	b []byte
	i int
}

func (d *decoder) get() uint64 {
	v := binary.LittleEndian.Uint64(d.b[d.i:])
	d.i += 8
	return v
}
func (d *decoder) i64(p *int64)   { *p = int64(d.get()) }
func (d *decoder) i32(p *int32)   { *p = int32(int64(d.get())) }
func (d *decoder) f64(p *float64) { *p = math.Float64frombits(d.get()) }

func flowRowFields(r *v2.FlowRow, v fields) {
	v.i64(&r.FlowID)
	v.i32(&r.Src)
	v.i32(&r.Dst)
	v.i64(&r.SizeBytes)
	v.i64(&r.Packets)
	v.i64(&r.Messages)
	v.i64(&r.StartNs)
	v.i64(&r.FinishNs)
	v.i64(&r.FCTNs)
	v.i64(&r.IdealFCTNs)
	v.i64(&r.StandaloneNs)
	v.f64(&r.Slowdown)
	v.i64(&r.BaseRTTNs)
	v.i64(&r.BottleneckBps)
	v.i32(&r.Hops)
	v.i64(&r.DataPktsSent)
	v.i64(&r.DataBytesSent)
	v.i64(&r.CEPkts)
	v.i64(&r.CNPs)
	v.i64(&r.Nacks)
	v.i64(&r.Timeouts)
	v.i64(&r.RetxBytes)
	v.i64(&r.DroppedPkts)
	v.f64(&r.GoodputBps)
	v.i64(&r.FinalRateBps)
	v.i64(&r.SenderFinishNs)
	v.i64(&r.SenderFCTNs)
	v.f64(&r.SenderSlowdown)
	v.i64(&r.ConcurrentBytes)
	v.i64(&r.PFCPausedNs)
}

func messageRowFields(r *v2.MessageRow, v fields) {
	v.i64(&r.MsgID)
	v.i64(&r.FlowID)
	v.i32(&r.Src)
	v.i32(&r.Dst)
	v.i64(&r.SizeBytes)
	v.i64(&r.CollectiveID)
	v.i64(&r.ReleaseNs)
	v.i64(&r.FirstTxNs)
	v.i64(&r.FinishNs)
	v.i64(&r.MCTNs)
	v.i64(&r.IdealMCTNs)
	v.f64(&r.Slowdown)
	v.i64(&r.SenderDoneNs)
}
