package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

type fixed struct{ r units.BitsPerSec }

func (f *fixed) Name() string                          { return "fixed" }
func (f *fixed) Start(now units.Time, fi cca.FlowInfo) { f.r = fi.LineRate }
func (f *fixed) OnSend(units.Time, units.Bytes)        {}
func (f *fixed) OnAck(units.Time, *cca.Ack)            {}
func (f *fixed) OnCNP(units.Time)                      {}
func (f *fixed) OnNack(units.Time)                     {}
func (f *fixed) OnTimer(units.Time)                    {}
func (f *fixed) NextTimer() units.Time                 { return units.Never }
func (f *fixed) Rate() units.BitsPerSec                { return f.r }
func (f *fixed) Window() units.Bytes                   { return 0 }

func TestSmoke(t *testing.T) {
	topo, err := topology.Star(17, 100*units.Gbps, units.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	tr := &trace.Trace{Hosts: 17}
	for i := 0; i < 16; i++ {
		tr.Messages = append(tr.Messages, trace.Message{ID: int64(i), Src: int32(i), Dst: 16, Bytes: 1000000, FlowID: -1, CollectiveID: -1})
	}
	cfg := Config{Topology: topo, CC: cca.Spec{Name: "fixed", New: func() cca.Algorithm { return &fixed{} }},
		Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Seed: 1, Packets: PacketsData, CheckEvery: 10 * units.Microsecond}
	res, err := Run(cfg, tr, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("end=%v events=%d pkts=%d fctmax=%d p99=%d drops=%d pause=%v", res.SimEnd, res.Events, res.DataPackets, res.Summary.FCTMaxNs, res.Summary.FCTP99Ns, res.Summary.DropsPkts, res.Summary.PFCPauseFraction)
}
