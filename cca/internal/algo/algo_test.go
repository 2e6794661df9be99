package algo

import (
	"errors"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
)

type state int

func TestName(t *testing.T) {
	names := []string{"a", "b"}
	for v, want := range map[state]string{0: "a", 1: "b", 2: "state(2)", -1: "state(-1)"} {
		if got := Name(v, names, "state"); got != want {
			t.Errorf("Name(%d) = %q, want %q", v, got, want)
		}
	}
}

func TestNew(t *testing.T) {
	fill := func(c *int) error {
		if *c < 0 {
			return errors.New("negative")
		}
		*c += 10 // a default filled in
		return nil
	}
	build := func(c int) *int { return &c }
	if a, err := New(1, fill, build); err != nil || *a != 11 {
		t.Errorf("New(1) = %v, %v; want the validated configuration 11", a, err)
	}
	if a, err := New(-1, fill, build); err == nil || a != nil {
		t.Errorf("New(-1) = %v, %v; want nil and the error", a, err)
	}
}

func TestFlow(t *testing.T) {
	var fl Flow
	if fl.Started() || fl.Line() != 0 {
		t.Fatal("the zero Flow has started")
	}
	mustPanic(t, "x.OnAck: called before Start", func() { fl.MustStart("x", "OnAck") })
	mustPanic(t, "x.Start: non-positive line rate", func() { fl.Start("x", cca.FlowInfo{}) })
	fl.Start("x", cca.FlowInfo{LineRate: 100})
	fl.MustStart("x", "OnAck")
	if !fl.Started() || fl.Line() != 100 || fl.Floor(40) != 40 || fl.Floor(400) != 100 {
		t.Errorf("after Start: started %v, line %v, floors %v %v; want true, 100, 40, 100",
			fl.Started(), fl.Line(), fl.Floor(40), fl.Floor(400))
	}
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		if got := recover(); got != want {
			t.Errorf("panic %v, want %q", got, want)
		}
	}()
	f()
}
