package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca/rlcc"
)

func init() { registerCommand(newExplainCmd) }

// explainOptions are `ccreplay explain rlcc`'s flags.
type explainOptions struct {
	s      *streams
	Params []string
	Flows  int
	JSON   bool
}

func newExplainCmd(s *streams) *cobra.Command {
	return learnerGroupCmd("explain", "Show how a learned congestion controller reacts to typical conditions", "explain", newExplainRLCCCmd(s))
}

func newExplainRLCCCmd(s *streams) *cobra.Command {
	o := &explainOptions{s: s}
	c := &cobra.Command{
		Use:   "rlcc",
		Short: "Print the RL-CC policy's action for RL-CC-NIC (Fuhrer 2023), Table VI's nine condition pairs",
		Long: `Evaluates the RL-CC policy (the embedded default, or policy=FILE) on the nine
combinations of previous and current system condition of RL-CC-NIC (Fuhrer 2023), Table VI:
under-utilized (rate 0.4/N, RTT inflation 1, no CNP), on target (rate 1/N, RTT
inflation beta + target sqrt(N) = RL-CC-NIC (Fuhrer 2023), Eq. 2, no CNP) and congested (rate
1.6/N, RTT inflation 4, one CNP), for N flows (default 4, as in the analysis of
RL-CC-NIC, Fuhrer 2023), with the previous action 1 and no NACK. Prints each action next to
the paper's.`,
		Example: `  ccreplay explain rlcc
  ccreplay explain rlcc --json
  ccreplay distill rlcc --teacher teacher --flows 2,4,8 --rounds 2 --duration 2ms --eval-flows none --select-flows none -o student
  ccreplay explain rlcc --cca-param policy=student/policy.json --flows 8`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run() },
	}
	f := c.Flags()
	f.StringArrayVar(&o.Params, "cca-param", nil, "rlcc parameter KEY=VALUE (policy=FILE selects the policy)")
	f.IntVar(&o.Flows, "flows", 4, "number of flows N sharing the bottleneck, which sets the conditions' rates")
	f.BoolVar(&o.JSON, "json", false, "print the nine rows as JSON")
	return c
}

// explainRow is one `--json` row.
type explainRow struct {
	Prev     string             `json:"prev"`
	Cur      string             `json:"cur"`
	Features map[string]float64 `json:"features"`
	Action   float64            `json:"action"`
	Paper    float64            `json:"paper_table_vi"`
}

// explainJSON is the `--json` document.
type explainJSON struct {
	Policy     string       `json:"policy"`
	Describe   string       `json:"describe"`
	ProducedBy string       `json:"produced_by"`
	Flows      int          `json:"flows"`
	Rows       []explainRow `json:"rows"`
}

func (o *explainOptions) run() error {
	if o.Flows < 1 || o.Flows > 1<<20 {
		return usageErrorf("--flows: want a flow count >= 1, got %d", o.Flows)
	}
	params := map[string]string{}
	for _, kv := range o.Params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usageErrorf("--cca-param %q: want KEY=VALUE", kv)
		}
		params[k] = v
	}
	spec, err := rlcc.Build("", params)
	if err != nil {
		return inputErrorf("rlcc: %v", err)
	}
	// The spec's factory holds the validated configuration; an agent
	// exposes nothing of it, so resolve the policy the same way Build does.
	pol, err := policyOf(spec.Params["policy"])
	if err != nil {
		return inputErrorf("rlcc: %v", err)
	}
	rows := rlcc.Explain(pol, o.Flows)
	if o.JSON {
		doc := explainJSON{Policy: spec.Params["policy"], Describe: pol.Describe(), ProducedBy: pol.ProducedBy, Flows: o.Flows}
		for i, r := range rows {
			feat := map[string]float64{}
			for j, n := range rlcc.FeatureNames {
				feat[n] = r.Features[j]
			}
			doc.Rows = append(doc.Rows, explainRow{Prev: r.Prev.Name, Cur: r.Cur.Name, Features: feat,
				Action: r.Action, Paper: rlcc.PaperTableVI[i/3][i%3]})
		}
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	w := o.s.Out
	fmt.Fprintf(w, "policy %s: %s\n", spec.Params["policy"], pol.Describe())
	if pol.ProducedBy != "" {
		fmt.Fprintf(w, "produced by: %s\n", pol.ProducedBy)
	}
	conds := rlcc.Conditions(o.Flows)
	fmt.Fprintf(w, "conditions for %d flows (rate_frac, rtt_inflation, cnps):", o.Flows)
	for _, c := range conds {
		fmt.Fprintf(w, " %s (%.4g, %.4g, %g);", c.Name, c.RateFrac, c.RTTInflation, c.CNPs)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "action a (rate_{t+1} = a x rate_t), ours [RL-CC-NIC (Fuhrer 2023), Table VI]\n")
	fmt.Fprintf(w, "%-16s", "prev \\ current")
	for _, c := range conds {
		fmt.Fprintf(w, " %18s", c.Name)
	}
	fmt.Fprintln(w)
	for i := range 3 {
		fmt.Fprintf(w, "%-16s", rows[3*i].Prev.Name)
		for j := range 3 {
			cell := fmt.Sprintf("%.3f [%.2f]", rows[3*i+j].Action, rlcc.PaperTableVI[i][j])
			fmt.Fprintf(w, " %18s", cell)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// policyOf loads the policy a "policy" parameter value names.
func policyOf(v string) (*rlcc.Policy, error) {
	if strings.EqualFold(v, "default") || strings.EqualFold(v, "teacher") {
		v = strings.ToLower(v)
	}
	return rlcc.Named(v)
}
