package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"
)

// On a star every packet a NIC sends crosses exactly two links (host to
// switch, switch to host), so with no drops the packet-hops are twice the
// NICs' transmissions; on a leaf-spine, packets between leaves cross four
// links and those within a leaf two.
func TestPacketHopsCountsEveryLinkCrossing(t *testing.T) {
	t.Parallel()
	tr := replaytest.Workload(t, "incast:n=4,size=200KB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "star", 5), "dcqcn")
	res := mustRun(t, cfg, tr, "")
	var hostTx, switchTx int64
	for _, p := range res.Ports {
		if p.IsSwitch {
			switchTx += p.TxPkts
		} else {
			hostTx += p.TxPkts
		}
		if p.DroppedPkts != 0 {
			t.Fatalf("port %d/%d dropped %d packets; the star test assumes none", p.Node, p.Port, p.DroppedPkts)
		}
	}
	if hostTx == 0 || switchTx != hostTx {
		t.Fatalf("hosts sent %d packets, switch ports %d: every packet should cross the switch once", hostTx, switchTx)
	}
	if res.PacketHops != 2*hostTx {
		t.Errorf("PacketHops = %d, want 2 x %d NIC transmissions", res.PacketHops, hostTx)
	}
	if res.PacketHops <= 2*res.DataPackets {
		t.Errorf("PacketHops = %d, not above twice the %d data packets: ACKs are packets too", res.PacketHops, res.DataPackets)
	}
}
