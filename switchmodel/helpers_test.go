package switchmodel_test

import (
	"slices"
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// The test switches route host h out of port h.
type portPerHost struct{}

func (portPerHost) Pick(_, dst int32, _ uint64) int32 { return dst }

// frame is a copy of a packet as it arrived at a peer.
type frame struct {
	at  units.Time
	p   fabric.Packet
	tel *fabric.Telemetry
}

// peer is the far end of a switch port: it records what arrives and
// returns the packet to the pool.
type peer struct {
	pool *fabric.Pool
	got  []frame
}

func (r *peer) Receive(now units.Time, p *fabric.Packet, _ int32) {
	f := frame{at: now, p: *p}
	if p.Tel != nil {
		tel := *p.Tel
		f.tel = &tel
	}
	f.p.Tel = nil
	r.got = append(r.got, f)
	r.pool.Put(p)
}

func (r *peer) kinds(k fabric.Kind) []frame {
	return slices.DeleteFunc(slices.Clone(r.got), func(f frame) bool { return f.p.Kind != k })
}

// rig is one switch whose port i leads to recording peer i (host i).
type rig struct {
	sim   *kernel.Sim
	pool  *fabric.Pool
	sw    *switchmodel.Switch
	peers []*peer
}

func newRig(t testing.TB, cfg switchmodel.Config, specs ...switchmodel.PortSpec) *rig {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	r := &rig{sim: kernel.NewSim(1), pool: &fabric.Pool{}}
	r.sw = switchmodel.New(r.sim, r.pool, portPerHost{}, nil, 100, cfg, specs)
	for i := range specs {
		pr := &peer{pool: r.pool}
		r.peers = append(r.peers, pr)
		r.sw.Port(i).Port.SetPeer(pr, 0)
	}
	return r
}

func ports(n int, rate units.BitsPerSec, delay units.Time) []switchmodel.PortSpec {
	s := make([]switchmodel.PortSpec, n)
	for i := range s {
		s[i] = switchmodel.PortSpec{Rate: rate, Delay: delay}
	}
	return s
}

const dataPrio = 3

// data is a data packet of the given wire size from host src to host dst.
func (r *rig) data(src, dst int32, psn int64, size units.Bytes) *fabric.Packet {
	p := r.pool.Get()
	p.Kind, p.Prio = fabric.Data, dataPrio
	p.Src, p.Dst, p.PSN, p.Size, p.Payload = src, dst, psn, size, size
	return p
}

// ctrl is an ACK (control priority) from host src to host dst.
func (r *rig) ctrl(src, dst int32, size units.Bytes) *fabric.Packet {
	p := r.pool.Get()
	p.Kind, p.Prio = fabric.Ack, fabric.ControlPrio
	p.Src, p.Dst, p.Size = src, dst, size
	return p
}

// pfc delivers a PAUSE (on) or RESUME frame for prio to the switch on port:
// the neighbour behind that port asks the switch to stop or resume.
func (r *rig) pfc(now units.Time, port int32, prio uint8, on bool) {
	f := r.pool.Get()
	f.Kind, f.Prio, f.PausePrio, f.Size = fabric.Resume, fabric.ControlPrio, prio, 64
	if on {
		f.Kind = fabric.Pause
	}
	f.Flow, f.Src, f.Dst = -1, -1, -1
	r.sw.Receive(now, f, port)
}

// fnHandler runs a test action as a simulator event.
type fnHandler func(now units.Time)

func (f fnHandler) Handle(now units.Time, _ uint8, _ int32) { f(now) }

// at schedules fn to run at time t.
func at(sim *kernel.Sim, t units.Time, fn func(now units.Time)) {
	sim.Schedule(t, sim.Register(fnHandler(fn)), 0, 0)
}
