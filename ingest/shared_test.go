package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/internal/shareddata"
)

// Tests on the real captures in ../shared/data/pcap (facts checked with
// tshark in its README). They skip when the folder is absent.

// TestIngestOferbySharedData: an HTTP-over-RDMA proxy, RC SENDs, one
// side sending from UDP source port 69.
func TestIngestOferbySharedData(t *testing.T) {
	tr, rep, err := Load(shareddata.File(t, "pcap/roce/oferby_proxy_roce.pcap"), Options{VerifyICRC: true})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep)
	r := &rep.RoCE
	// 105 BTH packets, all to UDP port 4791, including the 37 from source
	// port 69; the rest is TCP setup, ARP and ICMPv6.
	if rep.Packets != 123 || r.Packets != 105 || rep.Kinds["tcp"] != 10 || rep.Skipped["not IP (ARP)"] != 4 || rep.Skipped["not TCP/UDP (ICMPv6)"] != 4 {
		t.Errorf("packets %d, kinds %v, skipped %v", rep.Packets, rep.Kinds, rep.Skipped)
	}
	wantOps := map[string]int64{"RC_SEND_FIRST": 33, "RC_SEND_LAST_WITH_IMMEDIATE": 33, "RC_SEND_ONLY_WITH_IMMEDIATE": 2, "RC_ACKNOWLEDGE": 37}
	for op, n := range wantOps {
		if r.Opcodes[op] != n {
			t.Errorf("%s: %d, want %d (all: %v)", op, r.Opcodes[op], n, r.Opcodes)
		}
	}
	// One RC connection: two QPs.
	if r.QPCount != 2 || r.QPs[0].DestQP != 0x48 || r.QPs[1].DestQP != 0x45 {
		t.Fatalf("QPs %+v", r.QPs)
	}
	req, resp := r.QPs[0], r.QPs[1] // 192.168.70.4 -> .6 (the request and the ACKs), .6 -> .4 (the response)
	if req.Src != "192.168.70.4" || req.Packets != 37 || req.Messages != 1 || req.MessageBytes != 141 || req.ACKs != 36 {
		t.Errorf("QP 0x48: %+v", req)
	}
	if resp.Packets != 68 || resp.Messages != 34 || resp.ACKs != 1 || resp.DataPackets != 67 {
		t.Errorf("QP 0x45: %+v", resp)
	}
	// 33 two-packet messages (1024 + 1024 bytes, the last 1024 + 473) and
	// 2 single-packet ones.
	if r.Messages != 35 || r.IncompleteMessages != 0 || r.ACKs != 37 || r.NAKs != 0 || r.Retransmissions != 0 || r.MissingPSNs != 0 {
		t.Errorf("RoCE report %+v", *r)
	}
	sizes := map[int64]int{}
	for _, m := range tr.Messages {
		sizes[m.Bytes]++
	}
	if want := map[int64]int{2048: 32, 1497: 1, 141: 1, 4: 1}; !equalMaps(sizes, want) {
		t.Errorf("message sizes %v, want %v", sizes, want)
	}
	// All ECT(0), no CE, no CNP; every ICRC good.
	if r.ECT != 105 || r.CEMarked != 0 || r.CNPs != 0 || r.ICRCChecked != 105 || r.ICRCBad != 0 {
		t.Errorf("ECT %d CE %d CNP %d ICRC %d/%d", r.ECT, r.CEMarked, r.CNPs, r.ICRCChecked, r.ICRCBad)
	}
	if tr.Hosts != 2 || rep.Trace.Flows != 2 || rep.TimestampResolution != "us" {
		t.Errorf("%d hosts, %d flows, %q timestamps", tr.Hosts, rep.Trace.Flows, rep.TimestampResolution)
	}
}

func equalMaps[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestIngestCNPSharedData: one real CNP from a ConnectX-4 Lx.
func TestIngestCNPSharedData(t *testing.T) {
	_, rep, err := Load(shareddata.File(t, "pcap/roce/scapy_cnp_connectx4lx.pcap"), Options{VerifyICRC: true})
	if !errors.Is(err, ErrNoMessages) {
		t.Fatalf("error %v, want ErrNoMessages", err)
	}
	r := &rep.RoCE
	if r.CNPs != 1 || r.QPCount != 1 || r.QPs[0].DestQP != 0x118 || r.QPs[0].CNPs != 1 || r.ICRCChecked != 1 || r.ICRCBad != 0 {
		t.Errorf("report %+v", *r)
	}
}

// TestIngestERFSharedData: native InfiniBand (ERF link type) is refused
// with one line naming the file and the link type.
func TestIngestERFSharedData(t *testing.T) {
	path := shareddata.File(t, "pcap/ib_native/wireshark_sample_infiniband_erf.pcap")
	_, rep, err := Load(path, Options{})
	if err == nil || rep != nil || !strings.HasPrefix(err.Error(), path+": ERF (197) is not supported") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v", err)
	}
}

// TestIngestTCPSharedData: real HTTP downloads over TCP.
func TestIngestTCPSharedData(t *testing.T) {
	for _, c := range []struct {
		file             string
		packets          int64
		ce               int64
		ect              bool // some packets are ECT
		minBody, maxBody int64
	}{
		// Every client->server packet CE-marked.
		{"pathspider_ecn_fake_fwd_ce.pcap", 69, 35, true, 38000, 42000},
		{"pathspider_tcp_ipv4_simple.pcap", 64, 0, false, 38000, 42000},
		{"pathspider_tcp_ipv4_ecn.pcap", 10, 0, true, 100, 1000},
		{"pathspider_tcp_ipv6_ecn.pcap", 10, 0, true, 100, 1000},
	} {
		tr, rep, err := Load(shareddata.File(t, "pcap/tcp/"+c.file), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		checkReport(t, rep)
		fl := rep.L4.Flows
		// One conversation: two directions of one 5-tuple.
		if rep.Packets != c.packets || rep.Kinds["tcp"] != c.packets || len(fl) != 2 ||
			fl[0].Src != fl[1].Dst || fl[0].SrcPort != fl[1].DstPort || fl[0].DstPort != fl[1].SrcPort {
			t.Errorf("%s: %d packets, kinds %v, flows %+v", c.file, rep.Packets, rep.Kinds, fl)
			continue
		}
		var ce, ect int64
		for _, f := range fl {
			ce += f.CEMarked
			ect += f.ECT
		}
		body := max(fl[0].UniqueBytes, fl[1].UniqueBytes)
		if ce != c.ce || (ect > 0) != c.ect || body < c.minBody || body > c.maxBody {
			t.Errorf("%s: CE %d, ECT %d, download %d bytes; want CE %d, ECT %v, %d..%d bytes", c.file, ce, ect, body, c.ce, c.ect, c.minBody, c.maxBody)
		}
		if len(tr.Messages) != 2 || tr.Hosts != 2 {
			t.Errorf("%s: %d messages on %d hosts, want 2 on 2", c.file, len(tr.Messages), tr.Hosts)
		}
	}
}
