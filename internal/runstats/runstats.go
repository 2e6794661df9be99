// Package runstats is the --stats line of one replay: its speed and
// memory figures from the replay's result and the process.
package runstats

import (
	"fmt"
	"io"
	"time"

	"github.com/ccreplay/ccreplay/internal/procstat"
	"github.com/ccreplay/ccreplay/replay"
)

// Write writes one line of whole-run speed figures to w: wall time,
// data packets per wall second, events per second, peak resident memory,
// the packet-hops (transmissions onto links, every packet kind) with the
// wall time per packet-hop, the figure that stays flat when cost grows
// linearly with the work, and the most flows whose state was held at once
// (replay.Result.PeakFlowsHeld), and the partitions the run was split
// into, with the reason when it ran on one although asked for more.
func Write(w io.Writer, wall time.Duration, res *replay.Result) {
	peak := procstat.PeakRSS()
	s := wall.Seconds()
	perHop := 0.0
	if res.PacketHops > 0 {
		perHop = float64(wall.Nanoseconds()) / float64(res.PacketHops)
	}
	parts := fmt.Sprintf("%d partitions", res.Partitions)
	if res.Partitions == 1 {
		parts = "1 partition"
	}
	if res.SerialWhy != "" {
		parts += " (" + res.SerialWhy + ")"
	}
	if res.HostsWhy != "" {
		parts += " (every host in the first: " + res.HostsWhy + ")"
	}
	fmt.Fprintf(w, "stats: wall %.3f s, %d data packets, %.0f data pkts/s, %d events, %.0f events/s, peak RSS %s, %d packet-hops, %.1f ns per packet-hop, at most %d flows held, %s\n",
		s, res.DataPackets, float64(res.DataPackets)/s, res.Events, float64(res.Events)/s, peak, res.PacketHops, perHop, res.PeakFlowsHeld, parts)
}
