package runfolder

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// mkRun creates a folder with a (placeholder) flows.parquet and a
// complete manifest, which is what makes a folder a run folder.
func mkRun(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FlowsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, &Manifest{CCA: "dcqcn", Seed: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sweep")
	for _, p := range []string{
		"cca=dcqcn/seed=10", "cca=dcqcn/seed=2", "cca=dcqcn-hpcc/seed=1", "cca=dcqcn/seed=1",
		"load=0.5/cca=hpcc/seed=3", "plain",
	} {
		mkRun(t, filepath.Join(root, filepath.FromSlash(p)))
	}
	// Not runs: an empty folder, and a folder below a run folder.
	os.MkdirAll(filepath.Join(root, "empty"), 0o755)
	mkRun(t, filepath.Join(root, "plain", "nested=1"))

	runs, err := Find(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		rel, _ := filepath.Rel(root, r.Dir)
		var parts []string
		for _, kv := range r.Partition {
			parts = append(parts, kv.Key+":"+kv.Value)
		}
		got = append(got, filepath.ToSlash(rel)+" "+strings.Join(parts, ","))
	}
	want := []string{
		"cca=dcqcn/seed=1 cca:dcqcn,seed:1",
		"cca=dcqcn/seed=2 cca:dcqcn,seed:2",
		"cca=dcqcn/seed=10 cca:dcqcn,seed:10", // numerically after 2
		"cca=dcqcn-hpcc/seed=1 cca:dcqcn-hpcc,seed:1",
		"load=0.5/cca=hpcc/seed=3 load:0.5,cca:hpcc,seed:3",
		"plain ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runs:\n got %q\nwant %q", got, want)
	}
	if v, ok := runs[4].Get("load"); !ok || v != "0.5" {
		t.Errorf("Get(load) = %q, %v", v, ok)
	}
	if _, ok := runs[0].Get("load"); ok {
		t.Errorf("Get of an absent key succeeded")
	}

	// A run folder itself, with the partition of its own path.
	one, err := Find(filepath.Join(root, "cca=dcqcn", "seed=2"))
	if err != nil || len(one) != 1 || len(one[0].Partition) != 2 {
		t.Errorf("run folder: %+v, %v", one, err)
	}

	for _, c := range []struct{ path, want string }{
		{filepath.Join(root, "nope"), "no such folder"},
		{filepath.Join(root, "plain", FlowsFile), "not a folder"},
		{filepath.Join(root, "empty"), "not a run folder (no summary.json) and no run folder below it"},
	} {
		if _, err := Find(c.path); err == nil || !strings.HasPrefix(err.Error(), c.path+": "+c.want) {
			t.Errorf("%s: %v", c.path, err)
		}
	}
}

func TestPartitionPart(t *testing.T) {
	for part, ok := range map[string]bool{
		"cca=dcqcn": true, "seed=1": true, "load=0.5": true, "a_b.c-d=": true, "k=v=w": true,
		"=x": false, "1x=y": false, "a b=c": false, "plain": false, "x/y=z": false,
	} {
		if _, got := partitionPart(part); got != ok {
			t.Errorf("partitionPart(%q) = %v, want %v", part, got, ok)
		}
	}
}
