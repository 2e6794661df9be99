package trace_test

import "testing"

// wantErr checks the error of the call what: none when want is "", else
// exactly the text want. It reports whether an error was expected (and
// found), for the checks that follow on it.
func wantErr(t *testing.T, what string, err error, want string) bool {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("%s = %v, want it accepted", what, err)
		}
		return false
	}
	if err == nil || err.Error() != want {
		t.Fatalf("%s = %v\nwant %s", what, err, want)
	}
	return true
}
