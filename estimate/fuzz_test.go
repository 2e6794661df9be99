package estimate

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
)

// FuzzReadLinksManifest: any estimate-links.json is read or refused with
// one line naming it, never a panic; one that is read names its links'
// folders as link=INDEX-HASH12 or, written before the 47th session,
// link=INDEX (no path can leave the link folder).
func FuzzReadLinksManifest(f *testing.F) {
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "estimate-links", "scenario": "s", "inputs": {}, "links": [{"index": 3, "link": "tor0:4 -> agg1", "dir": "link=3", "hash": "ab"}]}`))
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "estimate-links", "scenario": "s", "inputs": {}, "links": [{"index": 3, "link": "tor0:4 -> agg1", "dir": "link=3-0123456789ab", "hash": "0123456789abcdef"}]}`))
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "estimate-links", "links": [{"index": 3, "dir": "../x", "hash": "ab"}]}`))
	f.Add([]byte(`{"kind": "estimate-links", "links": {}}`))
	f.Add([]byte("\x00"))
	testfiles.FuzzFolder(f, LinksManifestFile, func(t *testing.T, dir string) error {
		m, err := ReadLinksManifest(dir)
		if err != nil {
			return err
		}
		for _, it := range m.Links {
			if strings.Contains(it.Dir, "/") || strings.Contains(it.Dir, "..") || !strings.HasPrefix(it.Dir, "link=") {
				t.Fatalf("folder %q read", it.Dir)
			}
		}
		return nil
	})
}
