// Package version holds ccreplay's release version.
package version

// Version is ccreplay's semantic version.
const Version = "0.1.0"
