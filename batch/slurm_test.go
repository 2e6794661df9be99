package batch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubmitSlurmOutputPattern: the script's #SBATCH --output names the
// state folder with every % doubled (sbatch's file-name patterns read %b,
// %a, ... as replacements and %% as a literal %), and keeps %a, the array
// index, as the one replacement.
func TestSubmitSlurmOutputPattern(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sweep%b@x")
	fake := filepath.Join(t.TempDir(), "sbatch")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 4242\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub, err := SubmitSlurm(context.Background(), root, &Plan{State: ".state"}, []int{0, 1, 2}, SlurmOptions{
		Exe: "/usr/bin/true", Command: []string{"sweep", "point"}, Chunk: 2, Sbatch: fake,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sub.JobID != "4242" || sub.Tasks != 2 {
		t.Fatalf("submission %+v", sub)
	}
	b, err := os.ReadFile(sub.Script)
	if err != nil {
		t.Fatal(err)
	}
	want := "#SBATCH --output=" + strings.ReplaceAll(filepath.Join(root, ".state", "slurm"), "%", "%%") + "/submit-001_%a.out\n"
	if !strings.Contains(string(b), want) {
		t.Fatalf("script lacks %q:\n%s", want, b)
	}
	if slurmPattern("a%b%%c") != "a%%b%%%%c" || slurmPattern("plain") != "plain" {
		t.Fatalf("slurmPattern: %q %q", slurmPattern("a%b%%c"), slurmPattern("plain"))
	}
}
