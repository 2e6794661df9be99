package cli

import (
	"errors"
	"os"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/version"
)

// stageTraining checks that out may be written (new, empty, or with force
// a previous ccreplay training folder) and stages it, before the training
// starts: a refusal costs no training time.
func stageTraining(out string, force bool) (*runfolder.Staged, error) {
	st, err := runfolder.Stage(out, runfolder.StageOptions{Force: force, Flag: "-o"})
	if errors.Is(err, runfolder.ErrRefused) {
		return nil, clierr.Usage(err)
	}
	return st, err
}

// commitTraining writes the staged folder's manifest (training.json, its
// files listed) and moves the folder into place.
func commitTraining(st *runfolder.Staged, command string, seed uint64) error {
	ents, err := os.ReadDir(st.Dir)
	if err != nil {
		return err
	}
	m := runfolder.Training{Tool: "ccreplay " + version.Version, Command: command, Seed: seed}
	for _, e := range ents {
		m.Files = append(m.Files, e.Name())
	}
	m.Files = append(m.Files, runfolder.TrainingFile)
	if err := runfolder.WriteTraining(st.Dir, &m); err != nil {
		return err
	}
	return st.Commit()
}
