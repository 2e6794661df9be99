package dcqcn

import (
	"errors"
	"fmt"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// AlphaMode selects how the rate-reduction factor alpha is updated.
type AlphaMode string

const (
	// AlphaZhu is Zhu et al. 2015, Eq. (1)-(2): every cut sets
	// alpha = (1-g)*alpha + g and restarts the alpha timer; every K without
	// a CNP sets alpha = (1-g)*alpha (CC-NetCalc, Lehal 2024, section V, second bullet).
	AlphaZhu AlphaMode = "zhu"
	// AlphaMlx is the HPCC simulator's Mellanox model (rdma-hw.cc,
	// UpdateAlphaMlx): a free-running clock of period K started by the
	// first CNP; at each tick alpha = (1-g)*alpha + g if a CNP arrived in
	// the slot, else (1-g)*alpha. The CNP itself does not touch alpha.
	AlphaMlx AlphaMode = "mlx"
)

// DecreaseMode selects when a CNP cuts the rate.
type DecreaseMode string

const (
	// DecreaseImmediate cuts when the CNP arrives, unless the previous
	// cut is less than DecreaseInterval old (Zhu 2015's reaction point).
	DecreaseImmediate DecreaseMode = "immediate"
	// DecreaseTick cuts on a free-running clock of period
	// DecreaseInterval started 1 ns after the first CNP: each tick cuts
	// once if a CNP arrived since the previous tick, and the first CNP
	// itself changes no rate (the HPCC simulator's Mellanox model,
	// rdma-hw.cc cnp_received_mlx and CheckRateDecreaseMlx, with
	// RateOnFirstCnp 1).
	DecreaseTick DecreaseMode = "tick"
)

// CutMode selects the multiplicative decrease applied on a cut.
type CutMode string

const (
	// CutHalfAlpha is R_C = R_C*(1 - alpha/2), Zhu et al. 2015 Eq. (1) and
	// the HPCC simulator's CheckRateDecreaseMlx.
	CutHalfAlpha CutMode = "half-alpha"
	// CutAlpha is R_C = (1 - alpha)*R_C as CC-NetCalc (Lehal 2024) writes it (section V,
	// first bullet).
	CutAlpha CutMode = "alpha"
)

// IncreaseMode selects how the increase counters pick a phase.
type IncreaseMode string

const (
	// IncreaseZhu counts first, then compares (Zhu's ns-3 DCQCN model,
	// qbb-net-device.cc rpr_fast_time/rpr_active_select, and CC-NetCalc (Lehal 2024)
	// Table I): with n = max(i_T, i_B) and m = min(i_T, i_B) after the
	// increment, n < F is fast recovery, m >= F is hyper increase with
	// R_T += (m-F+1)*R_HI, anything else is additive increase.
	IncreaseZhu IncreaseMode = "zhu"
	// IncreaseMlx compares first, then counts (the HPCC simulator's
	// RateIncEventMlx): with the counters' values before the increment,
	// max < F is fast recovery, min > F is hyper increase with a constant
	// R_T += R_HI, anything else (min or max equal to F) is additive.
	IncreaseMlx IncreaseMode = "mlx"
)

// Config is the reaction-point configuration of one DCQCN flow together
// with the network settings its preset expects. A field left at zero takes
// the zhu2015 default unless its comment says that zero means something;
// the defaults, the presets' values and the bounds are the table in
// params.go.
type Config struct {
	// AIRate is R_AI, the additive-increase step of the target rate, bits
	// per second. Default 5 Mb/s (CC-NetCalc, Lehal 2024, Table II).
	AIRate units.BitsPerSec
	// HAIRate is R_HI, the hyper-increase step of the target rate, bits
	// per second. Default 50 Mb/s (CC-NetCalc, Lehal 2024, Table II).
	HAIRate units.BitsPerSec
	// AIRefRate, when positive, is the line rate AIRate and HAIRate are
	// given for: a flow scales both linearly to its own line rate at
	// Start, as the HPCC repository's run.py sets RATE_AI = 5*bw/25 and
	// RATE_HAI = 50*bw/25 Mb/s for a bw Gb/s NIC. Zero (the default) uses
	// them as given at every rate.
	AIRefRate units.BitsPerSec
	// MinRate is the floor of R_C and R_T, bits per second; a value above
	// the line rate is lowered to the line rate at Start. Default 100 Mb/s
	// (our choice: the HPCC simulator's MinRate default; neither Zhu 2015
	// nor CC-NetCalc (Lehal 2024) gives one).
	MinRate units.BitsPerSec
	// G is the alpha EWMA gain g, in (0, 1]. Default 1/256 (CC-NetCalc, Lehal 2024
	// Table II).
	G float64
	// AlphaInit is alpha at Start, in (0, 1]. Default 1 (CC-NetCalc, Lehal 2024,
	// section V: "α is set to 1").
	AlphaInit float64
	// AlphaMode selects the alpha update rule. Default AlphaZhu.
	AlphaMode AlphaMode
	// DecreaseMode selects when a CNP cuts the rate. Default
	// DecreaseImmediate.
	DecreaseMode DecreaseMode
	// AlphaTimer is K, the alpha update period, picoseconds. Default
	// 55 us (CC-NetCalc, Lehal 2024, Table II).
	AlphaTimer units.Time
	// IncreaseTimer is T, the rate-increase timer period, picoseconds.
	// Default 55 us (CC-NetCalc, Lehal 2024, Table II).
	IncreaseTimer units.Time
	// ByteCounter is B, bytes sent per byte-counter increase event; zero
	// disables the byte counter (then i_B is taken equal to i_T). Default
	// 10 MB (CC-NetCalc, Lehal 2024, Table II), set by the presets: zero here is "off".
	ByteCounter units.Bytes
	// FastRecovery is F, the number of increase events that separate fast
	// recovery from additive/hyper increase. Default 5 (CC-NetCalc, Lehal 2024, Table I).
	FastRecovery int
	// IncreaseMode selects how the counters pick a phase. Default
	// IncreaseZhu.
	IncreaseMode IncreaseMode
	// DecreaseInterval is the minimum time between two cuts, picoseconds;
	// a CNP that arrives sooner after the previous cut does not cut. Zero
	// means every CNP cuts (Zhu 2015).
	DecreaseInterval units.Time
	// Cut selects the multiplicative decrease. Default CutHalfAlpha.
	Cut CutMode
	// AlphaFirst, with AlphaZhu, makes a cut update alpha first and then
	// cut with the new value, as Zhu et al.'s ns-3 DCQCN model does
	// (github.com/bobzhuyb/ns3-rdma, qbb-net-device.cc, rpr_cnm_received);
	// false cuts with the alpha from before the CNP (Zhu 2015 Eq. (1) as
	// CC-NetCalc, Lehal 2024, section V writes it).
	AlphaFirst bool
	// MinDecFactor caps a single cut of DCQCN's own (OnCNP, either
	// DecreaseMode): R_C never falls below MinDecFactor times its value
	// before the cut (the min rate still applies). In [0, 1]; zero means
	// no cap, as in Zhu 2015 and every preset but connectx. It is the
	// ConnectX reaction point's rpg_min_dec_fac, a percentage there
	// (ConnectX DCQCN docs, NVIDIA, "DCQCN Parameters": e.g. 25 keeps the
	// new rate at or above 25 % of the old one, 100 forbids cuts). CutWith
	// ignores it: its factors are the caller's.
	MinDecFactor float64
	// KeepTargetRate, when true, makes a cut set R_T = R_C only if an
	// increase event happened since the previous cut (the HPCC simulator's
	// CLAMP_TARGET_RATE 0). False sets R_T = R_C on every cut (Zhu 2015
	// Eq. (1), CLAMP_TARGET_RATE 1).
	KeepTargetRate bool
	// Window caps the bytes in flight; zero means no window.
	Window units.Bytes
	// WindowBDP, when true, sets the window at Start to the flow's
	// bandwidth-delay product LineRate*BaseRTT/8 (at least one MTU);
	// Window must then be zero.
	WindowBDP bool
	// Marking is the switches' RED marking and the receivers' CNP gap.
	// Kmin, Kmax and Pmax all zero mean the zhu2015 marking; CNPInterval
	// defaults to 50 us (CC-NetCalc, Lehal 2024, Table II).
	Marking
}

// Marking is what DCQCN and the algorithms that react to its CNPs
// (Dolce-RC, Dolce-RC+) ask of the network: the RED marking of the
// switches and the CNP gap of the receivers.
type Marking struct {
	// Kmin is the RED marking threshold below which nothing is marked,
	// bytes.
	Kmin units.Bytes
	// Kmax is the RED threshold at which the marking probability reaches
	// Pmax, bytes.
	Kmax units.Bytes
	// Pmax is the marking probability at Kmax, in [0, 1].
	Pmax float64
	// ECNRefRate, when positive, is the link rate Kmin and Kmax are given
	// for; switches scale them linearly to other rates. Zero means the
	// same thresholds at every rate.
	ECNRefRate units.BitsPerSec
	// CNPInterval is the receiver's minimum gap between two CNPs of one
	// queue pair (T_gap), picoseconds.
	CNPInterval units.Time
}

// FillRED gives m the RED marking of def (Kmin, Kmax and Pmax) when m's
// are all zero: a configuration that sets none takes its default's.
func (m *Marking) FillRED(def Marking) {
	if m.Kmin == 0 && m.Kmax == 0 && m.Pmax == 0 {
		m.Kmin, m.Kmax, m.Pmax = def.Kmin, def.Kmax, def.Pmax
	}
}

// Hints are the network hints of a Spec that marks and spaces CNPs as m
// says: its ECN and CNPInterval, on s.
func (m Marking) Hints(s cca.Spec) cca.Spec {
	s.ECN = &cca.ECNHint{KminBytes: m.Kmin, KmaxBytes: m.Kmax, Pmax: m.Pmax, RefRate: m.ECNRefRate}
	s.CNPInterval = m.CNPInterval
	return s
}

// validate fills the zero fields that take a default (see the table in
// params.go; RED marking takes the default's when Kmin, Kmax and Pmax are
// all zero) and checks every field, returning the first problem found.
func (c *Config) validate() error {
	table.Fill(c)
	c.FillRED(table.Defaults().Marking)
	if err := table.Check(c); err != nil {
		return err
	}
	switch {
	case c.WindowBDP && c.Window != 0:
		return errors.New("window: give either a size or bdp, not both")
	case c.Kmin > c.Kmax:
		return fmt.Errorf("kmin (%d B) must not exceed kmax (%d B)", c.Kmin, c.Kmax)
	}
	return nil
}
