package cli

import (
	"strings"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/clierr"
)

// Explain are `ccreplay explain rlcc`'s flag values.
type Explain struct {
	Params []string
	Flows  int
	JSON   bool
}

// Run evaluates the RL-CC policy --cca-param policy= names on RL-CC-NIC
// (Fuhrer 2023), Table VI's nine condition pairs for --flows flows and
// prints each action beside the paper's, as text or JSON.
func (o *Explain) Run(env Env) error {
	if o.Flows < 1 || o.Flows > 1<<20 {
		return clierr.Usagef("--flows: want a flow count >= 1, got %d", o.Flows)
	}
	params := map[string]string{}
	for _, kv := range o.Params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return clierr.Usagef("--cca-param %q: want KEY=VALUE", kv)
		}
		params[k] = v
	}
	spec, err := rlcc.Build("", params)
	if err != nil {
		return clierr.Inputf("rlcc: %v", err)
	}
	// The spec's factory holds the validated configuration; an agent
	// exposes nothing of it, so resolve the policy the same way Build does.
	pol, err := policyOf(spec.Params["policy"])
	if err != nil {
		return clierr.Inputf("rlcc: %v", err)
	}
	e := rlcc.Explainer(spec.Params["policy"], pol, o.Flows)
	if o.JSON {
		return env.PrintJSON(e)
	}
	e.WriteText(env.Out)
	return nil
}

// policyOf loads the policy a "policy" parameter value names.
func policyOf(v string) (*rlcc.Policy, error) {
	if strings.EqualFold(v, "default") || strings.EqualFold(v, "teacher") {
		v = strings.ToLower(v)
	}
	return rlcc.Named(v)
}
