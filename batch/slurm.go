package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/internal/shellquote"
	"github.com/ccreplay/ccreplay/limits"
)

// SlurmOptions say how a plan is submitted to Slurm.
type SlurmOptions struct {
	// Exe is the ccreplay binary the tasks run (an absolute path every
	// node can reach).
	Exe string
	// Command is the ccreplay command a task runs on its share, e.g.
	// ["sweep", "point"]; the task appends --list, --chunk, --task and
	// the root. Its first word names the job (ccreplay-WORD).
	Command []string
	// Partition and Time are sbatch's --partition and --time ("" = the
	// cluster's defaults).
	Partition, Time string
	// ArrayMax bounds the tasks running at once (sbatch --array=...%M; 0 =
	// no bound).
	ArrayMax int
	// Chunk is the points per task (>= 1).
	Chunk int
	// Sbatch is the sbatch command ("" = "sbatch" on PATH).
	Sbatch string
	// Extra are more #SBATCH options, each "--key=value".
	Extra []string
	// Sidecar, when not nil, is written beside the submission's list
	// (submit-NNN.json for submit-NNN.list) before sbatch runs: what the
	// tasks read of the plan as it was submitted (an estimate's link
	// manifest), so that another plan written into the same root while
	// the array waits does not change what its tasks run.
	Sidecar []byte
}

// Submission is a job array submitted for a plan.
type Submission struct {
	// JobID is Slurm's job id of the array.
	JobID string `json:"job_id"`
	// Script and List are the batch script and the list of the items it
	// runs (one index per line), in the plan's state folder, slurm/.
	Script string `json:"script"`
	List   string `json:"list"`
	// Sidecar is SlurmOptions.Sidecar's file, when one was given.
	Sidecar string `json:"sidecar,omitempty"`
	// Points and Tasks count the items submitted and the array's tasks.
	Points int `json:"points"`
	Tasks  int `json:"tasks"`
}

// SubmitSlurm writes a batch script running the given items of the
// tracked plan pl (chunk of them per array task, each task `ccreplay
// COMMAND --list L --task $SLURM_ARRAY_TASK_ID --chunk K ROOT`, which
// runs them with RunIndexes) and submits it as one job array with sbatch.
// Nothing else of Slurm is used: the tasks write into root like local
// workers do, and States reads the folder. The script and list are named
// by the number of earlier submissions, so a resubmit never overwrites
// what a running array reads.
func SubmitSlurm(ctx context.Context, root string, pl *Plan, points []int, opt SlurmOptions) (*Submission, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("no points to submit")
	}
	if pl.State == "" || len(opt.Command) == 0 {
		return nil, fmt.Errorf("slurm: an untracked plan or no task command")
	}
	if opt.Chunk < 1 {
		opt.Chunk = 1
	}
	if opt.Exe == "" {
		return nil, fmt.Errorf("no ccreplay binary for the tasks")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(absRoot, pl.State, "slurm")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	seq := 1
	for ; ; seq++ {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("submit-%03d.sh", seq))); os.IsNotExist(err) {
			break
		}
	}
	list := filepath.Join(dir, fmt.Sprintf("submit-%03d.list", seq))
	script := filepath.Join(dir, fmt.Sprintf("submit-%03d.sh", seq))
	var lb strings.Builder
	for _, i := range points {
		fmt.Fprintln(&lb, i)
	}
	if err := os.WriteFile(list, []byte(lb.String()), 0o644); err != nil {
		return nil, err
	}
	sidecar := ""
	if opt.Sidecar != nil {
		sidecar = SidecarPath(list)
		if err := os.WriteFile(sidecar, opt.Sidecar, 0o644); err != nil {
			os.Remove(list)
			return nil, err
		}
	}
	tasks := (len(points) + opt.Chunk - 1) / opt.Chunk
	array := fmt.Sprintf("0-%d", tasks-1)
	if opt.ArrayMax > 0 {
		array += "%" + strconv.Itoa(opt.ArrayMax)
	}
	var sb strings.Builder
	sb.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&sb, "# ccreplay %s %s: %d points, %d per task\n", opt.Command[0], absRoot, len(points), opt.Chunk)
	fmt.Fprintf(&sb, "#SBATCH --job-name=ccreplay-%s\n#SBATCH --array=%s\n", opt.Command[0], array)
	fmt.Fprintf(&sb, "#SBATCH --output=%s\n", filepath.Join(slurmPattern(dir), fmt.Sprintf("submit-%03d_%%a.out", seq)))
	fmt.Fprintf(&sb, "#SBATCH --chdir=%s\n", cwd)
	if opt.Partition != "" {
		fmt.Fprintf(&sb, "#SBATCH --partition=%s\n", opt.Partition)
	}
	if opt.Time != "" {
		fmt.Fprintf(&sb, "#SBATCH --time=%s\n", opt.Time)
	}
	for _, e := range opt.Extra {
		fmt.Fprintf(&sb, "#SBATCH %s\n", e)
	}
	command := make([]string, len(opt.Command))
	for i, w := range opt.Command {
		command[i] = shellquote.Word(w)
	}
	fmt.Fprintf(&sb, "exec %s %s --list %s --chunk %d --task \"$SLURM_ARRAY_TASK_ID\" %s\n",
		shellquote.Word(opt.Exe), strings.Join(command, " "), shellquote.Word(list), opt.Chunk, shellquote.Word(absRoot))
	if err := os.WriteFile(script, []byte(sb.String()), 0o755); err != nil {
		return nil, err
	}
	sbatch := opt.Sbatch
	if sbatch == "" {
		sbatch = "sbatch"
	}
	cmd := exec.CommandContext(ctx, sbatch, "--parsable", script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		os.Remove(script)
		os.Remove(list)
		if sidecar != "" {
			os.Remove(sidecar)
		}
		return nil, fmt.Errorf("sbatch %s: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), ";")
	return &Submission{JobID: id, Script: script, List: list, Sidecar: sidecar, Points: len(points), Tasks: tasks}, nil
}

// SidecarPath is where SubmitSlurm writes the sidecar of the submission
// whose list is list: its name with ".json" for ".list".
func SidecarPath(list string) string {
	return strings.TrimSuffix(list, ".list") + ".json"
}

// slurmPattern escapes a path for an sbatch file-name pattern (--output):
// sbatch replaces %a, %j, %A, %x and the other %-sequences and reads %% as
// one %, so a folder whose name holds a % (--out 'run%j') would otherwise
// send the tasks' output somewhere else.
func slurmPattern(path string) string { return strings.ReplaceAll(path, "%", "%%") }

// TaskPoints' errors: the list cannot be read (ErrList) or has no entries
// for the task (ErrTask).
var (
	ErrList = errors.New("bad list")
	ErrTask = errors.New("bad task")
)

// TaskPoints reads a submission's list and returns the items of one
// array task: entries task*chunk .. task*chunk+chunk-1.
func TaskPoints(list string, task, chunk int) ([]int, error) {
	b, err := limits.ReadFile(list, "a point list", limits.MaxRunJSONBytes, true)
	if err != nil {
		return nil, fmt.Errorf("%w: --list: %v", ErrList, err)
	}
	var all []int
	for n, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		i, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil {
			return nil, fmt.Errorf("%w: %s:%d: %q is not a point index", ErrList, list, n+1, line)
		}
		all = append(all, i)
	}
	if chunk < 1 || task < 0 || task*chunk >= len(all) {
		return nil, fmt.Errorf("%w: --task %d --chunk %d: the list %s has %d points", ErrTask, task, chunk, list, len(all))
	}
	return all[task*chunk : min(len(all), task*chunk+chunk)], nil
}
