//go:build !linux

package runfolder

import "errors"

// exchange is not available here: replace falls back to two renames.
func exchange(a, b string) error { return errors.New("no atomic exchange on this system") }
