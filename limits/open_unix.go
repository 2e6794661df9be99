//go:build unix

package limits

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading without blocking in open(2): a named
// pipe with no writer opens at once (and is then refused from its mode).
// O_NONBLOCK changes nothing for reading a regular file.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
