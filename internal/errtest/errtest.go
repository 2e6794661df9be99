// Package errtest is, for tests, the one check of an error against the
// message a table of cases wants: no error, the whole message, or its
// beginning; and the project's error style (one line, lowercase first
// letter) on every error checked.
package errtest

import (
	"strings"
	"testing"
)

// Check fails t (Fatalf) unless err is what want says: "" is no error; a
// want ending in "..." is the beginning of the message; any other want is
// the whole message. An error must also be one line that starts
// lowercase.
func Check(t testing.TB, err error, want string) {
	t.Helper()
	if err == nil {
		if want != "" {
			t.Fatalf("accepted; want %q", want)
		}
		return
	}
	prefix, isPrefix := strings.CutSuffix(want, "...")
	msg := err.Error()
	switch {
	case want == "":
		t.Fatalf("valid config rejected: %v", err)
	case isPrefix && !strings.HasPrefix(msg, prefix):
		t.Fatalf("error %q, want it to start with %q", err, prefix)
	case !isPrefix && msg != want:
		t.Fatalf("error\n got %q\nwant %q", err, want)
	case msg == "" || strings.Contains(msg, "\n") || strings.ToLower(msg[:1]) != msg[:1]:
		t.Fatalf("error %q is not one lowercase line", err)
	}
}
