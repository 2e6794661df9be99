package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// flowSeed mixes the draws' seed (the run's, or Options.DrawSeed) and a
// flow id into the seed of that flow's draws (independent of the order in
// which anything ran).
const flowSeed = 0x6a09e667f3bcc909

// estimateFlows builds each flow's row: its ideal on its real path plus
// its delays at the links of its path, combined by combine: the largest
// (CombineMax) or the sum (CombineSum); win is each link's window
// (LinkWindow). nic and ratio, when not nil (SenderNICsShares), are each
// flow's NICDelay and pacing ratio: its draws at represented links are
// matched on the ratio, and under CombineMax the delay is added to its
// delay at every link but its host's NIC's (those are read beyond the
// paced ideal; under CombineSum the NIC's own link holds the sharing
// once). seed seeds the draws. The flows are split over jobs workers: a flow's row depends on
// nothing but the flow and the links (its draws come from its own
// generator), so the rows are the same whatever jobs is.
func estimateFlows(jobs int, cfg *replay.Config, flows []replay.FlowPath, links []Link, win []float64, cl *Clusters, cont [][]float64, sims []linkSim, pooled []*Delays, mode, combine string, seed uint64, nic []units.Time, ratio []float64) []v2.FlowRow {
	// at[off[i]+h] is hop h of flow i: its link and what the flow's delay
	// there is made from, read link by link (each link's flows in turn)
	// rather than flow by flow (every hop another link's). Each (flow,
	// hop) is one link's, so the links can fill it in any order.
	off := make([]int, len(flows)+1)
	for i := range flows {
		off[i+1] = off[i] + len(flows[i].Path)
	}
	at := make([]hopAt, off[len(flows)])
	norm := make([]float64, len(links)) // NormWindow of each link
	split(jobs, len(links), linkChunk, func(lo, hi int) {
		for li := lo; li < hi; li++ {
			l := &links[li]
			norm[li] = NormWindow(l.Kind, win[li])
			own := mode == AggregateOwn && int(cl.Rep[li]) == li
			for k, fi := range l.Flows {
				x := hopAt{link: int32(li), own: own}
				if own {
					x.v = sims[li].delays.Own[k]
				} else {
					x.v = cont[li][k]
				}
				at[off[fi]+int(l.Hop[k])] = x
			}
		}
	})
	mtu, hdr := cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes
	w := wire{mtu + hdr, cfg.NIC.AckBytes}
	rows := make([]v2.FlowRow, len(flows))
	split(jobs, len(flows), flowChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f := &flows[i]
			rng := rand.New(rand.NewPCG(seed, uint64(f.ID)^flowSeed))
			pkts := topology.NumPackets(f.Size, mtu)
			ideal := topology.IdealOneWay(f.Path, f.Size, mtu, hdr)
			delay, most := 0.0, 0.0
			for _, x := range at[off[i]:off[i+1]] {
				d := x.v
				if !x.own {
					li := x.link
					r := 0.0
					if ratio != nil {
						r = ratio[i]
					}
					d = EffectivePackets(pkts, norm[li]) * pooled[cl.Of[li]].SamplePaced(int64(f.Size), x.v, r, float64(pkts) <= win[li], rng)
				}
				if nic != nil && combine == CombineMax && links[x.link].Kind != HostUp {
					d += float64(nic[i])
				}
				delay += d
				most = max(most, d)
			}
			if combine == CombineMax {
				delay = most
			}
			standalone := topology.NS3StandaloneFCT(f.Path, f.Size, mtu, hdr-cfg.NIC.INTBytes)
			row := v2.FlowRow{
				FlowID: int64(f.ID), Src: f.Src, Dst: f.Dst, SizeBytes: int64(f.Size), Packets: pkts, Messages: 1,
				StartNs: f.Start.Nanoseconds(), FinishNs: -1, FCTNs: -1, IdealFCTNs: ideal.Nanoseconds(),
				StandaloneNs: standalone.Nanoseconds(), BaseRTTNs: pathRTT(f, w).Nanoseconds(),
				BottleneckBps: int64(topology.PathBottleneck(f.Path)), Hops: int32(len(f.Path)),
				SenderFinishNs: -1, SenderFCTNs: -1,
			}
			if !math.IsNaN(delay) {
				fct := ideal + units.Time(math.Round(delay))
				row.FCTNs = fct.Nanoseconds()
				row.FinishNs = row.StartNs + row.FCTNs
				row.Slowdown = float64(fct) / float64(ideal)
				if fct > 0 {
					row.GoodputBps = float64(f.Size) * 8 / fct.Seconds()
				}
				// The sender learns of the last byte one ACK's trip later,
				// without queueing on the way back (an approximation: the
				// link simulations measure delivery, not ACK return).
				sfct := fct + ackReturn(f.Path, cfg.NIC.AckBytes)
				row.SenderFCTNs = int64(sfct / units.Nanosecond)
				row.SenderFinishNs = row.StartNs + row.SenderFCTNs
				if standalone > 0 {
					row.SenderSlowdown = float64(row.SenderFCTNs*int64(units.Nanosecond)) / float64(standalone)
				}
			}
			rows[i] = row
		}
	})
	return rows
}

