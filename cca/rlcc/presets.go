package rlcc

import (
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "auto"

// presets differ only in the decision latency (paper 001 Table I); the
// policy is the embedded default unless `policy=FILE` names another.
//   - auto: the latency of the policy's kind, 0.9 us for trees, 17 us for
//     an MLP;
//   - ideal: no latency (a decision applies on the ACK that triggers it);
//   - tree, mlp, lstm: 0.9 us, 17 us and 450 us whatever the policy, to
//     reproduce paper 001 Table II's effect of slow decisions.
var presets = map[string]func() Config{
	"auto":  func() Config { return Config{Latency: -1} },
	"ideal": func() Config { return Config{Latency: 0} },
	"tree":  func() Config { return Config{Latency: TreeLatency} },
	"mlp":   func() Config { return Config{Latency: MLPLatency} },
	"lstm":  func() Config { return Config{Latency: LSTMLatency} },
}

// Presets lists the preset names in sorted order.
func Presets() []string { return keyval.SortedKeys(presets) }

// Register adds RL-CC to r under the name "rlcc".
func Register(r *cca.Registry) {
	r.Register("rlcc", "RL-CC learned multiplicative rate policy (Tessler et al. 2022, Fuhrer et al. 2023), presets "+strings.Join(Presets(), ", "), Build)
}

// Build is the cca.Builder of RL-CC: a preset (decision latency), then the
// key=value overrides (see Keys: policy, latency, amin, amax, min_rate).
// RL-CC reads CNP counts, so it leaves the switch's ECN marking and the
// NIC's CNP interval at their defaults, and needs no INT.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	c, err := keyval.Preset(presets, preset, DefaultPreset)
	if err != nil {
		return cca.Spec{}, err
	}
	if preset == "" {
		preset = DefaultPreset
	}
	if err := params.Apply(&c, overrides); err != nil {
		return cca.Spec{}, err
	}
	return NewSpec("rlcc:"+preset, c)
}

// NewSpec validates c and returns the spec whose factory makes one agent
// per flow, all sharing c.Policy (the trainer uses it with a policy that
// has no file).
func NewSpec(name string, c Config) (cca.Spec, error) {
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:   name,
		New:    func() cca.Algorithm { return New(&c) },
		Params: params.Values(&c),
	}, nil
}
