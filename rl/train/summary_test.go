package train

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// The summary keeps the last iteration of each flow count (the last
// len(Flows) rows, in --flows order), and the text of an FR selection
// names the check's flow counts.
func TestSummarizeLastByFlows(t *testing.T) {
	o := Options{Episodes: 5, Seed: 7, Flows: []int{2, 4}, SelectFlows: []int{24, 96}, ProducedBy: "x"}
	res := &Result{Curve: []v2.LearningRow{{Episode: 0}, {Episode: 1}, {Episode: 2}, {Episode: 3, Scenario: "a"}, {Episode: 4, Scenario: "b"}},
		Checkpoints: []Checkpoint{{Episode: 1, WorstFR: 50}, {Episode: 3, WorstFR: 80, SU: 95}}, Selected: 1}
	s := Summarize("dir", o, res)
	if s.Policy != filepath.Join("dir", runfolder.PolicyFile) || s.First.Episode != 0 || s.Last.Episode != 4 || len(s.LastByN) != 2 || s.LastByN[0].Episode != 3 {
		t.Errorf("summary %+v", s)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote dir/" + runfolder.PolicyFile + " and dir/" + runfolder.LearningFile + " (5 episodes, seed 7)",
		"kept the policy after episode 4: smallest FR 80 on 24,96 flows (SU 95 %); 2 checkpoints", "\na ", "\nb "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
