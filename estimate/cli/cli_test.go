package cli

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/internal/clierr"
)

func validOptions() CommandOptions {
	return CommandOptions{Inputs: Inputs{Tolerance: estimate.DefaultTolerance, PoolFlows: estimate.DefaultPoolFlows, ReverseAcks: estimate.ReverseAcksRate, SenderNICs: estimate.SenderNICsShares},
		Jobs: 1, Aggregate: estimate.AggregateOwn, Combine: estimate.CombineMax}
}

// Each bad method flag is a usage error naming the flag; --no-cluster is
// a negative tolerance (every link simulated).
func TestMethodOptions(t *testing.T) {
	bad := map[string]func(*CommandOptions){
		"--tolerance":      func(o *CommandOptions) { o.Tolerance = -0.1 },
		"--pool-flows":     func(o *CommandOptions) { o.PoolFlows = 0 },
		"--jobs":           func(o *CommandOptions) { o.Jobs = 0 },
		"--aggregate":      func(o *CommandOptions) { o.Aggregate = "mean" },
		"--combine":        func(o *CommandOptions) { o.Combine = "min" },
		"--simulate-every": func(o *CommandOptions) { o.SimulateEvery = []string{"host-down", "core"} },
		"--reverse-acks":   func(o *CommandOptions) { o.ReverseAcks = "mean" },
		"--sender-nics":    func(o *CommandOptions) { o.SenderNICs = "half" },
	}
	for flag, spoil := range bad {
		o := validOptions()
		spoil(&o)
		_, err := o.MethodOptions()
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), flag) {
			t.Errorf("%s: want a usage error naming it, got %v", flag, err)
		}
	}
	o := validOptions()
	o.NoCluster, o.Timings = true, true
	opt, err := o.MethodOptions()
	if err != nil || opt.Tolerance != -1 || !opt.Timings || opt.PoolFlows != estimate.DefaultPoolFlows {
		t.Fatalf("--no-cluster: %+v, %v", opt, err)
	}
	if opt.DrawSeed != nil {
		t.Fatalf("--draw-seed not given: DrawSeed %d, want nil (the run's seed)", *opt.DrawSeed)
	}
	o.SimulateEvery = []string{"host-down", "fabric", "host-down"}
	if opt, err = o.MethodOptions(); err != nil || !reflect.DeepEqual(opt.SimulateEvery, []estimate.LinkKind{estimate.HostDown, estimate.Fabric}) {
		t.Fatalf("--simulate-every host-down,fabric,host-down: %+v, %v", opt, err)
	}
	o.DrawSeed, o.Set = 7, append(o.Set, "draw-seed")
	if opt, err = o.MethodOptions(); err != nil || opt.DrawSeed == nil || *opt.DrawSeed != 7 {
		t.Fatalf("--draw-seed 7: %+v, %v", opt, err)
	}
}

// The link folder is --links-dir, or with --slurm OUT.links.
func TestLinksDir(t *testing.T) {
	o := validOptions()
	o.Out = "runs/est/"
	if d := o.linksDir(); d != "" {
		t.Fatalf("no link folder asked, got %q", d)
	}
	o.Slurm = true
	if d := o.linksDir(); d != "runs/est.links" {
		t.Fatalf("--slurm: %q", d)
	}
	o.LinksDir = "elsewhere"
	if d := o.linksDir(); d != "elsewhere" {
		t.Fatalf("--links-dir: %q", d)
	}
}

// estimate link takes --index or --list, not both, and no link past the
// manifest's.
func TestLinkIndexes(t *testing.T) {
	for _, c := range []struct {
		o    LinkOptions
		want string
	}{
		{LinkOptions{Index: 0, List: "x.list"}, "not both"},
		{LinkOptions{Index: -1}, "give --index I or --list FILE"},
		{LinkOptions{Index: 3}, "link simulation 3: dir lists 3"},
	} {
		_, err := c.o.indexes("dir", 3)
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: want a usage error %q, got %v", c.o, c.want, err)
		}
	}
	idx, err := (&LinkOptions{Index: 2}).indexes("dir", 3)
	if err != nil || len(idx) != 1 || idx[0] != 2 {
		t.Fatalf("--index 2: %v, %v", idx, err)
	}
}

// A task plans again with the flags as given (sorted), one job and the
// default aggregation, whatever order the manifest lists them in, and the
// reverse ACKs as the manifest has them (rate when it has none: written
// before the choice).
func TestInputsCommandOptions(t *testing.T) {
	in := Inputs{Workload: "w", CCA: "dcqcn", Seed: 7, Set: []string{"workload", "cca", "seed"}, Tolerance: 0.2, PoolFlows: 3}
	o := in.commandOptions()
	if strings.Join(o.Set, ",") != "cca,seed,workload" || o.Jobs != 1 || o.Aggregate != estimate.AggregateOwn || o.Combine != estimate.CombineMax ||
		o.ReverseAcks != estimate.ReverseAcksRate {
		t.Fatalf("%+v", o)
	}
	in.ReverseAcks = estimate.ReverseAcksPackets
	if o := in.commandOptions(); o.ReverseAcks != estimate.ReverseAcksPackets {
		t.Fatalf("%+v", o)
	}
	if in.Set[0] != "workload" {
		t.Fatalf("the manifest's inputs were changed: %v", in.Set)
	}
	if _, err := o.MethodOptions(); err != nil {
		t.Fatal(err)
	}
	// --simulate-every travels in the manifest's inputs (JSON), so a task
	// simulates the links the submission chose.
	in.SimulateEvery = []string{"host-down"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var back Inputs
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	opt, err := back.commandOptions().MethodOptions()
	if err != nil || !reflect.DeepEqual(opt.SimulateEvery, []estimate.LinkKind{estimate.HostDown}) {
		t.Fatalf("from %s: %+v, %v", b, opt, err)
	}
}
