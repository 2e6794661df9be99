// Package gen builds synthetic traces from short specs such as
//
//	incast:n=16,size=20MB,jitter=1ms,dist=gaussian
//	incast:flows=2048
//	long-short:long=1,short=8,at=1ms
//	fairshare
//	all-to-all:hosts=8
//	dnn-burst:workers=31,layers=10MB
//	osu-alltoall:nodes=8,ppn=16,sizes=1..1MiB
//	vasp:nodes=8,ppn=12
//
// A spec is a generator kind, then optionally ':' and comma-separated
// key=value pairs; absent keys take their defaults (see Kinds or Usage).
// Sizes accept units.ParseSize forms (1MB = 10^6 bytes, 64KiB, or bare
// bytes); lists of sizes separate them with ';' (1KB;64KB). Times accept
// units.ParseDuration forms (10us, 1.5ms) or "0", and must be whole
// nanoseconds because trace files store integer ns.
//
// Generators are deterministic: every random draw comes from the
// generator seeded by Parse's seed argument, so the same spec and seed
// give the same trace.
//
// Closed-loop generators (osu-alltoall, vasp, dnn-burst) express "this
// phase starts when that one has completed" with Deps through zero-byte
// same-host messages (trace.Message.IsSync): a barrier that depends on
// every message of a phase, or a per-rank join that depends on a rank's
// last messages of a phase, and on which the next phase's messages depend.
// The replay completes such a message at the instant it is released, so a
// barrier among n messages costs 2n dependency edges instead of n^2.
package gen

import (
	"fmt"
	"github.com/ccreplay/ccreplay/limits"
	"math/rand/v2"
	"reflect"
	"slices"
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

	// read parses the key's value, given or Default, for params.decode
	// (bounds included); nil for a key the generator reads itself.
	read func(p *params, key string) any
}

// countKey is a key holding an integer in lo..hi (a count).
func countKey(name, def string, lo, hi int64, doc string) Key {
	return Key{name, def, doc, func(p *params, key string) any { return p.count(key, lo, hi) }}
}

// sizeKey is a key holding a size in bytes (int64).
func sizeKey(name, def, doc string) Key {
	return Key{name, def, doc, func(p *params, key string) any { return p.size(key) }}
}

// sizesKey is a key holding a ';'-separated list of sizes ([]int64).
func sizesKey(name, def, doc string) Key {
	return Key{name, def, doc, func(p *params, key string) any { return p.sizeList(key, 0) }}
}

// timeKey is a key holding a time, whole nanoseconds (units.Time).
func timeKey(name, def, doc string) Key {
	return Key{name, def, doc, func(p *params, key string) any { return p.duration(key) }}
}

// choiceKey is a key holding one of options (string); the first is the
// default.
func choiceKey(name, doc string, options ...string) Key {
	return Key{name, options[0], doc, func(p *params, key string) any { return p.choice(key, options...) }}
}

// flagKey is a key holding true or false (bool).
func flagKey(name, def, doc string) Key {
	return Key{name, def, doc, func(p *params, key string) any { return p.flag(key) }}
}

// prioKey is the priority class of every message of a generator (int32).
var prioKey = Key{"prio", "0", "priority class of every message (0 = the NIC's default data class, 1..7)",
	func(p *params, key string) any { return p.priority(key) }}

// Kind documents one generator.
type Kind struct {
	Name string // as written before ':' in a spec, e.g. "incast"
	Doc  string // one sentence on the traffic it makes
	Keys []Key  // the keys it accepts

	build func(p *params) *trace.Trace
}

// variant is k under another name and doc, built the same way, with the
// keys named in keys replaced (other defaults or wording; same order).
func (k Kind) variant(name, doc string, keys ...Key) Kind {
	v := Kind{Name: name, Doc: doc, Keys: slices.Clone(k.Keys), build: k.build}
	for _, key := range keys {
		i := slices.IndexFunc(v.Keys, func(old Key) bool { return old.Name == key.Name })
		if i < 0 {
			panic("gen: variant " + name + " replaces key " + key.Name + ", which " + k.Name + " lacks")
		}
		v.Keys[i] = key
	}
	return v
}

// kinds is the registry, sorted by name. Adding a generator means adding
// an entry here and a file with its build function.
var kinds = []Kind{allToAllKind, dnnBurstKind, fairshareKind, incastKind, longShortKind, longflowsKind, osuAlltoallKind, vaspKind}

