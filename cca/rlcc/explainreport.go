package rlcc

import (
	"fmt"
	"io"
)

// Explanation is `ccreplay explain rlcc`'s report: the policy's actions on
// the nine condition pairs of RL-CC-NIC (Fuhrer 2023), Table VI, for a
// number of flows, beside the paper's.
type Explanation struct {
	// Policy is the policy parameter's value (default, teacher or a file).
	Policy     string          `json:"policy"`
	Describe   string          `json:"describe"`
	ProducedBy string          `json:"produced_by"`
	Flows      int             `json:"flows"`
	Rows       []ExplainedCell `json:"rows"`
	conds      [3]Condition    // for the text table
	cells      []ExplainRow    // as Explain gave them
}

// ExplainedCell is one row of the --json document.
type ExplainedCell struct {
	Prev     string             `json:"prev"`
	Cur      string             `json:"cur"`
	Features map[string]float64 `json:"features"`
	Action   float64            `json:"action"`
	Paper    float64            `json:"paper_table_vi"`
}

// Explainer evaluates p (named name) on Table VI's condition pairs for n
// flows.
func Explainer(name string, p *Policy, n int) *Explanation {
	e := &Explanation{Policy: name, Describe: p.Describe(), ProducedBy: p.ProducedBy, Flows: n,
		conds: Conditions(n), cells: Explain(p, n)}
	for i, r := range e.cells {
		feat := map[string]float64{}
		for j, f := range FeatureNames {
			feat[f] = r.Features[j]
		}
		e.Rows = append(e.Rows, ExplainedCell{Prev: r.Prev.Name, Cur: r.Cur.Name, Features: feat,
			Action: r.Action, Paper: PaperTableVI[i/3][i%3]})
	}
	return e
}

// WriteText prints the policy, the conditions and a 3 x 3 table of
// actions, each with the paper's in brackets.
func (e *Explanation) WriteText(w io.Writer) {
	fmt.Fprintf(w, "policy %s: %s\n", e.Policy, e.Describe)
	if e.ProducedBy != "" {
		fmt.Fprintf(w, "produced by: %s\n", e.ProducedBy)
	}
	fmt.Fprintf(w, "conditions for %d flows (rate_frac, rtt_inflation, cnps):", e.Flows)
	for _, c := range e.conds {
		fmt.Fprintf(w, " %s (%.4g, %.4g, %g);", c.Name, c.RateFrac, c.RTTInflation, c.CNPs)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "action a (rate_{t+1} = a x rate_t), ours [RL-CC-NIC (Fuhrer 2023), Table VI]\n")
	fmt.Fprintf(w, "%-16s", "prev \\ current")
	for _, c := range e.conds {
		fmt.Fprintf(w, " %18s", c.Name)
	}
	fmt.Fprintln(w)
	for i := range 3 {
		fmt.Fprintf(w, "%-16s", e.cells[3*i].Prev.Name)
		for j := range 3 {
			cell := fmt.Sprintf("%.3f [%.2f]", e.cells[3*i+j].Action, PaperTableVI[i][j])
			fmt.Fprintf(w, " %18s", cell)
		}
		fmt.Fprintln(w)
	}
}
