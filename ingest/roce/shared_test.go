package roce

import (
	"os"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/internal/shareddata"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// TestCNPSharedData decodes the one real CNP in
// ../shared/data/pcap/roce/scapy_cnp_connectx4lx.pcap (captured from a
// ConnectX-4 Lx): facts checked with tshark in the data README.
func TestCNPSharedData(t *testing.T) {
	f, err := os.Open(shareddata.File(t, "pcap/roce/scapy_cnp_connectx4lx.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := r.ReadPacketData()
	if err != nil {
		t.Fatal(err)
	}
	p := gopacket.NewPacket(data, layers.LayerTypeEthernet, gopacket.Default)
	b, ok := p.Layer(LayerTypeBTH).(*BTH)
	if !ok {
		t.Fatalf("no BTH found: %v", p)
	}
	udp := p.Layer(layers.LayerTypeUDP).(*layers.UDP)
	ip := p.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
	if b.Opcode != CNP || !b.BECN || b.FECN || b.DestQP != 0x000118 || b.PSN != 0 || b.PKey != 0xffff {
		t.Errorf("decoded %v (P_Key %#x), want CNP BECN dqp 0x118 psn 0 P_Key 0xffff", b, b.PKey)
	}
	if udp.SrcPort != 0 || udp.Checksum != 0 || ip.TOS>>2 != 48 || ip.TOS&3 != 2 {
		t.Errorf("UDP src %d checksum %#x, IP DSCP %d ECN %d; want 0, 0, 48, 2", udp.SrcPort, udp.Checksum, ip.TOS>>2, ip.TOS&3)
	}
	if b.ICRC != 0x82fd002a {
		t.Errorf("ICRC field %#08x, want 0x82fd002a", b.ICRC)
	}
	if !b.VerifyICRC(ip.Contents, udp.Contents) {
		c, _ := b.ComputeICRC(ip.Contents, udp.Contents)
		t.Errorf("ICRC does not verify: computed %#08x", c)
	}
}