// Kinds returns the generators, sorted by name.
func Kinds() []Kind {
	out := make([]Kind, len(kinds), len(kinds)+1)
	copy(out, kinds)
	out = append(out, cdfKindDoc())
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Usage formats every generator with its keys, defaults and units, for
// command-line help.
func Usage() string {
	var b strings.Builder
	for _, k := range Kinds() {
		fmt.Fprintf(&b, "%s: %s\n", k.Name, k.Doc)
		width := 0
		for _, key := range k.Keys {
			width = max(width, len(key.Name))
		}
		for _, key := range k.Keys {
			fmt.Fprintf(&b, "  %-*s %s (default %s)\n", width, key.Name, key.Doc, key.Default)
		}
	}
	return b.String()
}

// maxCount bounds counts such as n, to catch typos before they allocate.
const maxCount = 1_000_000

// MemPerMessage is what generating a trace and writing it takes per
// message, bytes (the caller's budget less its base, over this, is the
// messages ParseWithin may allow): 227 B measured (/usr/bin/time -v,
// `ccreplay gen cdf:dist=websearch,hosts=16,load=0.5,flows=N -o F.parquet`,
// 10^6 against 10^5 flows).
const MemPerMessage = 240

// maxMessages bounds the messages of one generated trace (about 2.5 GB of
// memory), so that a spec that would exhaust memory fails at once.
const maxMessages = 20_000_000

// pcgStream is the fixed second word of the PCG state; the seed is the
// first.
const pcgStream = 0x6363_7265_706c_6179 // "ccreplay"

// Parse builds the trace a spec describes, drawing any randomness from a
// generator seeded with seed. Unknown kinds and keys and bad values are
// errors that name them and list what is known. The trace is validated.
func Parse(spec string, seed int64) (*trace.Trace, error) {
	return parse(spec, seed, 0)
}

// parse is Parse refusing a spec of more than maxMessages messages (when
// positive) before it is built (see ParseWithin).
func parse(spec string, seed int64, maxMessages int) (*trace.Trace, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.TrimSpace(name)
	if name == "cdf" {
		t, _, err := ParseWithin(spec, seed, maxMessages)
		return t, err
	}
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
	p, err := parseArgs(kind, args, seed)
	if err != nil {
		return nil, err
	}
	p.limit = maxMessages
	t := kind.build(p)
	if p.err != nil {
		return nil, p.err
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err) // a generator bug
	}
	return t, nil
}

// parseArgs reads a spec's comma-separated key=value pairs for kind,
// rejecting unknown and repeated keys, into params with a generator
// seeded with seed.
func parseArgs(kind *Kind, args string, seed int64) (*params, error) {
	name := kind.Name
	p := &params{
		kind: kind,
		vals: make(map[string]string),
		rng:  rand.New(rand.NewPCG(uint64(seed), pcgStream)),
	}
	if strings.TrimSpace(args) == "" {
		return p, nil
	}
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
	return p, nil
}

// kindNames lists the generators for error messages.
func kindNames() string {
	names := make([]string, 0, len(kinds)+1)
	for _, k := range kinds {
		names = append(names, k.Name)
	}
	names = append(names, "cdf")
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
	kind  *Kind
	vals  map[string]string
	rng   *rand.Rand
	err   error
	limit int // messages allowed by the caller (ParseWithin), 0: maxMessages only
}

// decode sets every field of the struct *spec to its key's value: keys
// are read in the kind's order (so the first bad value reported is the
// first in the table, as help lists them), each into the field whose name
// is the key's without '_', case aside (per_host: PerHost); keys without
// a field are left to the build function. A field without a key, or of
// another type than its key's value, is a generator bug and panics. It
// reports whether every value so far is good.
func (p *params) decode(spec any) bool {
	v := reflect.ValueOf(spec).Elem()
	fields := map[string][]int{}
	for _, f := range reflect.VisibleFields(v.Type()) {
		if !f.Anonymous {
			fields[strings.ToLower(f.Name)] = f.Index
		}
	}
	for _, k := range p.kind.Keys {
		name := strings.ReplaceAll(k.Name, "_", "")
		index, ok := fields[name]
		if !ok {
			continue
		}
		delete(fields, name)
		v.FieldByIndex(index).Set(reflect.ValueOf(k.read(p, k.Name)))
	}
	for name := range fields {
		panic("gen: " + p.kind.Name + " decodes field " + name + ", which no key has")
	}
	return p.err == nil
}

// read sets *to to key's value, read as the kind's table says.
func (p *params) read(key string, to any) {
	reflect.ValueOf(to).Elem().Set(reflect.ValueOf(p.kind.key(key).read(p, key)))
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

// sizeList reads a ';'-separated list of sizes, each >= lo bytes.
func (p *params) sizeList(key string, lo int64) []int64 {
	s := p.raw(key)
	var out []int64
	for item := range strings.SplitSeq(s, ";") {
		v, err := units.ParseSize(strings.TrimSpace(item))
		if err != nil || int64(v) < lo {
			p.fail(key, s, fmt.Sprintf("want sizes >= %d bytes separated by ';', such as 1KB;64KiB;1MB", lo))
			return []int64{lo}
		}
		out = append(out, int64(v))
	}
	return out
}

// flag reads true or false.
func (p *params) flag(key string) bool {
	return p.choice(key, "false", "true") == "true"
}

// priority reads a traffic class, 0..trace.MaxPriority.
func (p *params) priority(key string) int32 {
	return int32(p.count(key, 0, int64(trace.MaxPriority)))
}

// tooMany fails when a trace would hold more than maxMessages messages;
// n is the count, estimated in float64 so that it cannot overflow.
func (p *params) tooMany(n float64) bool {
	if n > maxMessages && p.err == nil {
		p.err = fmt.Errorf("%s: the spec makes %.0f messages, more than the limit of %d", p.kind.Name, n, maxMessages)
	}
	if p.limit > 0 && n > float64(p.limit) && p.err == nil {
		p.err = &trace.TooManyMessagesError{Generator: p.kind.Name, Messages: n, Limit: p.limit}
	}
	return p.err != nil
}

// checkEnd fails when the last release, from + steps*step, would be
// beyond limits.MaxTime, the latest release a trace may hold.
func (p *params) checkEnd(key string, from units.Time, steps int64, step units.Time) {
	if from > limits.MaxTime || (step > 0 && steps > 0 && int64(step) > (int64(limits.MaxTime)-int64(from))/steps) {
		p.fail(key, p.raw(key), "the last release time would be beyond the limit of "+limits.Describe(limits.MaxTime))
	}
}
