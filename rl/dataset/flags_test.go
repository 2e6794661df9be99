package dataset

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// The command's flag values: the defaults pass, a bad reward list or a
// value Check refuses is a usage error naming the flag.
func TestFlagsParams(t *testing.T) {
	d := DefaultParams()
	f := Flags{Rewards: "all", Gamma: d.Gamma, NStep: d.NStep, IntervalNs: d.IntervalNs, Target: d.Target, Beta: d.Beta}
	p, err := f.Params()
	if err != nil || p.Rewards != d.Rewards || p.Gamma != d.Gamma || p.Target != d.Target {
		t.Fatalf("defaults: %+v, %v", p, err)
	}
	for _, tc := range []struct {
		set  func(*Flags)
		want string
	}{
		{func(f *Flags) { f.Rewards = "nope" }, `--reward: unknown reward "nope"`},
		{func(f *Flags) { f.Rewards = "," }, "--reward: give at least one of dolce, "},
		{func(f *Flags) { f.Gamma = 2 }, "--gamma: want a value in [0, 1], got 2"},
		{func(f *Flags) { f.IntervalNs = -2 }, "--decision-interval-ns: want -1, 0 or a positive number of ns, got -2"},
	} {
		g := f
		tc.set(&g)
		if _, err := g.Params(); err == nil || !strings.HasPrefix(err.Error(), tc.want) || clierr.Code(err) != clierr.ExitUsage {
			t.Errorf("%+v: %v, want a usage error %q", g, err, tc.want)
		}
	}
}

// A sweep's overrides keep the defaults where nil and are checked in
// words.
func TestOverridesParams(t *testing.T) {
	gamma, nstep := 0.5, 3
	p, err := Overrides{Reward: "rlcc", Gamma: &gamma, NStep: &nstep}.Params()
	if err != nil || !p.Rewards.RLCC || p.Rewards.Dolce || p.Gamma != 0.5 || p.NStep != 3 || p.Target != DefaultParams().Target {
		t.Errorf("overrides: %+v, %v", p, err)
	}
	if p, err := (Overrides{}).Params(); err != nil || p != DefaultParams() {
		t.Errorf("no overrides: %+v, %v", p, err)
	}
	if _, err := (Overrides{Reward: "x"}).Params(); err == nil || !strings.HasPrefix(err.Error(), "dataset reward: ") {
		t.Errorf("a bad reward: %v", err)
	}
	bad := 7.0
	if _, err := (Overrides{Gamma: &bad}).Params(); err == nil || !strings.HasPrefix(err.Error(), "gamma: ") {
		t.Errorf("a bad gamma: %v", err)
	}
}

// The text summary names the file and each reward's mean.
func TestInfoWriteText(t *testing.T) {
	var b bytes.Buffer
	Info{Trace: "incast", CCA: "dcqcn", Seed: 3, Rows: 10, Flows: 2, RewardMeans: []ColumnMean{{Column: "reward_rlcc", Mean: -0.5, Rows: 10}}}.WriteText(&b, "ds")
	want := "ccreplay dataset: incast under dcqcn, seed 3: 10 decisions of 2 flows in ds/" + FileName + "\n" +
		"  reward_rlcc            mean         -0.5 over 10 rows\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
