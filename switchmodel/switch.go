package switchmodel

import (
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/units"
)

// Router picks the egress port of a switch toward a destination host.
type Router interface {
	Pick(node, dstHost int32, flowHash uint64) int32
}

// Switch is one shared-buffer switch. Create it with New, then connect each
// port's link with Port(i).SetPeer while wiring the topology.
type Switch struct {
	sim    *kernel.Sim
	pool   *fabric.Pool
	router Router
	tap    fabric.Tap
	cfg    Config
	id     int32
	rng    *rand.Rand // RED's draws: the switch's own stream (Sim.NodeRand)

	ports []*Egress
	used  units.Bytes // shared buffer in use, bytes

	// per ingress port and priority: bytes held, and whether we paused
	// the upstream sender.
	ing      [][fabric.NumPrio]units.Bytes
	ingPort  []units.Bytes // bytes held per ingress port, all priorities
	shared   units.Bytes   // sum over ingress ports of max(0, held - reserve)
	pausedUp [][fabric.NumPrio]bool

	totalHeadroom, totalReserve units.Bytes

	// DroppedDataBytes counts wire bytes of data packets dropped here.
	DroppedDataBytes int64
	// OnDrop, when set, is called with each packet this switch drops
	// (data or control; PAUSE and RESUME are never dropped), before the
	// packet returns to the pool: per-flow drop counts, and the flow's
	// count of packets in the network.
	OnDrop func(now units.Time, p *fabric.Packet)
}

// PortSpec describes one port when building a switch.
type PortSpec struct {
	Rate  units.BitsPerSec
	Delay units.Time
}

// New builds switch id with the given ports. tap may be nil.
func New(sim *kernel.Sim, pool *fabric.Pool, router Router, tap fabric.Tap, id int32, cfg Config, ports []PortSpec) *Switch {
	sw := &Switch{sim: sim, pool: pool, router: router, tap: tap, cfg: cfg, id: id, rng: sim.NodeRand(id)}
	sw.ing = make([][fabric.NumPrio]units.Bytes, len(ports))
	sw.ingPort = make([]units.Bytes, len(ports))
	sw.pausedUp = make([][fabric.NumPrio]bool, len(ports))
	for i, ps := range ports {
		e := &Egress{sw: sw, idx: int32(i)}
		e.Port = fabric.NewPort(sim, id, int32(i), ps.Rate, ps.Delay, e, nil, 0)
		e.kmin, e.kmax, e.pmax = cfg.ECN.ForRate(ps.Rate)
		e.headroom = cfg.PFC.HeadroomBytes
		if e.headroom == 0 {
			// 2 x (propagation delay x rate): what is already on the wire
			// when the PAUSE leaves plus what is sent while it travels.
			e.headroom = 2*units.BytesIn(ps.Delay, ps.Rate) + 3*1500
		}
		e.xoff = units.Bytes(int64(cfg.PFC.XoffPerGbps) * int64(ps.Rate) / int64(units.Gbps))
		e.xon = units.Bytes(int64(cfg.PFC.XonPerGbps) * int64(ps.Rate) / int64(units.Gbps))
		sw.totalHeadroom += e.headroom
		sw.totalReserve += cfg.PFC.ReserveBytes
		sw.ports = append(sw.ports, e)
	}
	return sw
}

// ID is the switch's node id.
func (sw *Switch) ID() int32 { return sw.id }

// NumPorts is the number of ports.
func (sw *Switch) NumPorts() int { return len(sw.ports) }

// Port returns port i's egress side.
func (sw *Switch) Port(i int) *Egress { return sw.ports[i] }

// BufferUsed is the shared buffer in use, bytes.
func (sw *Switch) BufferUsed() units.Bytes { return sw.used }

// Receive takes a packet arriving on ingress port inPort.
func (sw *Switch) Receive(now units.Time, p *fabric.Packet, inPort int32) {
	if p.Kind == fabric.Pause || p.Kind == fabric.Resume {
		// A PAUSE arriving on port i stops our transmissions out of port i.
		sw.ports[inPort].setPaused(now, p.PausePrio, p.Kind == fabric.Pause)
		sw.pool.Put(p)
		return
	}
	out := sw.router.Pick(sw.id, p.Dst, p.Hash)
	e := sw.ports[out]
	if sw.used+p.Size > sw.cfg.BufferBytes {
		e.DroppedPkts++
		e.DroppedBytes += int64(p.Size)
		if p.Kind == fabric.Data {
			sw.DroppedDataBytes += int64(p.Size)
		}
		if sw.OnDrop != nil {
			sw.OnDrop(now, p)
		}
		if sw.tap != nil {
			sw.tap.Drop(now, sw.id, out, p)
		}
		sw.pool.Put(p)
		return
	}
	prio := p.Prio
	if p.Kind == fabric.Data && sw.cfg.ECN.Enabled && !sw.cfg.ECN.AtDequeue && !p.CE {
		if sw.shouldMark(e.qBytes[prio], e.kmin, e.kmax, e.pmax) {
			p.CE = true
			e.MarkedPkts++
		}
	}
	p.InPort = inPort
	sw.ing[inPort][prio] += p.Size
	sw.hold(inPort, p.Size)
	sw.used += p.Size
	e.enqueue(now, p)
	if sw.cfg.PFC.Enabled && prio != fabric.ControlPrio {
		sw.checkPause(now, inPort, prio)
	}
	e.Port.Kick(now)
}

