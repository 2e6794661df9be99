package errtest

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a testing.TB that records whether Fatalf was called instead
// of stopping the test.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	if r.failed == "" {
		r.failed = fmt.Sprintf(format, args...)
	}
}

// Check accepts exactly the errors its want describes, and refuses an
// error that is not one lowercase line.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
		ok   bool
	}{
		{nil, "", true},
		{errors.New("x must be positive"), "", false},
		{nil, "x must be positive", false},
		{errors.New("x must be positive"), "x must be positive", true},
		{errors.New("x must be positive, got 0"), "x must be positive", false},
		{errors.New("x must be positive, got 0"), "x must be ...", true},
		{errors.New("y must be positive, got 0"), "x must be ...", false},
		{errors.New("X must be positive"), "X must be positive", false},
		{errors.New("x must be\npositive"), "x must be\npositive", false},
	} {
		r := &recorder{TB: t}
		Check(r, tc.err, tc.want)
		if (r.failed == "") != tc.ok {
			t.Errorf("Check(%v, %q): failure %q, want ok=%v", tc.err, tc.want, r.failed, tc.ok)
		}
	}
}
