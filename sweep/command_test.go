package sweep

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// Every check of the command line is a usage error (exit 2) naming the
// flag, made before anything is planned or written.
func TestOptionsPlanRefusals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sw")
	ok := func(DatasetOptions) error { return nil }
	base := Options{Flags: Flags{Workload: "incast:n=4,size=64KB"}, Dir: dir, Jobs: 1, SlurmOptions: SlurmOptions{Chunk: 1}}
	for _, c := range []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) { o.Dir = "" }, "--out DIR"},
		{func(o *Options) { o.Jobs = 0 }, "-j/--jobs must be >= 1, got 0"},
		{func(o *Options) { o.Kind = "bogus" }, `--kind "bogus"`},
		{func(o *Options) { o.SlurmOptions.Chunk = 0 }, "--chunk must be >= 1"},
		{func(o *Options) { o.Flags.Dataset.Reward = "all" }, "need --kind dataset"},
	} {
		o := base
		c.edit(&o)
		_, err := o.Plan(ok)
		if err == nil || !strings.Contains(err.Error(), c.want) || clierr.Code(err) != clierr.ExitUsage {
			t.Errorf("%s: got %v (exit %d), want a usage error with %q", c.want, err, clierr.Code(err), c.want)
		}
	}
	o := base
	o.Kind = string(KindDataset)
	if _, err := o.Plan(func(DatasetOptions) error { return errors.New("--gamma: 2 is not in [0, 1]") }); err == nil ||
		clierr.Code(err) != clierr.ExitUsage || !strings.Contains(err.Error(), "--gamma") {
		t.Errorf("a dataset check's error: got %v, want it as a usage error", err)
	}
	if pl, err := base.Plan(ok); err != nil || len(pl.Points) != 1 {
		t.Fatalf("one point planned: %v", err)
	}
}

// sweep point takes --index or --list, not both and not neither; status
// of a folder that is not a sweep is an error naming it.
func TestSubcommandRefusals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sw")
	o := Options{Flags: Flags{Workload: "incast:n=4,size=64KB"}, Dir: dir, Jobs: 1, SlurmOptions: SlurmOptions{Chunk: 1}}
	if _, err := o.Plan(func(DatasetOptions) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := RunPoints(context.Background(), dir, 0, "list", 0, 1, nil); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--index and --list: %v", err)
	}
	if err := RunPoints(context.Background(), dir, -1, "", 0, 1, nil); err == nil || !strings.Contains(err.Error(), "give --index I or --list") {
		t.Errorf("neither: %v", err)
	}
	var b bytes.Buffer
	if err := PrintStatus(&b, dir, false, 10); err != nil || !strings.Contains(b.String(), "pending") {
		t.Errorf("status of a planned sweep: %v\n%s", err, b.String())
	}
	if err := PrintStatus(&b, t.TempDir(), false, 10); err == nil || !strings.Contains(err.Error(), "not a sweep folder") {
		t.Errorf("status of an empty folder: %v", err)
	}
}
