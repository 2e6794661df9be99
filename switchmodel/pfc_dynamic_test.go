package switchmodel_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// paperThreshold is the PFC threshold of the FDCC thesis
// (FDCC, Zhang 2023, Section 3.3) written out by hand:
//
//	(buffer_size - total_hdrm - total_ingress - sharedBuffer_size) / 16
//
// where total_ingress is the ports' private ingress queues ("typically 4k
// bytes" each) and sharedBuffer_size is what the ingress ports hold beyond
// their private queue, summed over ports. held is the bytes each ingress
// port holds.
func paperThreshold(buffer, totalHeadroom, reserve units.Bytes, held []units.Bytes, divisor int64) units.Bytes {
	var shared units.Bytes
	for _, h := range held {
		if h > reserve {
			shared += h - reserve
		}
	}
	free := buffer - totalHeadroom - reserve*units.Bytes(len(held)) - shared
	if free < 0 {
		free = 0
	}
	return free / units.Bytes(divisor)
}

// dynRig is a 2-port 10 Gb/s switch with dynamic PFC: buffer 200 kB,
// private ingress queue 4 kB per port, divisor 4, resume offset 3 kB.
// Egress 1 (toward host 1) is paused so that what ingress 0 sends there
// stays. With preload > 0, ingress 1 first holds that many bytes queued
// at the (also paused) egress 0.
type dynRig struct {
	*rig
	held []units.Bytes // by ingress port, as the test tracks it
}

const (
	dynBuffer  = 200 * units.KB
	dynReserve = 4 * units.KB
	dynDiv     = 4
	dynOffset  = 3 * units.KB
)

func newDynRig(t *testing.T, headroom units.Bytes, preload int) *dynRig {
	cfg := switchmodel.Config{
		BufferBytes: dynBuffer,
		PFC: switchmodel.PFCConfig{
			Enabled: true, Mode: switchmodel.PFCDynamic,
			ReserveBytes: dynReserve, HeadroomBytes: headroom, Divisor: dynDiv,
			ResumeOffsetBytes: dynOffset, FrameBytes: 64,
		},
	}
	r := &dynRig{rig: newRig(t, cfg, ports(2, 10*units.Gbps, units.Microsecond)...), held: make([]units.Bytes, 2)}
	r.pfc(0, 1, dataPrio, true)
	r.pfc(0, 0, dataPrio, true)
	for k := 0; k < preload; k++ {
		r.sw.Receive(0, r.data(1, 0, int64(k), 1000), 1)
		r.held[1] += 1000
	}
	if r.sw.Port(1).PausesSent != 0 {
		t.Fatalf("preload of %d packets paused ingress 1", preload)
	}
	return r
}

// pauseOn fills ingress 0 (fillUntilPause) and checks that the hand
// formula pauses on packet example, the worked example of the test's
// comment, and that the switch pauses on the same packet; failing that it
// stops the test with format, given the switch's packet and the formula's.
func (r *dynRig) pauseOn(t *testing.T, totalHeadroom units.Bytes, example int, format string) {
	t.Helper()
	k, wantK := r.fillUntilPause(t, totalHeadroom)
	if wantK != example {
		t.Fatalf("the hand formula says %d, the worked example %d", wantK, example)
	}
	if k != wantK {
		t.Fatalf(format, k, wantK)
	}
}

// fillUntilPause sends 1000 B packets from host 0 into ingress 0 until
// the switch sends a PAUSE, and returns how many it took and how many the
// hand-computed threshold (paperThreshold) says it takes.
func (r *dynRig) fillUntilPause(t *testing.T, totalHeadroom units.Bytes) (k, wantK int) {
	t.Helper()
	in := r.sw.Port(0)
	for i := 1; i <= 100; i++ {
		r.sw.Receive(0, r.data(0, 1, int64(i), 1000), 0)
		r.held[0] += 1000
		over := r.held[0]-dynReserve > paperThreshold(dynBuffer, totalHeadroom, dynReserve, r.held, dynDiv)
		if over && wantK == 0 {
			wantK = i
		}
		if in.PausesSent > 0 && k == 0 {
			k = i
		}
		if k != 0 && wantK != 0 {
			return k, wantK
		}
	}
	return k, wantK
}

