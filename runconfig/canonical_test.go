package runconfig

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
)

// canonicalHash resolves req and hashes its first algorithm's run.
func canonicalHash(t *testing.T, req Request, seed uint64) string {
	t.Helper()
	st, err := Resolve(req, all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := st.Config(st.Specs[0], seed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.Canonical(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The same request gives the same hash; anything that changes the run
// (seed, a parameter, the trace's bytes, a network setting) changes it.
func TestCanonicalHashIdentifiesTheRun(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.csv", "id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns\n0,0,1,1000,0,-1,-1,,0\n")
	base := Request{Trace: trace, CCA: "dcqcn", Packets: "none", Seed: 1}
	h := canonicalHash(t, base, 1)
	if canonicalHash(t, base, 1) != h {
		t.Fatal("the same request hashed differently")
	}
	param := base
	param.CCAParams = []string{"ai_rate=40Mbps"}
	preset := base
	preset.CCA = "dcqcn:zhu2015"
	yaml := base
	yaml.Config = writeFile(t, dir, "c.yaml", "switch: {buffer: 16MB}\n")
	for name, other := range map[string]string{
		"seed":      canonicalHash(t, base, 2),
		"parameter": canonicalHash(t, param, 1),
		"preset":    canonicalHash(t, preset, 1),
		"buffer":    canonicalHash(t, yaml, 1),
	} {
		if other == h {
			t.Errorf("a different %s gave the same hash", name)
		}
	}
	writeFile(t, dir, "t.csv", "id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns\n0,0,1,2000,0,-1,-1,,0\n")
	if canonicalHash(t, base, 1) == h {
		t.Error("a changed trace file gave the same hash")
	}
}
