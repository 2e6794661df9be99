package runstats

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/replay"
)

// The figures are the result's over the wall time: 1000 data packets and
// 4000 events in 2 s are 500 data pkts/s and 2000 events/s, 8000
// packet-hops are 250000 ns each; one partition is named in the singular
// with the reason it was not split.
func TestWrite(t *testing.T) {
	var b bytes.Buffer
	Write(&b, 2*time.Second, &replay.Result{DataPackets: 1000, Events: 4000, PacketHops: 8000, PeakFlowsHeld: 7,
		Partitions: 1, SerialWhy: "one switch"})
	got := b.String()
	for _, want := range []string{"stats: wall 2.000 s, 1000 data packets, 500 data pkts/s, 4000 events, 2000 events/s, peak RSS ",
		", 8000 packet-hops, 250000.0 ns per packet-hop, at most 7 flows held, 1 partition (one switch)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("line %q lacks %q", got, want)
		}
	}
	b.Reset()
	Write(&b, time.Second, &replay.Result{Partitions: 4})
	if !strings.HasSuffix(b.String(), ", 0.0 ns per packet-hop, at most 0 flows held, 4 partitions\n") {
		t.Errorf("no packet-hops, 4 partitions: %q", b.String())
	}
}
