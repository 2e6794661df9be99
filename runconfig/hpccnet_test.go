package runconfig

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/linerate"
	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// star is an HPCC topology.txt of n hosts on switch n, every link at rate
// and delay (the host-0 link at rate0 when given).
func star(t *testing.T, n int, rate0, rate, delay string) *topology.Topology {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%d 1 %d\n%d\n", n+1, n, n)
	for i := 0; i < n; i++ {
		r := rate
		if i == 0 && rate0 != "" {
			r = rate0
		}
		fmt.Fprintf(&b, "%d %d %s %s 0\n", i, n, r, delay)
	}
	topo, err := topology.ReadHPCC(strings.NewReader(b.String()), "topology.txt")
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

func hpccConfig(t *testing.T, text string) *HPCC {
	t.Helper()
	c, err := hpccfmt.ParseConfig(strings.NewReader(text), "config.txt")
	if err != nil {
		t.Fatal(err)
	}
	return &HPCC{path: "config.txt", cfg: c}
}

// switch-mmu.cc and third.cc: the dynamic threshold whatever
// USE_DYNAMIC_PFC_THRESHOLD says (QbbNetDevice never reads it), reserve
// 4096 B and resume offset 3072 B (the SwitchMmu constructor), headroom
// rate x delay / 8 x 3 per port (ConfigHdrm) and shift 3 at the NIC rate
// (pfc_a_shift), one less per doubling above it.
func TestApplyMMU(t *testing.T) {
	for _, dyn := range []string{"0", "1"} {
		h := hpccConfig(t, "USE_DYNAMIC_PFC_THRESHOLD "+dyn+"\nBUFFER_SIZE 4\n")
		cfg := replay.Config{Topology: star(t, 4, "", "100Gbps", "0.001ms"), Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig()}
		cfg.Switch.PFC.Mode = switchmodel.PFCStatic
		h.apply(&cfg, nil)
		p := cfg.Switch.PFC
		if !p.Enabled || p.Mode != switchmodel.PFCDynamic || p.ReserveBytes != 4096 || p.ResumeOffsetBytes != 3072 ||
			p.HeadroomBytes != 37500 || p.Divisor != 8 || cfg.Switch.BufferBytes != 4<<20 {
			t.Errorf("USE_DYNAMIC_PFC_THRESHOLD %s: %+v buffer %d", dyn, p, cfg.Switch.BufferBytes)
		}
	}
	for _, c := range []struct {
		rate0, rate, delay string
		hdrm               units.Bytes
		shift              uint
		ok                 bool
	}{
		{"", "100Gbps", "0.001ms", 37500, 3, true},
		{"", "25Gbps", "2us", 18750, 3, true},
		// The NIC rate is host 0's: ports twice and four times as fast
		// would have shifts 2 and 1.
		{"100Gbps", "400Gbps", "1us", 0, 0, false},
		{"100Gbps", "100Gbps", "1us", 37500, 3, true},
		{"200Gbps", "400Gbps", "1us", 0, 0, false},
	} {
		hdrm, shift, ok := ns3PortSettings(star(t, 3, c.rate0, c.rate, c.delay))
		if hdrm != c.hdrm || shift != c.shift || ok != c.ok {
			t.Errorf("%s/%s/%s: headroom %d shift %d ok %v, want %d %d %v", c.rate0, c.rate, c.delay, hdrm, shift, ok, c.hdrm, c.shift, c.ok)
		}
	}
	// Mixed ports keep the configured divisor and ccreplay's headroom.
	cfg := replay.Config{Topology: star(t, 3, "100Gbps", "400Gbps", "1us"), Switch: switchmodel.DefaultConfig()}
	applyMMU(&cfg)
	if cfg.Switch.PFC.Divisor != switchmodel.DefaultConfig().PFC.Divisor || cfg.Switch.PFC.HeadroomBytes != 0 {
		t.Errorf("mixed ports: %+v", cfg.Switch.PFC)
	}
}

// L2_ACK_INTERVAL up to one payload is an ACK per packet
// (RdmaHw::ReceiveUdp resets the milestone on every packet).
func TestApplyAckInterval(t *testing.T) {
	for _, v := range []string{"1", "1000"} {
		h := hpccConfig(t, "L2_ACK_INTERVAL "+v+"\n")
		cfg := replay.Config{Topology: star(t, 2, "", "100Gbps", "1us"), Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig()}
		cfg.NIC.AckEvery = 7
		h.apply(&cfg, nil)
		if cfg.NIC.AckEvery != 1 {
			t.Errorf("L2_ACK_INTERVAL %s: ack_every %d", v, cfg.NIC.AckEvery)
		}
	}
}

// monitor_buffer's schedule: the first sample at the start, the last the
// first at or after the end, none at or after the stop time but the first.
func TestQlenLastIndex(t *testing.T) {
	ns := units.Nanosecond
	for _, c := range []struct {
		start, end, stop units.Time
		want             int64
	}{
		{2e9 * ns, 2.1e9 * ns, 3.01e9 * ns, 1_000_000},
		{2e9 * ns, 2e9 * ns, 3e9 * ns, 0},
		{2e9 * ns, 1 * ns, 3e9 * ns, 0},
		{2e9 * ns, 2e9*ns + 150*ns, 3e9 * ns, 2},
		{2e9 * ns, 2.1e9 * ns, 2e9*ns + 10_000*ns, 99},
		{2e9 * ns, 2.1e9 * ns, 2e9 * ns, 0},
		{2e9 * ns, 2.1e9 * ns, 1e9 * ns, -1},
	} {
		q := qlenMonitor{start: c.start, every: hpccfmt.QlenMonInterval, end: c.end, stop: c.stop}
		if got := q.lastIndex(); got != c.want {
			t.Errorf("%+v: last %d, want %d", c, got, c.want)
		}
	}
}

// Samples the replay ended too early to take are counted with the queues
// as they are at its end, dumped at every multiple of 100 ms
// (qlen_dump_interval) on the sampling grid; a run with PFC_OUTPUT_FILE
// and no PAUSE writes an empty pfc.txt.
func TestQlenAfterTheRun(t *testing.T) {
	h := hpccConfig(t, "QLEN_MON_FILE q.txt\nQLEN_MON_START 1900000000\nQLEN_MON_END 2200000000\nSIMULATOR_STOP_TIME 3\nPFC_OUTPUT_FILE p.txt\n")
	reg := cca.NewRegistry()
	linerate.Register(reg)
	spec, err := reg.Build("linerate", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := replay.Config{Topology: star(t, 2, "", "100Gbps", "1us"), CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Packets: replay.PacketsNone}
	h.apply(&cfg, nil)
	out := h.Outputs(&cfg)
	tr := &trace.Trace{Hosts: 2, Messages: []trace.Message{{Src: 0, Dst: 1, Bytes: 5000, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective}}}
	if _, err := replay.Run(cfg, tr); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := out.Write(dir); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i, tm := range []int64{1_900_000_000, 2_000_000_000, 2_100_000_000, 2_200_000_000} {
		n := 1 + i*1_000_000
		fmt.Fprintf(&want, "time: %d\n2 1 %d\n2 2 %d\n", tm, n, n)
	}
	if got := readFile(t, dir+"/qlen.txt"); got != want.String() {
		t.Errorf("qlen.txt:\n%s\nwant\n%s", got, want.String())
	}
	if got := readFile(t, dir+"/pfc.txt"); got != "" {
		t.Errorf("pfc.txt %q", got)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	return string(testfiles.Read(t, p))
}

// pfc.txt names nodes by the simulator's ids (the hpcc: reader keeps them
// as node names while it numbers hosts first) and devices from 1, as
// third.cc's get_pfc prints GetId and GetIfIndex.
func TestPFCLineIDs(t *testing.T) {
	topo, err := topology.ReadHPCC(strings.NewReader("3 1 2\n0\n1 0 100Gbps 1us 0\n0 2 100Gbps 1us 0\n"), "topology.txt")
	if err != nil {
		t.Fatal(err)
	}
	o := &HPCCOutputs{topo: topo, pfc: &bytes.Buffer{}}
	o.observePFC(2_000_000_123_456, 0, 0, 3, true)  // host 1, its only link
	o.observePFC(2_000_001_000_000, 2, 1, 3, false) // switch 0, its second link (to node 2)
	if got, want := o.pfc.String(), "2000000123 1 0 1 1\n2000001000 0 1 2 0\n"; got != want {
		t.Errorf("pfc.txt\n%s\nwant\n%s", got, want)
	}
}

// The network keys third.cc hands to the switches and NICs: BUFFER_SIZE
// in MiB (SwitchMmu::ConfigBufferSize(buffer_size * 1024 * 1024)),
// ENABLE_QCN (SwitchNode EcnEnabled), the ECN maps per port rate in KB of
// 1000 B (SwitchMmu::ConfigEcn), PACKET_PAYLOAD_SIZE (RdmaHw Mtu) and
// SIMULATOR_STOP_TIME (Simulator::Stop), which --max-time overrides.
func TestApplyNetworkKeys(t *testing.T) {
	h := hpccConfig(t, "ENABLE_QCN 0\nBUFFER_SIZE 8\nPACKET_PAYLOAD_SIZE 4000\nSIMULATOR_STOP_TIME 2.5\n"+
		"KMIN_MAP 2 25000000000 100 100000000000 300\nKMAX_MAP 2 25000000000 400 100000000000 1600\nPMAX_MAP 2 25000000000 0.2 100000000000 0.1\n")
	cfg := replay.Config{Topology: star(t, 2, "", "100Gbps", "1us"), Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig()}
	h.apply(&cfg, nil)
	want := []switchmodel.ECNRate{{Rate: 25 * units.Gbps, KminBytes: 100_000, KmaxBytes: 400_000, Pmax: 0.2},
		{Rate: 100 * units.Gbps, KminBytes: 300_000, KmaxBytes: 1_600_000, Pmax: 0.1}}
	if cfg.Switch.ECN.Enabled || cfg.Switch.BufferBytes != 8<<20 || cfg.NIC.MTUPayload != 4000 || cfg.MaxTime != 2500*units.Millisecond ||
		fmt.Sprint(cfg.Switch.ECN.PerRate) != fmt.Sprint(want) {
		t.Errorf("ecn %v %+v buffer %d payload %d max time %v", cfg.Switch.ECN.Enabled, cfg.Switch.ECN.PerRate, cfg.Switch.BufferBytes, cfg.NIC.MTUPayload, cfg.MaxTime)
	}
	cfg.MaxTime = units.Millisecond // --max-time
	h.apply(&cfg, nil)
	if cfg.MaxTime != units.Millisecond {
		t.Errorf("SIMULATOR_STOP_TIME overrode --max-time: %v", cfg.MaxTime)
	}
	// An explicit kmin parameter keeps the algorithm's thresholds.
	cfg = replay.Config{Topology: star(t, 2, "", "100Gbps", "1us"), Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig()}
	h.apply(&cfg, map[string]string{"kmin": "5KB"})
	if cfg.Switch.ECN.PerRate != nil {
		t.Errorf("per-rate ECN despite kmin: %+v", cfg.Switch.ECN.PerRate)
	}
}
