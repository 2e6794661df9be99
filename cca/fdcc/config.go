package fdcc

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/policyparam"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// Rescale names how the policy's output o becomes the window multiplier.
type Rescale string

// The rescalings of FDCC (Zhang 2023), Section 4.2.
const (
	// RescaleCompound is the thesis' text: a_{t+1} = a_t (1 + α o) for
	// o >= 0, a_t / (1 - α o) for o < 0, then clamped; WIN_{t+1} = WIN_t a_{t+1}.
	RescaleCompound Rescale = "compound"
	// RescaleDirect does not carry a from step to step: a = 1 + α o or
	// 1 / (1 - α o), then clamped.
	RescaleDirect Rescale = "direct"
)

// Flow counts the trainer's reward reads as Total_flow_num.
type FlowCount string

const (
	// FlowCountDst is the number of flows active toward the flow's
	// destination, which the trainer knows (rl/dataset's flows_to_dst).
	FlowCountDst FlowCount = "dst"
	// FlowCountSwitch is the count the most congested hop's egress port
	// stamps in INT (FDCC, Zhang 2023, Algorithm 2); it turns the
	// switches' flow counter on.
	FlowCountSwitch FlowCount = "switch"
)

// Config is the configuration of FDCC agents. Zero fields take the
// defaults of the parameter table (params below).
type Config struct {
	// Policy is the actor; nil means the embedded default.
	Policy *Policy
	// PolicyPath is where Policy came from: "default" or a file path.
	PolicyPath string
	// Alpha is α of the rescaling, dimensionless (Section 4.2: 0.5).
	Alpha float64
	// AMin and AMax clamp the window multiplier a, dimensionless
	// (Table 3.1: [0.5, 2]).
	AMin, AMax float64
	// Rescale is RescaleCompound or RescaleDirect; "" takes the policy's
	// (the rescaling it was trained with).
	Rescale Rescale
	// BaseRTT is the baseRTT of INSRATE = WIN / baseRTT and of the window's
	// one-BDP cap, picoseconds; 0 = the flow's own base RTT (the thesis
	// uses "the longest standalone RTT", which a user gives here).
	BaseRTT units.Time
	// MinPackets is the window's floor, packets (not in paper 002: 1).
	MinPackets int
	// Latency is the decision latency, picoseconds: a decision taken on an
	// ACK at t sets the window at t + Latency (not in paper 002: 0).
	Latency units.Time
	// FlowCount is what the reward's Total_flow_num reads.
	FlowCount FlowCount
}

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "paper"

var table = &keyval.Table[Config]{
	Name:    "fdcc",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: "paper", Aliases: []string{"zhang2023"}, Doc: "FDCC (Zhang 2023): alpha 0.5 (Sec. 4.2), multiplier in [0.5, 2] (Table 3.1), whole-packet window capped at one BDP (Sec. 5.2-5.3)",
			Reproduces: "FDCC (Zhang 2023), Tables 6.1 and 6.2 (the FDCC rows)"},
	},
	Params: []*keyval.Param[Config]{
		policyparam.Param("default or a policy file", "the actor: the embedded trained policy or a file written by `ccreplay train fdcc`",
			func(c *Config) (**Policy, *string) { return &c.Policy, &c.PolicyPath }, Load),
		keyval.Real("alpha", func(c *Config) *float64 { return &c.Alpha }, keyval.Interval{Lo: 0, Hi: 1, OpenLo: true}).
			Default("0.5").DefaultIfZero().
			Doc("α of the rescaling a(1 + α o) or a / (1 - α o) (Sec. 4.2)"),
		keyval.Real("amin", func(c *Config) *float64 { return &c.AMin }, keyval.Interval{Lo: 0, Hi: 1, OpenLo: true, OpenHi: true}).
			Default("0.5").DefaultIfZero().
			Doc("lowest window multiplier a (Table 3.1)"),
		keyval.Real("amax", func(c *Config) *float64 { return &c.AMax }, keyval.Above(1)).
			Default("2").DefaultIfZero().
			Doc("highest window multiplier a (Table 3.1)"),
		keyval.Custom("rescale", "enum", "policy, compound, direct", func(c *Config, v string) error {
			switch r := Rescale(strings.TrimSpace(v)); r {
			case "policy":
				c.Rescale = ""
			case RescaleCompound, RescaleDirect:
				c.Rescale = r
			default:
				return fmt.Errorf(`want "policy", "compound" or "direct", got %q`, v)
			}
			return nil
		}, func(c *Config) string {
			if c.Rescale == "" {
				return "policy"
			}
			return string(c.Rescale)
		}).
			Default("policy").
			Doc("compound: a carries over between steps, as Sec. 4.2 writes; direct: a = 1 + α o or 1 / (1 - α o) each step; policy: the one the policy was trained with"),
		keyval.Time("base_rtt", func(c *Config) *units.Time { return &c.BaseRTT }).Positive().Zero("path").
			Default("path").
			Doc("baseRTT of INSRATE = WIN / baseRTT and of the one-BDP window cap (path: the flow's own base RTT)"),
		keyval.Int("min_window", func(c *Config) *int { return &c.MinPackets }, keyval.AtLeast(1)).
			Default("1").DefaultIfZero().
			Doc("floor of the window, packets (not in paper 002)"),
		keyval.Time("latency", func(c *Config) *units.Time { return &c.Latency }).
			Default("0us").
			Doc("decision latency: a decision on an ACK at t sets the window at t+latency (not in paper 002)"),
		keyval.Enum("flow_count", func(c *Config) *FlowCount { return &c.FlowCount }, FlowCountDst, FlowCountSwitch).
			Default("dst").DefaultIfZero().
			Doc("Total_flow_num of the reward: flows active to the destination, or the switch counter of Algorithm 2 (turns it on)"),
	},
}

// validate loads the default policy when none is set, fills defaults and
// checks every field.
func (c *Config) validate() error {
	if err := policyparam.Fill(&c.Policy, &c.PolicyPath, Default); err != nil {
		return err
	}
	table.Fill(c)
	if err := table.Check(c); err != nil {
		return err
	}
	c.Rescale = cmp.Or(c.Rescale, c.Policy.Rescale)
	if c.Latency < 0 {
		return fmt.Errorf("latency must not be negative, got %v", c.Latency)
	}
	return nil
}

// algorithm registers FDCC under the name "fdcc". FDCC reads INT; with
// flow_count=switch its Spec also asks the switches for their flow
// counter. It uses no ECN. Every flow's agent shares c.Policy.
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "FDCC learned window control over INT (Zhang 2023)",
	Validate: (*Config).validate,
	Spec: func(c Config) cca.Spec {
		return cca.Spec{
			New:              func() cca.Algorithm { return New(&c) },
			NeedsINT:         true,
			NeedsFlowCounter: c.FlowCount == FlowCountSwitch,
		}
	},
}

// Register adds FDCC to r under the name "fdcc".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of FDCC: the preset, then the key=value
// overrides (see table).
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}

// NewSpec validates c and returns the spec whose factory makes one agent
// per flow, all sharing c.Policy (the trainer uses it with its actor).
func NewSpec(name string, c Config) (cca.Spec, error) { return algorithm.NewSpec(name, c) }
