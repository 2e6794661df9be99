// Package version holds ccreplay's release version and the source
// revision the binary was built from.
package version

import "runtime/debug"

// Version is ccreplay's semantic version.
const Version = "0.1.0"

// Build describes the source a binary was built from, as the Go toolchain
// records it (go build and go run in a git checkout; not go test).
type Build struct {
	// Commit is the git revision, "" when the build did not record one.
	Commit string `json:"commit,omitempty"`
	// Time is the commit time (RFC 3339), "" when unknown.
	Time string `json:"commit_time,omitempty"`
	// Modified is true when the working tree had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
}

// commit is set at link time where the toolchain records no VCS
// information (-buildvcs=false): go build -ldflags
// "-X github.com/ccreplay/ccreplay/version.commit=$(git rev-parse HEAD)"
// (make build does this).
var commit string

// Info returns what the running binary knows of its source.
func Info() Build {
	b := Build{Commit: commit}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String is the version with the short commit, e.g. "0.1.0 (a1b8049,
// modified)", or the version alone when the build recorded no commit.
func String() string {
	b := Info()
	if b.Commit == "" {
		return Version
	}
	c := b.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if b.Modified {
		c += ", modified"
	}
	return Version + " (" + c + ")"
}
