package gradcheck

import "testing"

// The check passes the exact gradient of f(p) = p0^2 + 3 p1 and catches a
// wrong one (a recording testing.TB stands in for t).
func TestCheck(t *testing.T) {
	p := []float64{0.5, -2}
	f := func() float64 { return p[0]*p[0] + 3*p[1] }
	Check(t, "exact", p, []float64{1, 3}, f, true, 2)
	if p[0] != 0.5 || p[1] != -2 {
		t.Fatalf("parameters not restored: %v", p)
	}
	rec := &recorder{TB: t}
	Check(rec, "wrong", p, []float64{1, 2.9}, f, false, 0)
	if rec.errors != 1 {
		t.Fatalf("a wrong gradient gave %d errors, want 1", rec.errors)
	}
}

type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               { r.TB.Helper() }
func (r *recorder) Errorf(string, ...any) { r.errors++ }
func (r *recorder) Fatalf(string, ...any) { r.errors++ }
