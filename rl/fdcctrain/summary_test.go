package fdcctrain

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// The summary keeps the last episode of each flow count in curriculum
// order, and the text names the files and those episodes.
func TestSummarizeLastByFlows(t *testing.T) {
	o := Options{Curriculum: []int{2, 4}, EpisodesPerStage: 2, Seed: 5, ProducedBy: "x"}
	res := &Result{Curve: []Row{{Episode: 0, Flows: 2}, {Episode: 1, Flows: 2}, {Episode: 2, Flows: 2}, {Episode: 3, Flows: 4}, {Episode: 4, Flows: 2, Reward: 0.5}}}
	s := Summarize("dir", o, res, []CheckpointScore{{Episode: 2, Policy: "a", Score: 1}, {Episode: 4, Policy: "b", Score: 3}})
	if s.Episodes != 4 || s.Policy != filepath.Join("dir", runfolder.PolicyFile) || s.First.Episode != 0 || s.Last.Episode != 4 {
		t.Errorf("summary %+v", s)
	}
	if len(s.LastByN) != 2 || s.LastByN[0].Episode != 3 || s.LastByN[1].Episode != 4 {
		t.Errorf("last by flows %+v, want episodes 3 (4-to-1) then 4 (2-to-1)", s.LastByN)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote dir/" + runfolder.PolicyFile + " and dir/" + runfolder.LearningFile + " (4 episodes, seed 5)", "after 4 episodes (b)", " 4-to-1 ", " 2-to-1 "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
