package dcqcn

import (
	"github.com/ccreplay/ccreplay/units"
)

// advance replays every increase and alpha tick due at or before now, in
// time order (an alpha tick first when both fall at the same time).
func (d *DCQCN) advance(now units.Time) {
	for {
		if d.decCNP && d.decAt <= now && d.decAt <= d.incAt {
			// DecreaseTick: the tick cuts once for the CNPs since the
			// previous one (CheckRateDecreaseMlx), then runs on.
			at := d.decAt
			d.alphaUntil(at)
			d.decCNP = false
			d.decAt += d.decPeriod()
			d.cut(at)
			continue
		}
		if d.incAt > now {
			break
		}
		d.alphaUntil(d.incAt)
		d.incAt += d.cfg.IncreaseTimer
		d.increase(true)
	}
	d.alphaUntil(now)
}

// alphaUntil replays the alpha ticks due at or before limit.
func (d *DCQCN) alphaUntil(limit units.Time) {
	k := d.cfg.AlphaTimer
	for d.alphaAt <= limit {
		if !d.slotCNP && decay(d.alpha, d.cfg.G) == d.alpha {
			// NB: alpha has reached the fixed point of its decay (zero, or a
			// denormal that (1-g)*alpha rounds back to): the remaining ticks
			// change nothing, so skip them at once.
			d.alphaAt += ((limit-d.alphaAt)/k + 1) * k
			return
		}
		if d.slotCNP {
			d.alpha = mark(d.alpha, d.cfg.G) // HPCC UpdateAlphaMlx, CNP in slot
		} else {
			d.alpha = decay(d.alpha, d.cfg.G) // CC-NetCalc (Lehal 2024) section V, second bullet
		}
		d.slotCNP = false
		d.alphaAt += k
	}
}

// decay is alpha = (1-g)*alpha.
func decay(alpha, g float64) float64 { return (1 - g) * alpha }

// mark is alpha = (1-g)*alpha + g.
// NB: the conversion forbids fusing into an FMA (Go spec, "Arithmetic
// operators"), which would make results differ between amd64 and arm64.
func mark(alpha, g float64) float64 { return float64((1-g)*alpha) + g }

// cut is the reaction to a CNP (Zhu 2015 Eq. (1)-(2); CC-NetCalc (Lehal 2024) section V,
// first bullet and "Whenever a sender receives a CNP, it sets
// i_B = i_T = 0").
func (d *DCQCN) cut(now units.Time) {
	if !d.cfg.KeepTargetRate || d.iT > 0 || d.iB > 0 {
		d.rt = d.rc
	}
	zhu := d.cfg.AlphaMode == AlphaZhu
	if zhu && d.cfg.AlphaFirst {
		// Zhu et al.'s ns-3 model (ns3-rdma, rpr_cnm_received) updates
		// alpha before it cuts with it.
		d.alpha = mark(d.alpha, d.cfg.G)
	}
	factor := 1 - d.alpha/2
	if d.cfg.Cut == CutAlpha {
		factor = 1 - d.alpha
	}
	if m := d.cfg.MinDecFactor; m > 0 && factor < m {
		// NB: the ConnectX cap on one cut (rpg_min_dec_fac); zero, the
		// default of every preset but connectx, leaves the factor as is.
		factor = m
	}
	d.rc = max(d.minRate, units.BitsPerSec(float64(d.rc)*factor))
	if zhu {
		if !d.cfg.AlphaFirst {
			d.alpha = mark(d.alpha, d.cfg.G)
		}
		d.alphaAt = now + d.cfg.AlphaTimer
	}
	d.restartIncrease(now)
}

// restartIncrease is what every cut ends with: the increase counters restart
// (CC-NetCalc, Lehal 2024: "Whenever a sender receives a CNP, it sets i_B = i_T = 0")
// and fast recovery begins with the increase timer T.
func (d *DCQCN) restartIncrease(now units.Time) {
	d.iT, d.iB, d.acc = 0, 0, 0
	d.cuts++
	d.lastCut = now
	d.stage = StageFastRecovery
	d.incAt = now + d.cfg.IncreaseTimer
	d.stopIfRecovered()
}

