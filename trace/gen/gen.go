// Package gen builds synthetic traces from short specs such as
//
//	incast:n=16,size=1MB,jitter=1ms,dist=gaussian
//	longflows:n=4,size=100MB,stagger=35ms,mode=pairs
//
// A spec is a generator kind, then optionally ':' and comma-separated
// key=value pairs; absent keys take their defaults (see Kinds or Usage).
// Sizes accept units.ParseSize forms (1MB = 10^6 bytes, 64KiB, or bare
// bytes); times accept units.ParseDuration forms (10us, 1.5ms) or "0", and
// must be whole nanoseconds because trace files store integer ns.
//
// Generators are deterministic: every random draw comes from the
// generator seeded by Parse's seed argument, so the same spec and seed
// give the same trace.
package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Key documents one key of a generator spec.
type Key struct {
	Name    string // as written in a spec, e.g. "size"
	Default string // the value used when the key is absent
	Doc     string // meaning and unit
}

// Kind documents one generator.
type Kind struct {
	Name string // as written before ':' in a spec, e.g. "incast"
	Doc  string // one sentence on the traffic it makes
	Keys []Key  // the keys it accepts

	build func(p *params) *trace.Trace
}

// kinds is the registry, sorted by name. Adding a generator means adding
// an entry here and a file with its build function.
var kinds = []Kind{incastKind, longflowsKind}

// Kinds returns the generators, sorted by name.
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	copy(out, kinds)
	return out
}

// Usage formats every generator with its keys, defaults and units, for
// command-line help.
func Usage() string {
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "%s: %s\n", k.Name, k.Doc)
		for _, key := range k.Keys {
			fmt.Fprintf(&b, "  %-8s %s (default %s)\n", key.Name, key.Doc, key.Default)
		}
	}
	return b.String()
}

// maxCount bounds counts such as n, to catch typos before they allocate.
const maxCount = 1_000_000

// pcgStream is the fixed second word of the PCG state; the seed is the
// first.
const pcgStream = 0x6363_7265_706c_6179 // "ccreplay"

// Parse builds the trace a spec describes, drawing any randomness from a
// generator seeded with seed. Unknown kinds and keys and bad values are
// errors that name them and list what is known. The trace is validated.
func Parse(spec string, seed int64) (*trace.Trace, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.TrimSpace(name)
	var kind *Kind
	for i := range kinds {
		if kinds[i].Name == name {
			kind = &kinds[i]
		}
	}
	if kind == nil {
		if name == "" {
			return nil, fmt.Errorf("empty generator spec (known generators: %s)", kindNames())
		}
		return nil, fmt.Errorf("unknown generator %q (known: %s)", name, kindNames())
	}
	p := &params{
		kind: kind,
		vals: make(map[string]string),
		rng:  rand.New(rand.NewPCG(uint64(seed), pcgStream)),
	}
	if strings.TrimSpace(args) != "" {
		for item := range strings.SplitSeq(args, ",") {
			k, v, ok := strings.Cut(item, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			switch {
			case !ok || k == "":
				return nil, fmt.Errorf("%s: %q is not key=value (keys: %s)", name, strings.TrimSpace(item), kind.keyNames())
			case kind.key(k) == nil:
				return nil, fmt.Errorf("%s: unknown key %q (known: %s)", name, k, kind.keyNames())
			}
			if _, dup := p.vals[k]; dup {
				return nil, fmt.Errorf("%s: key %q given twice", name, k)
			}
			p.vals[k] = v
		}
	}
	t := kind.build(p)
	if p.err != nil {
		return nil, p.err
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err) // a generator bug
	}
	return t, nil
}

// kindNames lists the generators for error messages.
func kindNames() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// key returns the key called name, or nil.
func (k *Kind) key(name string) *Key {
	for i := range k.Keys {
		if k.Keys[i].Name == name {
			return &k.Keys[i]
		}
	}
	return nil
}

// keyNames lists k's keys, in documentation order, for error messages.
func (k *Kind) keyNames() string {
	names := make([]string, len(k.Keys))
	for i, key := range k.Keys {
		names[i] = key.Name
	}
	return strings.Join(names, ", ")
}

// params reads a spec's values for a build function. The first bad value
// is kept in err and later reads return zero values, so build functions
// read all keys first and check err once (Parse does).
type params struct {
	kind *Kind
	vals map[string]string
	rng  *rand.Rand
	err  error
}

// has reports whether the spec gave key.
func (p *params) has(key string) bool { _, ok := p.vals[key]; return ok }

// raw returns key's value from the spec or its default.
func (p *params) raw(key string) string {
	if v, ok := p.vals[key]; ok {
		return v
	}
	k := p.kind.key(key)
	if k == nil {
		panic("gen: " + p.kind.Name + " reads undeclared key " + key)
	}
	return k.Default
}

// fail records the first bad value: "incast: n="abc": want ...".
func (p *params) fail(key, val, want string) {
	if p.err == nil {
		p.err = fmt.Errorf("%s: %s=%q: %s", p.kind.Name, key, val, want)
	}
}

// count reads an integer in lo..hi.
func (p *params) count(key string, lo, hi int64) int64 {
	s := p.raw(key)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		p.fail(key, s, fmt.Sprintf("want an integer in %d..%d", lo, hi))
		return lo
	}
	return v
}

// size reads a size in bytes.
func (p *params) size(key string) int64 {
	s := p.raw(key)
	v, err := units.ParseSize(s)
	if err != nil {
		p.fail(key, s, "want a size such as 1MB (10^6 bytes), 64KiB or 1000 (bytes)")
		return 0
	}
	return int64(v)
}

// duration reads a time that is a whole number of nanoseconds; "0" is
// accepted without a unit.
func (p *params) duration(key string) units.Time {
	s := p.raw(key)
	if s == "0" {
		return 0
	}
	v, err := units.ParseDuration(s)
	switch {
	case err != nil && strings.Contains(err.Error(), "out of range"):
		p.fail(key, s, "out of range")
	case err != nil:
		p.fail(key, s, "want a time such as 10us, 1.5ms or 0")
	case v%units.Nanosecond != 0:
		p.fail(key, s, "want a whole number of nanoseconds (trace files store integer ns)")
	default:
		return v
	}
	return 0
}

// choice reads one of options.
func (p *params) choice(key string, options ...string) string {
	s := p.raw(key)
	for _, o := range options {
		if s == o {
			return s
		}
	}
	p.fail(key, s, "want one of "+strings.Join(options, ", "))
	return options[0]
}

// checkEnd fails when the last release, from + steps*step, would not fit
// in a Time.
func (p *params) checkEnd(key string, from units.Time, steps int64, step units.Time) {
	if step > 0 && steps > 0 && int64(step) > (math.MaxInt64-int64(from))/steps {
		p.fail(key, p.raw(key), "the last release time would overflow")
	}
}