// MarkProbability is RED's marking probability for an egress queue of q
// bytes: 0 at or below kmin, pmax*(q-kmin)/(kmax-kmin) up to kmax, 1 above.
func MarkProbability(q, kmin, kmax units.Bytes, pmax float64) float64 {
	switch {
	case q <= kmin:
		return 0
	case q > kmax:
		return 1
	default:
		return pmax * float64(q-kmin) / float64(kmax-kmin)
	}
}

func (sw *Switch) shouldMark(q, kmin, kmax units.Bytes, pmax float64) bool {
	pr := MarkProbability(q, kmin, kmax, pmax)
	if pr <= 0 {
		return false
	}
	if pr >= 1 {
		return true
	}
	return sw.rng.Float64() < pr
}

// hold changes what ingress port in holds by d bytes and keeps the shared
// buffer in use (the sum over ingress ports of what each holds beyond its
// private reserve) up to date.
func (sw *Switch) hold(in int32, d units.Bytes) {
	r := sw.cfg.PFC.ReserveBytes
	before := sw.ingPort[in]
	after := before + d
	sw.ingPort[in] = after
	sw.shared += max(0, after-r) - max(0, before-r)
}

// dynamicThreshold is FDCC (Zhang 2023), Section 3.3:
// (buffer_size - total_hdrm - total_ingress - sharedBuffer_used) / Divisor,
// where total_ingress is the ports' private reserves and the shared buffer
// in use is what each ingress port holds beyond its reserve, summed.
func (sw *Switch) dynamicThreshold() units.Bytes {
	free := sw.cfg.BufferBytes - sw.totalHeadroom - sw.totalReserve - sw.shared
	if free < 0 {
		free = 0
	}
	return free / units.Bytes(sw.cfg.PFC.Divisor)
}

// overXoff and underXon decide PAUSE and RESUME for one ingress queue.
func (sw *Switch) overXoff(inPort int32, held units.Bytes) bool {
	if sw.cfg.PFC.Mode == PFCStatic {
		return held > sw.ports[inPort].xoff
	}
	return held-sw.cfg.PFC.ReserveBytes > sw.dynamicThreshold()
}

func (sw *Switch) underXon(inPort int32, held units.Bytes) bool {
	if sw.cfg.PFC.Mode == PFCStatic {
		return held <= sw.ports[inPort].xon
	}
	return held <= sw.cfg.PFC.ReserveBytes ||
		held-sw.cfg.PFC.ReserveBytes+sw.cfg.PFC.ResumeOffsetBytes <= sw.dynamicThreshold()
}

func (sw *Switch) checkPause(now units.Time, inPort int32, prio uint8) {
	if !sw.pausedUp[inPort][prio] && sw.overXoff(inPort, sw.ing[inPort][prio]) {
		sw.pausedUp[inPort][prio] = true
		sw.sendPFC(now, inPort, prio, fabric.Pause)
	}
}

func (sw *Switch) checkResume(now units.Time, inPort int32, prio uint8) {
	if sw.pausedUp[inPort][prio] && sw.underXon(inPort, sw.ing[inPort][prio]) {
		sw.pausedUp[inPort][prio] = false
		sw.sendPFC(now, inPort, prio, fabric.Resume)
	}
}

// sendPFC queues a PAUSE or RESUME frame toward the upstream neighbour on
// port: it takes the link's serialization and propagation time to act.
func (sw *Switch) sendPFC(now units.Time, port int32, prio uint8, k fabric.Kind) {
	f := sw.pool.Get()
	f.Kind, f.Prio, f.PausePrio = k, fabric.ControlPrio, prio
	f.Size = sw.cfg.PFC.FrameBytes
	f.Flow, f.Src, f.Dst = -1, -1, -1
	e := sw.ports[port]
	e.pfcQ.Push(f)
	if k == fabric.Pause {
		e.PausesSent++
	}
	e.Port.Kick(now)
}
