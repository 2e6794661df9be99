package swift

import (
	"github.com/ccreplay/ccreplay/internal/keyval"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "kumar2020"

// presets maps each preset name to its configuration.
var presets = map[string]func() Config{
	// kumar2020: Algorithm 1's constants ai = 1 packet per RTT,
	// beta = 0.8, max_mdf = 0.5, with min_cwnd = 0.001 packets (Swift paces
	// down to a thousandth of a packet per RTT) and the flow-scaling range
	// fs_min_cwnd = 0.1 to fs_max_cwnd = 100 packets: the values we recall
	// from the paper and that public Swift models use (e.g. the UEC htsim
	// fork: ai 1, beta 0.8, max_mdf 0.5, fs 0.1..100). The paper text is
	// not in this repository; check them against it before relying on
	// them. The target-delay constants are our choices for a datacenter
	// fabric: base_target = 25 us, h = 1 us per hop and fs_range =
	// 5 x base_target = 125 us. The target must exceed the path's base RTT
	// or the window only shrinks: 25 us is above the default 100G star's
	// 4.2 us and a 6-link fat-tree path's 12.5 us (1 us links).
	// RETX_RESET_THRESHOLD = 5 is our choice (Algorithm 1 names
	// it without a value).
	"kumar2020": defaults,
}

// Presets lists the preset names in sorted order.
func Presets() []string { return keyval.SortedKeys(presets) }

// Preset returns the configuration of a named preset ("" for the default).
func Preset(name string) (Config, error) { return keyval.Preset(presets, name, DefaultPreset) }

// Register adds Swift to r under the name "swift".
func Register(r *cca.Registry) {
	r.Register("swift", "Swift delay-based window AIMD (Kumar et al. 2020), presets "+strings.Join(Presets(), ", "), Build)
}

// Build is the cca.Builder of Swift: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result. Swift needs no
// ECN marking, CNPs or INT: the Spec leaves the switch and NIC defaults.
func Build(preset string, params map[string]string) (cca.Spec, error) {
	name := preset
	if name == "" {
		name = DefaultPreset
	}
	c, err := Preset(name)
	if err != nil {
		return cca.Spec{}, err
	}
	if err := c.apply(params); err != nil {
		return cca.Spec{}, err
	}
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:   "swift:" + name,
		New:    func() cca.Algorithm { return newValid(c) },
		Params: c.Params(),
	}, nil
}
