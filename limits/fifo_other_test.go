//go:build !unix

package limits

import "errors"

func mkfifo(string) error { return errors.New("no named pipes here") }
