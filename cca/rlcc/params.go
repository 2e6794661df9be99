package rlcc

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/policyparam"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "auto"

// table is RL-CC's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// The presets differ only in the decision latency (RL-CC-NIC, Fuhrer 2023, Table I); the
// policy is the embedded default unless `policy=FILE` names another.
//   - auto: the latency of the policy's kind, 0.9 us for trees, 17 us for
//     an MLP;
//   - ideal: no latency (a decision applies on the ACK that triggers it);
//   - tree, mlp, lstm: 0.9 us, 17 us and 450 us whatever the policy, to
//     reproduce RL-CC-NIC (Fuhrer 2023), Table II's effect of slow decisions.
//   - sim2us: 2 us whatever the policy, the decision latency RL-CC-NIC
//     (Fuhrer 2023)'s simulator emulates for Table III ("The simulator
//     emulates a decision latency (inference) of 2 usec for both methods").
var table = &keyval.Table[Config]{
	Name:    "rlcc",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: "auto", Doc: "the decision latency of the policy's kind (RL-CC-NIC, Fuhrer 2023, Table I: trees 0.9us, MLP 17us)",
			Reproduces: "RL-CC-NIC (Fuhrer 2023), Table II (each policy on the NIC at its own latency)"},
		{Name: "ideal", Doc: "no decision latency",
			Reproduces: "none (a model without decision latency)"},
		tableILatency("tree", "0.9us", "tree"),
		tableILatency("mlp", "17us", "MLP"),
		tableILatency("lstm", "450us", "LSTM"),
		{Name: "sim2us", Doc: "2us whatever the policy: the decision latency of RL-CC-NIC (Fuhrer 2023), Table III's simulator",
			Reproduces: "RL-CC-NIC (Fuhrer 2023), Table III"},
	},
	Params: []*keyval.Param[Config]{
		policyparam.Param("default, teacher or a policy file", "the policy: the embedded distilled trees, the embedded MLP teacher, or a file (rlcc.LoadFile)",
			func(c *Config) (**Policy, *string) { return &c.Policy, &c.PolicyPath }, Named),
		keyval.Time("latency", func(c *Config) *units.Time { return &c.Latency }).
			Word("auto", func(c *Config) { c.Latency = -1 }, nil).
			Default("auto").In("ideal", "0us").In("tree", "900ns").In("mlp", "17us").In("lstm", "450us").In("sim2us", "2us").
			Doc("decision latency: a decision on an ACK at t changes the rate at t+latency (auto: by the policy's kind)"),
		keyval.Real("amin", func(c *Config) *float64 { return &c.AMin }, keyval.Positive).Zero("policy").
			Show(func(c *Config) string { a, _ := c.Range(); return units.FormatFloat(a) }).
			Default("policy").
			Doc("lowest rate multiplier an action may take (policy: the policy's range)"),
		keyval.Real("amax", func(c *Config) *float64 { return &c.AMax }, keyval.Positive).Zero("policy").
			Show(func(c *Config) string { _, a := c.Range(); return units.FormatFloat(a) }).
			Default("policy").
			Doc("highest rate multiplier an action may take (policy: the policy's range)"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("10Mbps").DefaultIfZero().
			Doc("lowest rate an action can set (below the fair share of the largest test of RL-CC, Tessler 2022)"),
		keyval.Custom("rtt", "enum", "probe, ack", func(c *Config, v string) error {
			switch strings.TrimSpace(v) {
			case "probe":
				c.AckRTT = false
			case "ack":
				c.AckRTT = true
			default:
				return fmt.Errorf(`want "probe" or "ack", got %q`, v)
			}
			return nil
		}, func(c *Config) string {
			if c.AckRTT {
				return "ack"
			}
			return "probe"
		}).
			Default("probe").
			Doc("what triggers a decision: RTT probe responses (RL-CC, Tessler 2022, Fig. 2) or data ACKs"),
	},
}

// tableILatency is the preset name that runs any policy at the decision
// latency RL-CC-NIC (Fuhrer 2023), Table I gives a policy of the kind
// kind (latency as its doc line shows it; the table's latency parameter
// holds the value).
func tableILatency(name, latency, kind string) cca.Preset {
	return cca.Preset{Name: name, Doc: latency + ", RL-CC-NIC (Fuhrer 2023), Table I's " + kind + " latency, whatever the policy",
		Reproduces: "none (Table I's latency applied to any policy)"}
}

// algorithm registers RL-CC under the name "rlcc". RL-CC reads CNP counts,
// so its Spec leaves the switch's ECN marking and the NIC's CNP interval at
// their defaults, and needs no INT. Every flow's agent shares c.Policy.
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "RL-CC learned multiplicative rate policy (Tessler et al. 2022, Fuhrer et al. 2023)",
	Validate: (*Config).validate,
	Spec:     func(c Config) cca.Spec { return cca.Spec{New: func() cca.Algorithm { return New(&c) }} },
}

// Register adds RL-CC to r under the name "rlcc".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of RL-CC: a preset (decision latency), then the
// key=value overrides (see table).
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}

// NewSpec validates c and returns the spec whose factory makes one agent
// per flow, all sharing c.Policy (the trainer uses it with a policy that
// has no file).
func NewSpec(name string, c Config) (cca.Spec, error) { return algorithm.NewSpec(name, c) }
