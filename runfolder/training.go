package runfolder

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/ccreplay/ccreplay/output"
)

// TrainingFile is the manifest of a training folder (Training).
const TrainingFile = "training.json"

// KindTraining is the kind of a training folder's manifest.
const KindTraining = "training"

// Training is training.json, the manifest of the folder `ccreplay train
// rlcc` or `ccreplay distill` writes: what wrote it and the files it
// holds, marked complete as its last file. Like a run's manifest it holds
// no wall-clock value.
type Training struct {
	SchemaVersion string `json:"schema_version"`
	Kind          string `json:"kind"`
	Complete      bool   `json:"complete"`
	Tool          string `json:"tool"`
	// Command is the command that wrote the folder ("train rlcc",
	// "distill rlcc").
	Command string `json:"command"`
	Seed    uint64 `json:"seed"`
	// Files are the folder's files, this one last.
	Files []string `json:"files"`
}

// WriteTraining sets m's version, kind and completeness marker and writes
// it into dir as training.json, atomically: call it last.
func WriteTraining(dir string, m *Training) error {
	m.SchemaVersion, m.Kind, m.Complete = Version, KindTraining, true
	return output.WriteJSONAtomic(filepath.Join(dir, TrainingFile), m)
}

// TrainingSummary heads what `ccreplay train rlcc` and `ccreplay train
// fdcc` report of a finished training (their --json output): the policy
// and the learning curve written into the training folder, the episodes,
// the seed and the command line the policy records.
type TrainingSummary struct {
	Policy     string `json:"policy"`
	Learning   string `json:"learning"`
	Episodes   int    `json:"episodes"`
	Seed       uint64 `json:"seed"`
	ProducedBy string `json:"produced_by"`
}

// NewTrainingSummary is the summary head of a training written to dir.
func NewTrainingSummary(dir string, episodes int, seed uint64, producedBy string) TrainingSummary {
	return TrainingSummary{Policy: filepath.Join(dir, PolicyFile), Learning: filepath.Join(dir, LearningFile),
		Episodes: episodes, Seed: seed, ProducedBy: producedBy}
}

// WriteHead writes the first line the train commands print: the files
// written, the episodes and the seed.
func (s TrainingSummary) WriteHead(w io.Writer) {
	fmt.Fprintf(w, "wrote %s and %s (%d episodes, seed %d)\n", s.Policy, s.Learning, s.Episodes, s.Seed)
}

// ReadTraining reads dir's training.json and checks that it is a complete
// training folder of this schema version. Errors name the file.
func ReadTraining(dir string) (*Training, error) {
	var m Training
	p, err := readManifestFile(dir, TrainingFile, "training", "", &m)
	if err != nil {
		return nil, err
	}
	if m.SchemaVersion != Version {
		return nil, fmt.Errorf("%s: schema_version %q, want %q", p, m.SchemaVersion, Version)
	}
	if m.Kind != KindTraining || !m.Complete {
		return nil, fmt.Errorf("%s: %w: it does not say \"kind\": %q and \"complete\": true", p, ErrIncomplete, KindTraining)
	}
	return &m, nil
}
