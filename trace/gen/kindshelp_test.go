package gen

import (
	"strings"
	"testing"
)

// Every generator has one line, in Kinds' order, its description cut
// before the first parenthesis.
func TestKindsHelp(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(KindsHelp(), "\n"), "\n")
	ks := Kinds()
	if len(lines) != len(ks)+1 {
		t.Fatalf("%d lines for %d generators:\n%s", len(lines), len(ks), KindsHelp())
	}
	for i, k := range ks {
		f := strings.Fields(lines[i+1])
		if f[0] != k.Name || strings.Contains(lines[i+1], " (") {
			t.Errorf("line %d %q: want %s without a parenthesis", i+1, lines[i+1], k.Name)
		}
	}
}

// decode reads a kind's keys in table order whatever the order of the
// struct's fields, leaves keys without a field alone, and panics on a
// field that no key has; variant replaces keys in place and refuses a key
// the kind lacks.
func TestDecodeAndVariant(t *testing.T) {
	p, err := parseArgs(&longflowsKind, "mode=x,size=bad,n=3", 1)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Mode string
		Size int64
		N    int64
	}
	if p.decode(&s) || p.err.Error() != `longflows: size="bad": want a size such as 1MB (10^6 bytes), 64KiB or 1000 (bytes)` || s.N != 3 {
		t.Errorf("decode: err %v, n %d; want size's error first and n = 3", p.err, s.N)
	}
	mustPanic(t, "a field without a key", func() {
		var bad struct{ N, Flows int64 }
		p.decode(&bad)
	})
	v := longflowsKind.variant("v", "doc", timeKey("start", "1us", "doc"))
	if v.Keys[2].Default != "1us" || v.Keys[0].Default != "4" || len(v.Keys) != len(longflowsKind.Keys) || longflowsKind.Keys[2].Default != "0" {
		t.Errorf("variant keys %v", v.Keys)
	}
	mustPanic(t, "a variant of a key the kind lacks", func() { longflowsKind.variant("v", "doc", timeKey("at", "0", "doc")) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}
