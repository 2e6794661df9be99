package chakra

import (
	"path/filepath"
	"testing"
)

// ASTRA-sim's 8-rank, 1 MB microbenchmarks (testdata/astrasim, written by
// Chakra's converter, not by us) become the messages the collective
// algorithms imply: ring all-reduce 2(n-1) steps of size/n per rank,
// pairwise all-to-all n-1 messages of size/n per rank, ring all-gather n-1
// steps of the member's whole comm_size per rank (docs/CHAKRA.md: comm_size
// is each member's input buffer).
func TestAstraSimMicrobenchmarks(t *testing.T) {
	const n, size = 8, 1 << 20
	for _, c := range []struct {
		name       string
		msgs       int64
		bytesEach  int64
		collective string
	}{
		{"all_reduce", 2 * (n - 1) * n, size / n, "ALL_REDUCE"},
		{"all_to_all", (n - 1) * n, size / n, "ALL_TO_ALL"},
		{"all_gather", (n - 1) * n, size, "ALL_GATHER"},
	} {
		tr, rep, err := Load(filepath.Join("testdata", "astrasim", c.name, c.name+".3.et"), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rep.Ranks != n || rep.Messages != c.msgs || rep.Collectives[c.collective] != 1 {
			t.Errorf("%s: %d ranks, %d messages, collectives %v; want %d ranks, %d messages, one %s",
				c.name, rep.Ranks, rep.Messages, rep.Collectives, n, c.msgs, c.collective)
		}
		var data int64
		for _, m := range tr.Messages {
			if m.IsSync() {
				continue
			}
			data++
			if m.Bytes != c.bytesEach {
				t.Fatalf("%s: message %d of %d bytes, want %d", c.name, m.ID, m.Bytes, c.bytesEach)
			}
		}
		if data != c.msgs || len(rep.Warnings()) != 0 {
			t.Errorf("%s: %d data messages, warnings %v", c.name, data, rep.Warnings())
		}
	}
}
