package dolce

import (
	"fmt"

	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dolce/drucb"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Arm is one Dolce-RC arm (Dolce-RC, Ye 2023 Definition 1).
type Arm struct {
	// Alpha is alpha of Eq. (2), in [0, 1]: a cut sets R_C = (1-alpha/2)*R_C.
	Alpha float64
	// Beta is beta of Eq. (1), positive: a cut first sets R_T = beta*R_C
	// ("beta can either be within the range [0.5, 1], or slightly larger
	// than one").
	Beta float64
}

// PaperArms returns the default arm set. Paper 000 lists no values; these
// are DeriveArms(PaperFluid(), 100 Gb/s, 1, 100, {1, 1.01, 1.02, 1.03})
// rounded to 0.001 (TestPaperArmsFromTheorem2): the paper's testbed
// capacity, Fig. 3's range of N, and betas at and slightly above 1,
// because with this model alpha leaves (0, 1] for some N in [1, 100] as
// soon as beta is below 1 or above about 1.04.
func PaperArms() []Arm {
	return []Arm{{0.080, 1.00}, {0.259, 1.01}, {0.443, 1.02}, {0.625, 1.03}}
}

// Estimator selects how the ECN ratio of Eq. (4) is measured.
type Estimator string

const (
	// EstimatorIdeal counts packets: CE-echoing ACKs over data packets
	// sent in the iteration (Dolce-RC, Ye 2023, Section IV-B.1, "Ideal case"; the
	// NIC acknowledges every packet by default, and Ack.ECE says whether
	// the acknowledged packet arrived CE-marked).
	EstimatorIdeal Estimator = "ideal"
	// EstimatorSlots counts time slots, what commodity NICs can do
	// ("Actual case", the one the paper's prototype uses): CNPs received
	// over Tx time slots in the iteration. "Consider every 1 us as a
	// distinct time slot and define a Tx time slot as the time slot in
	// which there is a data transmission": slot k is the interval
	// [k*w, (k+1)*w) of simulated time, w the CNP interval (1 us in the
	// paper, MIN_TIME_BETWEEN_CNPS = 1), and it is a Tx slot when at least
	// one data packet starts transmission in it. The receiver sends at
	// most one CNP per w, so the ratio stays in [0, 1].
	EstimatorSlots Estimator = "slots"
)

// Config is the configuration of one Dolce-RC flow (Dolce-RC, Ye 2023, Algorithm
// 2). A zero field takes the "paper" preset's value.
type Config struct {
	// DCQCN is the revised DCQCN that Dolce-RC runs (Algorithm 2 line 7):
	// its increase logic (timer T, byte counter B, F, R_AI, R_HI), rate
	// floor, optional window and decrease interval, and the network
	// settings it expects (RED marking, CNP interval). Its alpha fields
	// (G, AlphaInit, AlphaMode, AlphaTimer), Cut and KeepTargetRate are
	// unused: "we do not utilize the two equations for updating alpha",
	// Eq. (2) is the cut and Eq. (1) sets R_T on every cut. Default: the
	// dcqcn:dolce preset (Dolce-RC, Ye 2023, Section V-A: Kmin 7 KB, Kmax 500 KB;
	// Section IV-B.1: CNP interval 1 us; Pmax 1 % and the rest from
	// zhu2015, as the paper's DCQCN code, ref. [22], has them) when the
	// whole struct is zero; otherwise its zero fields take dcqcn's own
	// defaults.
	DCQCN dcqcn.Config
	// Arms is the arm set of Definition 1, at least one. Default
	// PaperArms.
	Arms []Arm
	// Gamma is DR-UCB's discount factor, in (0, 1). Default 0.9998
	// (Section V-A).
	Gamma float64
	// Epsilon is DR-UCB's exploration probability, in (0, 1). Default
	// 0.015 (Section V-A).
	Epsilon float64
	// Xi is DR-UCB's exploration constant, > 0.5. Default 0.5001 (Section
	// V-A).
	Xi float64
	// Estimator selects the ECN-ratio estimate of Eq. (4). Default
	// EstimatorSlots, the paper's prototype.
	Estimator Estimator
	// FixedPoint, when true, keeps the bandit in the paper's 20 bytes per
	// connection (Section IV-B.2-3; see drucb.Fixed and RC.AppendState).
	// Default false (float64).
	FixedPoint bool
	// QualifyGap is the least time between two qualified CNPs, which end
	// one bandit iteration each, picoseconds: "A qualified CNP means that
	// the interval between the last qualified CNP and the newly received
	// one should be at least one fast recovery phase" (Section IV-A).
	// Zero means one fast recovery phase of the DCQCN configuration,
	// FastRecovery*IncreaseTimer (5 x 55 us = 275 us). NB: Definition 2
	// also says "at least five times of the CNP interval (i.e., about one
	// fast recovery phase)", which matches with DCQCN's 50 us CNP interval
	// but would be 5 us with Dolce-RC's 1 us; we follow the phase.
	QualifyGap units.Time
}

// bandit returns the DR-UCB configuration.
func (c *Config) bandit() drucb.Config {
	return drucb.Config{K: len(c.Arms), Epsilon: c.Epsilon, Gamma: c.Gamma, Xi: c.Xi}
}

// validate fills defaults (the DCQCN part from dcqcn:dolce when it is
// all zero, else its zero fields from dcqcn's own defaults; the rest from
// the table in params.go) and checks every field.
func (c *Config) validate() error {
	if c.DCQCN == (dcqcn.Config{}) {
		c.DCQCN, _ = dcqcn.Preset("dolce")
	}
	d, err := dcqcn.New(c.DCQCN)
	if err != nil {
		return err
	}
	c.DCQCN = d.Config()
	c.DCQCN.Cut = dcqcn.CutHalfAlpha // Eq. (2)
	if len(c.Arms) == 0 {
		c.Arms = PaperArms()
	}
	rcTable.Fill(c)
	if err := rcTable.Check(c); err != nil {
		return err
	}
	for i, a := range c.Arms {
		if err := checkArm(i, a); err != nil {
			return err
		}
	}
	if d := c.DCQCN; c.QualifyGap == 0 && units.Time(d.FastRecovery) > limits.MaxTime/d.IncreaseTimer {
		// The automatic gap, one fast recovery phase, must be a time too.
		return fmt.Errorf("qualify_gap auto = fast_recovery %d x increase_timer %v is beyond the limit of %v", d.FastRecovery, d.IncreaseTimer, limits.MaxTime)
	}
	return checkBandit(c.bandit(), c.FixedPoint)
}

// checkBandit checks that the bandit can be made, in fixed point too.
func checkBandit(b drucb.Config, fixed bool) error {
	if err := b.Validate(); err != nil {
		return err
	}
	var err error
	if fixed {
		_, err = drucb.NewFixed(b)
	} else {
		_, err = drucb.New(b)
	}
	return err
}

// gap is the effective QualifyGap.
func (c *Config) gap() units.Time {
	if c.QualifyGap > 0 {
		return c.QualifyGap
	}
	return units.Time(c.DCQCN.FastRecovery) * c.DCQCN.IncreaseTimer
}

// PlusConfig is the configuration of one Dolce-RC+ flow (Dolce-RC, Ye 2023
// Algorithm 3). A zero field takes the "paper" preset's value.
type PlusConfig struct {
	// Arms is K, the number of rates r_i = C/2^(K-1-i), i = 0..K-1
	// (Definition 3), at least 1. Default 4: Section VI gives no K; four
	// is Dolce-RC's (Section IV-B.2), giving C/8, C/4, C/2 and C.
	Arms int
	// Gamma is DR-UCB's discount factor, in (0, 1). Default 0.9998.
	Gamma float64
	// Epsilon is DR-UCB's exploration probability, in (0, 1). Default 0.015.
	Epsilon float64
	// Xi is DR-UCB's exploration constant, > 0.5. Default 0.5001.
	Xi float64
	// FixedPoint, when true, runs the bandit in fixed point (drucb.Fixed).
	FixedPoint bool
	// Marking is the RED marking the switches apply and the receivers'
	// CNP gap, as DCQCN's. Default Kmin 7 KB, Kmax 500 KB (Section V-A,
	// stated for Dolce-RC; Section VI-B gives none), Pmax 1 % (the paper
	// gives none: zhu2015's), the same thresholds at every rate, and the
	// simulations' 55 us CNP interval (dcqcn:dolce-sim; Dolce-RC+ ignores
	// CNPs).
	dcqcn.Marking
}

func (c *PlusConfig) validate() error {
	plusTable.Fill(c)
	c.FillRED(plusTable.Defaults().Marking)
	if err := plusTable.Check(c); err != nil {
		return err
	}
	if c.Kmax < c.Kmin {
		return fmt.Errorf("want 0 <= kmin <= kmax, got %d B and %d B", c.Kmin, c.Kmax)
	}
	return checkBandit(c.bandit(), c.FixedPoint)
}

func (c *PlusConfig) bandit() drucb.Config {
	return drucb.Config{K: c.Arms, Epsilon: c.Epsilon, Gamma: c.Gamma, Xi: c.Xi}
}

// newPolicy makes the bandit of a validated configuration.
func newPolicy(b drucb.Config, fixed bool) (drucb.Policy, *drucb.Fixed) {
	if fixed {
		f, err := drucb.NewFixed(b)
		if err != nil {
			panic("dolce: " + err.Error()) // validated before
		}
		return f, f
	}
	p, err := drucb.New(b)
	if err != nil {
		panic("dolce: " + err.Error())
	}
	return p, nil
}
