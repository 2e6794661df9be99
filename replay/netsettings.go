package replay

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// NetworkSetting is one setting of the network a run ran on (switches and
// NICs), under its run.yaml key where it has one.
type NetworkSetting struct {
	// Key names the setting: the run.yaml key (switch.ecn.kmin,
	// nic.cnp_interval, ...), or switch.Field / nic.Field after the Go
	// field for a setting run.yaml does not name.
	Key string `json:"key"`
	// Value is the setting in the form run.yaml takes ("400KB", "1us",
	// "true").
	Value string `json:"value"`
}

// NetworkSettings lists every switch and NIC setting of c, sorted by key:
// first those an algorithm's preset sets (ApplyCCHints: RED marking, the
// CNP interval, INT, the flow counter) under their run.yaml keys, then
// every other field of the switch and NIC configurations. Two runs of a
// comparison that list the same settings ran on the same network.
func NetworkSettings(c *Config) []NetworkSetting {
	e := c.Switch.ECN
	out := []NetworkSetting{
		{"switch.ecn.enabled", fmt.Sprint(e.Enabled)},
		{"switch.int", fmt.Sprint(c.Switch.INT)},
		{"switch.flow_counter", fmt.Sprint(c.Switch.FlowCounter)},
		{"nic.cnp_interval", units.FormatDuration(c.NIC.CNPInterval)},
	}
	if e.Enabled {
		ref := "off"
		if e.RefRate > 0 {
			ref = units.FormatRate(e.RefRate)
		}
		out = append(out,
			NetworkSetting{"switch.ecn.kmin", units.FormatSize(e.KminBytes)},
			NetworkSetting{"switch.ecn.kmax", units.FormatSize(e.KmaxBytes)},
			NetworkSetting{"switch.ecn.pmax", units.FormatFloat(e.Pmax)},
			NetworkSetting{"switch.ecn.ref_rate", ref},
		)
		for _, r := range e.PerRate {
			out = append(out, NetworkSetting{"switch.ecn.per_rate." + units.FormatRate(r.Rate),
				fmt.Sprintf("kmin=%s kmax=%s pmax=%s", units.FormatSize(r.KminBytes), units.FormatSize(r.KmaxBytes), units.FormatFloat(r.Pmax))})
		}
	}
	// Every other field, by its Go name: the fields above are left out.
	covered := map[string]bool{"switch.ECN": true, "switch.INT": true, "switch.FlowCounter": true, "nic.CNPInterval": true}
	flatten("switch", c.Switch, covered, &out)
	flatten("nic", c.NIC, covered, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// flatten appends v's JSON form as one setting per leaf, prefix.Field.Sub,
// skipping the keys in skip (and everything under them).
func flatten(prefix string, v any, skip map[string]bool, out *[]NetworkSetting) {
	b, err := json.Marshal(v)
	if err != nil {
		*out = append(*out, NetworkSetting{prefix, "unprintable: " + err.Error()})
		return
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		*out = append(*out, NetworkSetting{prefix, "unprintable: " + err.Error()})
		return
	}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		if skip[key] {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			for k, sub := range t {
				walk(key+"."+k, sub)
			}
		default:
			s, _ := json.Marshal(t)
			*out = append(*out, NetworkSetting{key, strings.Trim(string(s), `"`)})
		}
	}
	walk(prefix, m)
}
