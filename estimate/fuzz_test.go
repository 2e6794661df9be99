package estimate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadLinksManifest: any estimate-links.json is read or refused with
// one line naming it, never a panic; one that is read names its links'
// folders as link=INDEX (no path can leave the link folder).
func FuzzReadLinksManifest(f *testing.F) {
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "estimate-links", "scenario": "s", "inputs": {}, "links": [{"index": 3, "link": "tor0:4 -> agg1", "dir": "link=3", "hash": "ab"}]}`))
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "estimate-links", "links": [{"index": 3, "dir": "../x", "hash": "ab"}]}`))
	f.Add([]byte(`{"kind": "estimate-links", "links": {}}`))
	f.Add([]byte("\x00"))
	root := f.TempDir()
	p := filepath.Join(root, LinksManifestFile)
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadLinksManifest(root)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on several lines: %q", err)
			}
			return
		}
		for _, it := range m.Links {
			if strings.Contains(it.Dir, "/") || strings.Contains(it.Dir, "..") || !strings.HasPrefix(it.Dir, "link=") {
				t.Fatalf("folder %q read", it.Dir)
			}
		}
	})
}
