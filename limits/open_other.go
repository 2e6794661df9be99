//go:build !unix

package limits

import "os"

// openNoWait opens path for reading (no named pipes to wait for here).
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
