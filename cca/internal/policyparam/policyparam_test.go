package policyparam

import (
	"errors"
	"testing"
)

type pol struct{ name string }

func load(v string) (*pol, error) {
	if v == "missing" {
		return nil, errors.New("no such file")
	}
	return &pol{v}, nil
}

func TestSetAndFill(t *testing.T) {
	p, path := &pol{"old"}, "old"
	for _, v := range []string{"", " default "} {
		if err := set(&p, &path, v, load); err != nil || p != nil || path != Default {
			t.Fatalf("set(%q): %v %v %v, want the default left to Fill", v, p, path, err)
		}
	}
	if err := set(&p, &path, " a.json ", load); err != nil || p.name != "a.json" || path != "a.json" {
		t.Fatalf("set(a.json): %v %v %v", p, path, err)
	}
	if err := set(&p, &path, "missing", load); err == nil || p.name != "a.json" || path != "a.json" {
		t.Fatalf("set(missing): %v %v %v, want the error and the previous policy kept", p, path, err)
	}
	def := func() (*pol, error) { return &pol{"embedded"}, nil }
	if err := Fill(&p, &path, def); err != nil || p.name != "a.json" {
		t.Fatalf("Fill replaced a set policy: %v", p)
	}
	p = nil
	if err := Fill(&p, &path, def); err != nil || p.name != "embedded" || path != Default {
		t.Fatalf("Fill: %v %v %v", p, path, err)
	}
	p = nil
	bad := func() (*pol, error) { return nil, errors.New("corrupt") }
	if err := Fill(&p, &path, bad); err == nil {
		t.Fatal("Fill hid the default's error")
	}
}
