package train

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Summary is what `ccreplay train rlcc` reports of a finished training
// (its --json output).
type Summary struct {
	runfolder.TrainingSummary
	First   v2.LearningRow   `json:"first"`
	Last    v2.LearningRow   `json:"last"`
	LastByN []v2.LearningRow `json:"last_by_flows"`
	// Checkpoints and Selected: the checks of the policy during training
	// and the index of the kept one.
	Checkpoints []Checkpoint `json:"checkpoints,omitempty"`
	Selected    int          `json:"selected"`

	dir         string
	selectFlows []int
}

// Summarize is the summary of res, trained with o and written to dir:
// LastByN holds the last iteration of each flow count, in the order of
// o.Flows.
func Summarize(dir string, o Options, res *Result) *Summary {
	s := &Summary{
		First: res.Curve[0], Last: res.Curve[len(res.Curve)-1],
		Checkpoints: res.Checkpoints, Selected: res.Selected, dir: dir, selectFlows: o.SelectFlows,
	}
	s.TrainingSummary = runfolder.NewTrainingSummary(dir, o.Episodes, o.Seed, o.ProducedBy)
	for i := max(len(res.Curve)-len(o.Flows), 0); i < len(res.Curve); i++ {
		s.LastByN = append(s.LastByN, res.Curve[i])
	}
	return s
}

// WriteText writes the summary as `ccreplay train rlcc` prints it: the
// files, the kept checkpoint (its held-out table, or its smallest FR) and
// the last iteration of each flow count.
func (s *Summary) WriteText(w io.Writer) error {
	s.WriteHead(w)
	if len(s.Checkpoints) > 0 {
		c := s.Checkpoints[s.Selected]
		if c.Table != nil {
			fmt.Fprintf(w, "kept the policy after episode %d: held-out score %.4f; %d checkpoints (tables in %s)\n",
				c.Episode+1, c.Score, len(s.Checkpoints), filepath.Join(s.dir, runfolder.EvaluationText))
			fmt.Fprint(w, c.Table.Format("kept checkpoint"))
		} else {
			flows := make([]string, len(s.selectFlows))
			for i, n := range s.selectFlows {
				flows[i] = strconv.Itoa(n)
			}
			fmt.Fprintf(w, "kept the policy after episode %d: smallest FR %.0f on %s flows (SU %.0f %%); %d checkpoints\n",
				c.Episode+1, c.WorstFR, strings.Join(flows, ","), c.SU, len(s.Checkpoints))
		}
	}
	fmt.Fprintf(w, "%-16s %10s %10s %10s %8s %8s\n", "last episodes", "reward", "rate", "rtt infl", "util", "jain")
	for _, r := range s.LastByN {
		fmt.Fprintf(w, "%-16s %10.4f %10.4f %10.3f %8.3f %8.3f\n", r.Scenario, r.MeanReward, r.MeanRateFrac, r.MeanRTTInflation, r.Utilization, r.JainIndex)
	}
	return nil
}
