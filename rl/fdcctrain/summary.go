package fdcctrain

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
)

// CheckpointsDir is the folder of the periodic checkpoints
// (CheckpointScorer) inside the training folder, ScoresFile their scores.
const (
	CheckpointsDir = "checkpoints"
	ScoresFile     = runfolder.ScoresFile
)

// CheckpointScore is one line of checkpoints/scores.json: a checkpoint's
// mean Algorithm 1 reward on the score incasts (Score).
type CheckpointScore struct {
	Episode int     `json:"episode"`
	Policy  string  `json:"policy"`
	Score   float64 `json:"mean_reward"`
}

// CheckpointScorer is an Options.Checkpoint that writes each checkpoint
// to dir/policy-epNNNNNN.json, scores it on flows x seeds with Score and
// rewrites dir/scores.json; Scores returns the scores so far.
type CheckpointScorer struct {
	// Shown, when not empty, is the folder the scores name the checkpoints
	// in: the training folder's checkpoints/ while dir is its staged copy
	// (runfolder.Stage), so that scores.json names them where they end up.
	Shown  string
	dir    string
	flows  []int
	seeds  []uint64
	o      Options
	scores []CheckpointScore
}

// NewCheckpointScorer scores checkpoints of a training with options o.
func NewCheckpointScorer(dir string, flows []int, seeds []uint64, o Options) *CheckpointScorer {
	return &CheckpointScorer{dir: dir, flows: flows, seeds: seeds, o: o}
}

// Checkpoint writes and scores the policy after ep episodes.
func (c *CheckpointScorer) Checkpoint(ep int, p *fdcc.Policy) error {
	b, err := p.Marshal()
	if err != nil {
		return err
	}
	name := filepath.Join(c.dir, fmt.Sprintf("policy-ep%06d.json", ep))
	if err := output.WriteFileAtomic(name, b); err != nil {
		return err
	}
	sc, err := Score(p, c.flows, c.seeds, c.o)
	if err != nil {
		return err
	}
	if c.Shown != "" {
		name = filepath.Join(c.Shown, filepath.Base(name))
	}
	c.scores = append(c.scores, CheckpointScore{Episode: ep, Policy: name, Score: sc})
	return output.WriteJSONAtomic(filepath.Join(c.dir, ScoresFile), c.scores)
}

// Scores are the checkpoints' scores so far (nil for a nil scorer).
func (c *CheckpointScorer) Scores() []CheckpointScore {
	if c == nil {
		return nil
	}
	return c.scores
}

// Summary is what `ccreplay train fdcc` reports of a finished training
// (its --json output).
type Summary struct {
	runfolder.TrainingSummary
	First Row `json:"first"`
	Last  Row `json:"last"`
	// Checkpoints are the periodic checkpoints' scores.
	Checkpoints []CheckpointScore `json:"checkpoints,omitempty"`
	// Heldout are the held-out evaluations (Options.Heldout); Kept the
	// index of the one policy.json holds.
	Heldout []Checkpoint `json:"heldout,omitempty"`
	Kept    int          `json:"kept"`
	// LastByN is the last episode of each flow count, in curriculum
	// order.
	LastByN []Row `json:"last_by_flows"`

	dir string
}

// Summarize is the summary of res, trained with o and written to dir.
func Summarize(dir string, o Options, res *Result, scores []CheckpointScore) *Summary {
	s := &Summary{
		First: res.Curve[0], Last: res.Curve[len(res.Curve)-1], Checkpoints: scores,
		Heldout: res.Checkpoints, Kept: res.Selected, dir: dir,
	}
	s.TrainingSummary = runfolder.NewTrainingSummary(dir, len(o.Curriculum)*o.EpisodesPerStage, o.Seed, o.ProducedBy)
	seen := map[int32]bool{}
	for i := len(res.Curve) - 1; i >= 0 && len(seen) < len(o.Curriculum); i-- {
		if r := res.Curve[i]; !seen[r.Flows] {
			seen[r.Flows] = true
			s.LastByN = append([]Row{r}, s.LastByN...)
		}
	}
	return s
}

// WriteText writes the summary as `ccreplay train fdcc` prints it: the
// files, the checkpoints' scores, the kept held-out checkpoint's table
// and the last episode of each flow count.
func (s *Summary) WriteText(w io.Writer) error {
	s.WriteHead(w)
	if len(s.Checkpoints) > 0 {
		best := 0
		for i, sc := range s.Checkpoints {
			if sc.Score > s.Checkpoints[best].Score {
				best = i
			}
			fmt.Fprintf(w, "checkpoint after %6d episodes: mean reward %10.4f  %s\n", sc.Episode, sc.Score, sc.Policy)
		}
		b := s.Checkpoints[best]
		fmt.Fprintf(w, "highest mean reward on the score incasts: after %d episodes (%s)\n", b.Episode, b.Policy)
	}
	if len(s.Heldout) > 0 {
		c := s.Heldout[s.Kept]
		fmt.Fprintf(w, "%s is the checkpoint after %d episodes: held-out score %.4f of %d checkpoints (tables in %s; the final actor in %s)\n",
			runfolder.PolicyFile, c.Episode, c.Score, len(s.Heldout), filepath.Join(s.dir, runfolder.EvaluationText), filepath.Join(s.dir, runfolder.FinalPolicyFile))
		fmt.Fprint(w, c.Table.Format("kept checkpoint"))
	}
	fmt.Fprintf(w, "%-8s %10s %9s %9s %12s %12s\n", "last", "reward", "draining", "goodput", "max queue", "critic loss")
	for _, r := range s.LastByN {
		fmt.Fprintf(w, "%2d-to-1  %10.4f %9.3f %9.3f %8.2f BDP %12.4g\n", r.Flows, r.Reward, r.Draining, r.Goodput, r.MaxQLen, r.CriticLoss)
	}
	return nil
}
