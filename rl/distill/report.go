package distill

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/eval"
)

// Report is a distillation's report (distill.json, and `ccreplay distill
// rlcc --json`): the fit and, when run, the comparison of teacher and
// student of RL-CC-NIC (Fuhrer 2023), Table III.
type Report struct {
	Policy     string  `json:"policy"`
	Teacher    string  `json:"teacher"`
	ProducedBy string  `json:"produced_by"`
	Seed       uint64  `json:"seed"`
	Fit        *Result `json:"fit"`
	// TableIII holds teacher and student rows on each flow count compared.
	TableIII []eval.Result `json:"table_iii"`

	selectFlows []int
	eval        eval.Options
}

// NewReport is the report of res, distilled with o from the teacher named
// teacher (a file, "teacher" or "default") into the policy file policy.
func NewReport(policy, teacher string, o Options, res *Result) *Report {
	return &Report{Policy: policy, Teacher: teacher, ProducedBy: o.ProducedBy, Seed: o.Seed, Fit: res,
		selectFlows: o.SelectFlows}
}

// CompareTableIII replays teacher and student on many-to-one with each of
// flows at the collection's decision latency (RL-CC-NIC, Fuhrer 2023,
// Table III) and keeps the rows; progress, when set, sees each run.
func (r *Report) CompareTableIII(o Options, flows []int, eo eval.Options, progress func(eval.Result)) error {
	lat := max(o.Latency, 0)
	teacher, err := rlcc.NewSpec("rlcc:teacher", rlcc.Config{Policy: o.Teacher, PolicyPath: r.Teacher, Latency: lat})
	if err != nil {
		return fmt.Errorf("teacher: %w", err)
	}
	student, err := rlcc.NewSpec("rlcc:student", rlcc.Config{Policy: r.Fit.Student, PolicyPath: r.Policy, Latency: lat})
	if err != nil {
		return err
	}
	r.eval = eo
	r.TableIII, err = eval.Compare([]eval.Entry{{Label: "teacher", Spec: teacher}, {Label: "student", Spec: student}}, flows, eo, progress)
	return err
}

// WriteText writes the report as `ccreplay distill rlcc` prints it;
// report names the report file and buffer the switch buffer as given.
func (r *Report) WriteText(w io.Writer, report, buffer string) error {
	res := r.Fit
	fmt.Fprintf(w, "wrote %s (%d trees, depth %d, %d nodes) and %s\n", r.Policy, res.Trees, res.Depth, res.Nodes, report)
	fmt.Fprintf(w, "student vs teacher action RMSE: %.4f held out (%d pairs), %.4f fitted (%d pairs, %d rounds), %.4f with the student in control (%d pairs); teacher action std %.4f\n",
		res.TestRMSE, res.TestPairs, res.TrainRMSE, res.TrainPairs, res.Rounds, res.ClosedLoopRMSE, res.ClosedLoopPairs, res.TestStd)
	if res.AugmentedPairs > 0 {
		fmt.Fprintf(w, "%d of the fitted pairs are rate copies labelled by the teacher\n", res.AugmentedPairs)
	}
	fmt.Fprintf(w, "rate slope (action at 1.25 x the state's rates minus at 0.8 x), held out: RMSE %.4f against the teacher's, whose RMS is %.4f\n",
		res.RateSlopeRMSE, res.RateSlopeRMS)
	if len(res.RoundFR) > 0 {
		flows := make([]string, len(r.selectFlows))
		for i, n := range r.selectFlows {
			flows[i] = strconv.Itoa(n)
		}
		fmt.Fprintf(w, "kept round %d's student; smallest FR on %s flows per round:", res.SelectedRound, strings.Join(flows, ","))
		for _, fr := range res.RoundFR {
			fmt.Fprintf(w, " %.0f", fr)
		}
		fmt.Fprintln(w)
	}
	for _, f := range res.PerFlows {
		fmt.Fprintf(w, "  %5d to 1: held-out RMSE %.4f (%d pairs)\n", f.Flows, f.TestRMSE, f.TestPairs)
	}
	if len(r.TableIII) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nRL-CC-NIC (Fuhrer 2023), Table III (goodput normalised to line rate, latency in us, %s fabric, %s buffer, window %s):\n",
		eval.FabricName(r.eval.Lossy), buffer, r.eval.Window())
	return eval.WriteTableIII(w, r.TableIII)
}