// hopAt is one hop of a flow as estimateFlows reads it: the link and,
// when own, the flow's own delay there, ps, else its backlog there (the
// draw's match, Backlog).
type hopAt struct {
	v    float64
	link int32
	own  bool
}

// ackReturn is an ACK's one-way time back along path without queueing.
func ackReturn(path []topology.Hop, ack units.Bytes) units.Time {
	var t units.Time
	for _, h := range path {
		t += h.Delay + units.TxTime(ack, h.Rate)
	}
	return t
}

// messageRows gives each flow's one message the flow's estimate, the
// flows split over jobs workers.
func messageRows(jobs int, tr *trace.Trace, flows []replay.FlowPath, rows []v2.FlowRow) []v2.MessageRow {
	out := make([]v2.MessageRow, len(flows))
	split(jobs, len(flows), flowChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			m := &tr.Messages[flows[i].Msgs[0]]
			r := &rows[i]
			out[i] = v2.MessageRow{
				MsgID: m.ID, FlowID: r.FlowID, Src: r.Src, Dst: r.Dst, SizeBytes: m.Bytes, CollectiveID: m.CollectiveID,
				ReleaseNs: r.StartNs, FirstTxNs: r.StartNs, FinishNs: r.FinishNs, MCTNs: r.FCTNs, IdealMCTNs: r.IdealFCTNs,
				Slowdown: r.Slowdown, SenderDoneNs: r.SenderFinishNs,
			}
		}
	})
	return out
}

// linkRows builds links.parquet's rows and the run's warnings.
func linkRows(links []Link, feats []Features, cl *Clusters, sims []linkSim, timings bool) ([]v2.LinkRow, []string) {
	rows := make([]v2.LinkRow, len(links))
	var nPFC, nDrop, nLoad, nUnf int
	var sPFC, sDrop, sUnf int // of them simulated
	for i := range links {
		l, r := &links[i], cl.Rep[i]
		s := &sims[r]
		row := v2.LinkRow{
			LinkID: int32(i), Node: l.Node, Port: l.Port, PeerNode: l.Peer, Kind: l.Kind.String(), RateBps: int64(l.Rate),
			Flows: int64(len(l.Flows)), Bytes: int64(l.Bytes), OfferedLoad: feats[i].Load, Cluster: cl.Of[i],
			Simulated: int(r) == i, RepresentedBy: r, WallNs: -1,
			PFCPausedNs: s.paused, DroppedPkts: s.dropped, Unfinished: s.unfinished,
		}
		if row.Simulated {
			row.Events, row.SimEndNs, row.ReverseFlows, row.SenderFlows = int64(s.events), s.end.Nanoseconds(), int64(s.reverse), int64(s.side)
			if timings {
				row.WallNs = s.wall.Nanoseconds()
			}
		}
		var w []string
		sim := 0
		if row.Simulated {
			sim = 1
		}
		if s.paused > 0 {
			w, nPFC, sPFC = append(w, "pfc"), nPFC+1, sPFC+sim
		}
		if s.dropped > 0 {
			w, nDrop, sDrop = append(w, "drops"), nDrop+1, sDrop+sim
		}
		if feats[i].Load > LoadWarn {
			w, nLoad = append(w, "load>95%"), nLoad+1
		}
		if s.unfinished > 0 {
			w, nUnf, sUnf = append(w, "unfinished"), nUnf+1, sUnf+sim
		}
		row.Warnings = strings.Join(w, ";")
		rows[i] = row
	}
	var warn []string
	if nPFC > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links saw PFC pauses in their link simulations%s: backpressure spreads across links, which the decomposition does not model ("+runfolder.LinksFile+" warnings)", nPFC, len(links), standing(nPFC, sPFC)))
	}
	if nDrop > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links dropped packets in their link simulations%s: losses and retransmissions couple links ("+runfolder.LinksFile+" warnings)", nDrop, len(links), standing(nDrop, sDrop)))
	}
	if nLoad > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links are offered more than %.0f %% of their capacity: their queues depend on more than the flows' own rates ("+runfolder.LinksFile+" warnings)", nLoad, len(links), LoadWarn*100))
	}
	if nUnf > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links have flows that did not finish in their link simulations%s: those flows are reported unfinished", nUnf, len(links), standing(nUnf, sUnf)))
	}
	return rows, warn
}

// standing says how many of n flagged links were simulated when some
// inherit the flag from the simulation representing them.
func standing(n, simulated int) string {
	if n == simulated {
		return ""
	}
	return fmt.Sprintf(" (%d simulated, the others represented by them)", simulated)
}
