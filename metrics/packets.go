package metrics

import (
	"fmt"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// PacketStats is what one streaming pass over packets.parquet gives: counts
// that summary.json also holds (so that a run's per-packet log can be
// checked against its per-flow and per-port rows) and packet-weighted
// queue statistics at switch hops. Fields ending in _pkts count rows.
//
// Which rows are which (schema/v1, replay's packet tap):
//
//	sent by a NIC    = event dequeue, node == src   (a host's egress)
//	a switch hop     = event dequeue, node != src   (a switch's egress)
//	delivered        = event deliver                (the destination NIC)
//	dropped          = event drop                   (a switch, buffer full)
type PacketStats struct {
	// Rows is the number of rows of the file (summary.json packet_rows).
	Rows int64 `json:"packet_rows"`
	// RowsByKind counts rows per packet kind (DATA, ACK, NACK, CNP, PAUSE,
	// RESUME); only DATA appears in a --packets data log.
	RowsByKind map[string]int64 `json:"rows_by_kind"`
	// DataSentPkts counts DATA rows sent by a NIC, retransmissions
	// included: Σ data_pkts_sent of the flows (summary.json data_packets).
	DataSentPkts int64 `json:"data_sent_pkts"`
	// DataDeliveredPkts counts DATA rows delivered to the destination NIC,
	// duplicates of go-back-N included.
	DataDeliveredPkts int64 `json:"data_delivered_pkts"`
	// CEDeliveredPkts counts delivered DATA rows with CE set: Σ ce_pkts of
	// the flows.
	CEDeliveredPkts int64 `json:"ce_delivered_pkts"`
	// DropsPkts and DropsBytes count drop rows and their wire bytes; with a
	// --packets all log they equal Σ dropped_pkts / dropped_bytes of the
	// ports. DropsByKind splits DropsPkts by packet kind.
	DropsPkts   int64            `json:"drops_pkts"`
	DropsBytes  int64            `json:"drops_bytes"`
	DropsByKind map[string]int64 `json:"drops_by_kind"`
	// SwitchQueueDelayNs is queue_delay_ns over the DATA switch hops, ns:
	// the time each data packet waited in each switch egress queue it
	// crossed (packet-weighted, unlike ports.parquet's time-weighted queue
	// lengths). Percentiles as described on Hist.
	SwitchQueueDelayNs HistStats `json:"switch_queue_delay_ns"`
	// SwitchQDepthBytes is qdepth_enq_bytes over the same hops, bytes: the
	// egress queue a data packet found when it was enqueued.
	SwitchQDepthBytes HistStats `json:"switch_qdepth_enq_bytes"`
	// FirstNs and LastNs are the smallest and largest t_ns, ns (0 when
	// the file has no rows).
	FirstNs int64 `json:"first_ns"`
	LastNs  int64 `json:"last_ns"`
}

// PacketAccumulator computes PacketStats one row at a time, in memory that
// does not grow with the rows: a few counters, two Hists, and a count per
// distinct kind. The zero value is not ready: use NewPacketAccumulator.
type PacketAccumulator struct {
	s            PacketStats
	delay, depth Hist
}

// NewPacketAccumulator returns an empty accumulator.
func NewPacketAccumulator() *PacketAccumulator {
	return &PacketAccumulator{s: PacketStats{
		RowsByKind: map[string]int64{}, DropsByKind: map[string]int64{},
	}}
}

// maxKinds bounds the distinct kind strings an accumulator counts, so a
// file with garbage in its kind column cannot grow it (schema/v1 has six).
const maxKinds = 64

// Add accounts for one row. A row with an unknown event, too many distinct
// kinds or a negative queue delay or depth at a switch hop is an error
// naming the column and value.
func (a *PacketAccumulator) Add(r *v2.PacketRow) error {
	s := &a.s
	if s.Rows == 0 {
		s.FirstNs, s.LastNs = r.TNs, r.TNs
	}
	s.FirstNs, s.LastNs = min(s.FirstNs, r.TNs), max(s.LastNs, r.TNs)
	if _, ok := s.RowsByKind[r.Kind]; !ok && len(s.RowsByKind) >= maxKinds {
		return fmt.Errorf("kind: more than %d distinct values (%q)", maxKinds, r.Kind)
	}
	s.Rows++
	s.RowsByKind[r.Kind]++
	data := r.Kind == v2.KindData
	switch r.Event {
	case v2.EventDequeue:
		switch {
		case !data:
		case r.Node == r.Src:
			s.DataSentPkts++
		default:
			if err := a.delay.Add(r.QueueDelayNs); err != nil {
				return fmt.Errorf("queue_delay_ns: %v at t_ns %d", err, r.TNs)
			}
			if err := a.depth.Add(r.QDepthBytes); err != nil {
				return fmt.Errorf("qdepth_enq_bytes: %v at t_ns %d", err, r.TNs)
			}
		}
	case v2.EventDeliver:
		if data {
			s.DataDeliveredPkts++
			if r.CE {
				s.CEDeliveredPkts++
			}
		}
	case v2.EventDrop:
		s.DropsPkts++
		s.DropsBytes += int64(r.Bytes)
		s.DropsByKind[r.Kind]++
	default:
		return fmt.Errorf("event: unknown value %q at t_ns %d (want %s, %s or %s)",
			r.Event, r.TNs, v2.EventDequeue, v2.EventDeliver, v2.EventDrop)
	}
	return nil
}

// Stats returns the statistics of the rows added so far.
func (a *PacketAccumulator) Stats() PacketStats {
	s := a.s
	s.RowsByKind, s.DropsByKind = clone(s.RowsByKind), clone(s.DropsByKind)
	s.SwitchQueueDelayNs = a.delay.Stats()
	s.SwitchQDepthBytes = a.depth.Stats()
	return s
}

func clone(m map[string]int64) map[string]int64 {
	c := make(map[string]int64, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// CheckPackets compares packet statistics with the summary of the same
// run and returns one line per disagreement (none when they agree). all
// tells whether the log has control packets too (--packets all): only then
// must its drops equal the ports' drops, since a data log leaves dropped
// control packets out. The checks are exact.
func CheckPackets(p PacketStats, s Summary, all bool) []string {
	var out []string
	eq := func(what string, got, want int64) {
		if got != want {
			out = append(out, fmt.Sprintf("%s: %d from the packet rows, %d from the flow/port rows", what, got, want))
		}
	}
	eq("data packets sent (data_pkts_sent)", p.DataSentPkts, s.DataPktsSent)
	eq("CE-marked data packets delivered (ce_pkts)", p.CEDeliveredPkts, s.CEPkts)
	if all {
		eq("dropped packets (drops_pkts)", p.DropsPkts, s.DropsPkts)
		eq("dropped bytes (drops_bytes)", p.DropsBytes, s.DropsBytes)
	} else if p.DropsPkts > s.DropsPkts {
		out = append(out, fmt.Sprintf("dropped packets: %d in the packet rows, more than the ports' %d", p.DropsPkts, s.DropsPkts))
	}
	return out
}