// Dynamic PFC (FDCC, Zhang 2023, Section 3.3): with every ingress holding at
// least its private queue, the PAUSE goes out exactly when ingress 0's
// shared part exceeds (buffer - headroom - reserves - shared used)/divisor,
// and the RESUME when the shared part plus the resume offset is back under
// the (now larger) threshold.
//
// By hand: headroom 2 x 10 kB, reserves 2 x 4 kB, ingress 1 holds 5 kB,
// ingress 0 holds h: shared = (h-4000) + 1000, threshold
// T = (200000 - 20000 - 8000 - shared)/4 = (175000 - h)/4.
// h = 38000: T = 34250, h-4000 = 34000: no PAUSE.
// h = 39000: T = 34000, h-4000 = 35000 > T: PAUSE on the 39th packet.
// Draining: h = 36000: T = 34750, 32000+3000 > T; h = 35000: T = 35000,
// 31000+3000 <= T: RESUME after the 4th dequeue.
func TestDynamicPFCThresholdByHand(t *testing.T) {
	const headroom = 10 * units.KB
	const rate = 10 * units.Gbps
	r := newDynRig(t, headroom, 5)
	r.pauseOn(t, 2*headroom, 39, "PAUSE on packet %d, FDCC (Zhang 2023) threshold says %d")
	r.sim.Run(units.Never)
	ctl, tx := units.TxTime(64, rate), units.TxTime(1000, rate)
	if f := r.peers[0].got; len(f) != 1 || f[0].p.Kind != fabric.Pause || f[0].at != ctl+units.Microsecond {
		t.Fatalf("upstream frames %v, want one PAUSE at %v", describe(f), ctl+units.Microsecond)
	}

	// Drain ingress 0 through egress 1; find the dequeue after which the
	// hand formula allows RESUME.
	wantJ := 0
	h := r.held
	for j := 1; wantJ == 0; j++ {
		h[0] -= 1000
		if h[0] <= dynReserve || h[0]-dynReserve+dynOffset <= paperThreshold(dynBuffer, 2*headroom, dynReserve, h, dynDiv) {
			wantJ = j
		}
	}
	if wantJ != 4 {
		t.Fatalf("hand formula resumes after dequeue %d, worked example 4", wantJ)
	}
	tR := 10 * units.Microsecond
	r.pfc(tR, 1, dataPrio, false)
	r.sim.Run(units.Never)
	f := r.peers[0].got
	if want := tR + units.Time(wantJ-1)*tx + ctl + units.Microsecond; len(f) != 2 || f[1].p.Kind != fabric.Resume || f[1].at != want {
		t.Fatalf("upstream frames %v, want PAUSE then RESUME at %v", describe(f), want)
	}
}

// FDCC (Zhang 2023): sharedBuffer_size is what ingress ports hold beyond
// their private queue. An idle port's unused private queue is not shared
// buffer in use, so with ingress 1 empty the threshold for ingress 0 holding
// h is (200000 - 20000 - 8000 - (h - 4000))/4 = (176000 - h)/4, and the
// PAUSE comes on the 39th packet (h = 39000: T = 34250 < 35000).
func TestDynamicPFCSharedUseIsPerPortExcess(t *testing.T) {
	const headroom = 10 * units.KB
	r := newDynRig(t, headroom, 0)
	r.pauseOn(t, 2*headroom, 39, "PAUSE on packet %d, FDCC (Zhang 2023) says %d: dynamicThreshold takes shared use as "+
		"used - totalReserve, which counts idle ports' unused private queues as free shared buffer "+
		"(shared should be the sum over ingress ports of max(0, held - reserve))")
}

// PFCConfig.HeadroomBytes = 0 sizes each port's headroom as
// 2 x (propagation delay x rate) + 3 MTU of 1500 B (config.go): at
// 10 Gb/s and 1 us that is 2 x 1250 + 4500 = 7000 B per port, 14000 B for
// the switch. With ingress 1 holding 5 kB the threshold for ingress 0
// holding h is (200000 - 14000 - 8000 - (h - 4000) - 1000)/4
// = (181000 - h)/4: h = 39000 gives T = 35500 >= 35000 (no PAUSE), h =
// 40000 gives T = 35250 < 36000: PAUSE on the 40th packet.
func TestDynamicPFCDefaultHeadroom(t *testing.T) {
	r := newDynRig(t, 0, 5)
	perPort := 2*units.BytesIn(units.Microsecond, 10*units.Gbps) + 3*1500
	if perPort != 7000 {
		t.Fatalf("hand headroom %d", perPort)
	}
	r.pauseOn(t, 2*perPort, 40, "PAUSE on packet %d, the documented default headroom (2 x delay x rate + 3 x 1500 B "+
		"= 7000 B per port here) gives %d: switchmodel.New computes 2*BytesIn(2*Delay, Rate) + 4500, "+
		"i.e. 4 x delay x rate (9500 B per port)")
}
