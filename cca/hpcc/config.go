package hpcc

import (
	"fmt"

	"github.com/ccreplay/ccreplay/units"
)

// Config is the sender configuration of one HPCC flow. A field left at
// zero takes the paper preset's value unless its comment says that zero
// means something; the defaults, presets and bounds are the table in
// params.go.
type Config struct {
	// Eta is η, the target utilization, in (0, 1]. Default 0.95 (paper
	// section 3.3 and section 5; the HPCC simulator's U_TARGET 0.95).
	Eta float64
	// MaxStage is the number of per-RTT additive-increase stages before a
	// multiplicative update (Alg. 1 line 12). Zero means every update uses
	// line 13, as the HPCC simulator's mix/config.txt (MI_THRESH 0) does;
	// the paper preset sets 5 (paper section 3.3, "maxStage = 5").
	MaxStage int

	// W_AI, the additive increase per update (Alg. 1 lines 13 and 17), is
	// given by exactly one of WAI, AIRate and AIFlows; all three zero take
	// AIFlows = 100.

	// WAI is W_AI in bytes.
	WAI units.Bytes
	// AIRate gives W_AI = AIRate*T/8 bytes at Start: the HPCC simulator
	// keeps a rate and adds RATE_AI (bits per second) per update, which is
	// W_AI/T in window terms.
	AIRate units.BitsPerSec
	// AIRefRate, when positive, is the line rate AIRate is given for: a
	// flow scales AIRate linearly to its own line rate at Start, as the
	// HPCC repository's run.py sets RATE_AI = 10*bw/25 Mb/s for a bw Gb/s
	// NIC. Zero uses AIRate as given at every rate.
	AIRefRate units.BitsPerSec
	// AIFlows is N in W_AI = W_init*(1-η)/N (paper section 3.3: with N
	// flows on a link each adding W_AI per RTT, the additive increase of
	// all of them fits in the 1-η headroom, so the queue stays empty for
	// up to N concurrent flows).
	AIFlows int

	// MinRate is the floor of the rate W/T, bits per second; W never goes
	// below MinRate*T. A value above the line rate is lowered to the line
	// rate at Start. Default 100 Mb/s (the HPCC simulator's MIN_RATE; the
	// paper gives none).
	MinRate units.BitsPerSec
	// BaseRTT is T, picoseconds. Zero means the flow's own base RTT
	// (cca.FlowInfo.BaseRTT: paper section 3.2, "T is the base propagation
	// RTT"). The HPCC simulator's GLOBAL_T 1 uses the largest base RTT of
	// the network for every flow; set this to that value to reproduce it.
	BaseRTT units.Time
	// NoFastReact, when true, ignores ACKs that do not end an RTT (the
	// HPCC simulator's FAST_REACT 0): U, L and W then move once per RTT.
	// False is Algorithm 1 (and FAST_REACT 1).
	NoFastReact bool
}

// validate fills the zero fields that take a default (see the table in
// params.go; W_AI is the default's when none of its three forms is given)
// and checks every field, returning the first problem found.
func (c *Config) validate() error {
	table.Fill(c)
	if c.WAI == 0 && c.AIRate == 0 && c.AIFlows == 0 {
		c.AIFlows = table.Defaults().AIFlows
	}
	if err := table.Check(c); err != nil {
		return err
	}
	set := 0
	for _, on := range []bool{c.WAI != 0, c.AIRate != 0, c.AIFlows != 0} {
		if on {
			set++
		}
	}
	if set > 1 {
		return fmt.Errorf("w_ai, ai_rate and ai_flows each set W_AI: give only one")
	}
	return nil
}
