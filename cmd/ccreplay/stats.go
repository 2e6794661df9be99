package main

import (
	"fmt"
	"io"
	"time"

	"github.com/ccreplay/ccreplay/replay"
)

// printStats writes one line of whole-run speed figures to w: wall time,
// data packets per wall second, events per second and peak resident memory.
func printStats(w io.Writer, wall time.Duration, res *replay.Result) {
	peak := peakRSS()
	s := wall.Seconds()
	fmt.Fprintf(w, "stats: wall %.3f s, %d data packets, %.0f data pkts/s, %d events, %.0f events/s, peak RSS %s\n",
		s, res.DataPackets, float64(res.DataPackets)/s, res.Events, float64(res.Events)/s, peak)
}