// cutWith is a cut with caller-given factors (see CutWith).
func (d *DCQCN) cutWith(now units.Time, alpha, beta float64) {
	rt := float64(d.rc) * beta
	switch {
	case rt >= float64(d.flow.Line()):
		d.rt = d.flow.Line()
	case rt <= float64(d.minRate):
		d.rt = d.minRate
	default:
		d.rt = units.BitsPerSec(rt)
	}
	factor := 1 - alpha/2
	if d.cfg.Cut == CutAlpha {
		factor = 1 - alpha
	}
	d.rc = max(d.minRate, units.BitsPerSec(float64(d.rc)*factor))
	d.restartIncrease(now)
}

// increase is one rate-increase event, from the timer T or the byte
// counter B (CC-NetCalc, Lehal 2024, Table I; see IncreaseMode for the two readings).
func (d *DCQCN) increase(byTimer bool) {
	bump := func() {
		if byTimer {
			d.iT++
		} else {
			d.iB++
		}
	}
	if d.cfg.IncreaseMode == IncreaseZhu {
		bump()
	}
	iB := d.iB
	if d.cfg.ByteCounter == 0 {
		iB = d.iT // no byte counter: i_B follows i_T
	}
	hi, lo, f := max(d.iT, iB), min(d.iT, iB), d.cfg.FastRecovery
	switch {
	case hi < f:
		d.stage = StageFastRecovery
	case d.cfg.IncreaseMode == IncreaseZhu && lo >= f:
		d.stage = StageHyper
		d.rt = d.raise(d.rt, lo-f+1, d.step(d.cfg.HAIRate))
	case d.cfg.IncreaseMode == IncreaseMlx && lo > f:
		d.stage = StageHyper
		d.rt = d.raise(d.rt, 1, d.step(d.cfg.HAIRate))
	default:
		d.stage = StageAdditive
		d.rt = d.raise(d.rt, 1, d.step(d.cfg.AIRate))
	}
	if d.cfg.IncreaseMode == IncreaseMlx {
		bump()
	}
	// NB: rounding the mean up lets R_C reach R_T; rounding down would
	// leave it 1 b/s short forever. R_C <= R_T, so the mean never exceeds R_T.
	d.rc = (d.rt + d.rc + 1) / 2
	d.stopIfRecovered()
}

// step is an increase step at this flow's line rate: with AIRefRate set,
// the configured step scaled by line/AIRefRate (the HPCC repository's
// run.py sets RATE_AI and RATE_HAI in proportion to the NIC rate).
func (d *DCQCN) step(s units.BitsPerSec) units.BitsPerSec {
	if ref := d.cfg.AIRefRate; ref > 0 && ref != d.flow.Line() {
		return units.BitsPerSec(float64(s) * float64(d.flow.Line()) / float64(ref))
	}
	return s
}

// raise returns r + n*step, clamped to [minRate, line] without overflow.
func (d *DCQCN) raise(r units.BitsPerSec, n int, step units.BitsPerSec) units.BitsPerSec {
	if step > 0 && int64(n) > int64(d.flow.Line()-r)/int64(step) {
		return d.flow.Line()
	}
	return min(d.flow.Line(), max(d.minRate, r+units.BitsPerSec(n)*step))
}

// stopIfRecovered stops the increase timer and the byte counter once
// R_C = R_T = line rate: every later increase event would change nothing,
// and the next CNP resets the counters anyway.
func (d *DCQCN) stopIfRecovered() {
	if d.rc == d.flow.Line() && d.rt == d.flow.Line() {
		d.incAt = units.Never
		d.acc = 0
		d.stage = StageIdle
	}
}
