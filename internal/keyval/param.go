package keyval

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// Param is one row of an algorithm's Table: a `--cca-param key=value`
// parameter of configurations of type C. It knows how to parse a value
// into a field of C (bounds included), how to print the field back in a
// form that parses to the same value, how to check a field a Go program
// set, its default and preset values, and the one-line doc that help
// texts and docs/PARAMETERS.md show.
//
// Make one with a constructor (Rate, Time, Size, Real, Int, Bool, BoolNot,
// Enum, Value, Custom, Lift) and chain the modifiers (Doc, Default, In,
// Positive, Zero, Word, OnSet, Alt, Show, DefaultIfZero, Unit):
//
//	keyval.Rate("ai_rate", func(c *Config) *units.BitsPerSec { return &c.AIRate }).
//		Default("5Mbps").In("hpcc", "50Mbps").DefaultIfZero().
//		Doc("R_AI, the additive-increase step of the target rate")
type Param[C any] struct {
	key, unit, doc string
	def            string            // value in every preset presets does not name
	presets        map[string]string // value in the presets In named
	bounds         string            // accepted values, for docs
	positive       bool              // Time, Size: zero is refused
	words          []word[C]         // special values, before the kind's parser
	zero           []string          // spellings of zero (lowercase); zero[0] prints
	zeroShown      string            // zero[0] as declared
	alt            string            // ", or <alt>" after a syntax error
	fill           bool              // a zero field of a Go configuration takes the default

	parse   func(c *C, v string) error // the kind's parser, bounds included
	format  func(c *C) string          // the kind's canonical form
	check   func(c *C) error           // the kind's bounds on a field a program set
	isZero  func(c *C) bool
	setZero func(c *C)
	copy    func(dst, src *C)
	onSet   func(c *C)        // after the parser or a zero word set the field
	show    func(c *C) string // replaces the printed form entirely
}

// word is a special value such as "bdp" or "mtu-per-rtt".
type word[C any] struct {
	text string
	set  func(*C)
	is   func(*C) bool // prints as text when true; nil: never printed
}

// Doc sets the one-line description.
func (p *Param[C]) Doc(s string) *Param[C] { p.doc = s; return p }

// Default sets the value in every preset that In does not name: the
// default preset's value, unless In names it.
func (p *Param[C]) Default(v string) *Param[C] { p.def = v; return p }

// In sets the value in the named preset.
func (p *Param[C]) In(preset, v string) *Param[C] {
	if p.presets == nil {
		p.presets = map[string]string{}
	}
	p.presets[preset] = v
	return p
}

// Unit replaces the kind's name in docs ("packets", "time or Nx").
func (p *Param[C]) Unit(u string) *Param[C] { p.unit = u; return p }

// Positive refuses zero (Time, Size): "must be positive, got "0us"".
func (p *Param[C]) Positive() *Param[C] { p.positive, p.bounds = true, "> 0"; return p }

// Zero makes words spell zero: the first is how a zero value prints
// ("off", "none", "path", "0B"), every one is accepted, case-insensitive.
// A zero spelled so is exempt from Positive and from Check.
func (p *Param[C]) Zero(words ...string) *Param[C] {
	p.zeroShown = words[0]
	for _, w := range words {
		p.zero = append(p.zero, strings.ToLower(w))
	}
	return p
}

// Word adds a special value: text (case-insensitive) calls set; a
// configuration for which is reports true prints as text (is may be nil).
// OnSet does not run after a word.
func (p *Param[C]) Word(text string, set func(*C), is func(*C) bool) *Param[C] {
	p.words = append(p.words, word[C]{strings.ToLower(text), set, is})
	return p
}

// Alt names the other accepted forms after a syntax error: `invalid rate
// "x" (...), or mtu-per-rtt`.
func (p *Param[C]) Alt(s string) *Param[C] { p.alt = s; return p }

// OnSet runs fn after the kind's parser or a zero word set the field (to
// clear a field that another form of the value sets).
func (p *Param[C]) OnSet(fn func(*C)) *Param[C] { p.onSet = fn; return p }

// Show replaces how the effective value prints (a value resolved from
// other fields, such as an automatic interval).
func (p *Param[C]) Show(fn func(*C) string) *Param[C] { p.show = fn; return p }

// DefaultIfZero makes Table.Fill give a zero field of a configuration
// built in Go its value in the table's Base preset. A parameter with
// words (Word) is zero only when none of its words holds, and takes the
// Base preset's word when that preset gives one ("mtu-per-rtt").
func (p *Param[C]) DefaultIfZero() *Param[C] { p.fill = true; return p }

// unset reports whether c leaves the parameter unset: its field zero and
// none of its words holding.
func (p *Param[C]) unset(c *C) bool {
	if !p.isZero(c) {
		return false
	}
	for _, w := range p.words {
		if w.is != nil && w.is(c) {
			return false
		}
	}
	return true
}

// fillFrom gives c the parameter's value in d: d's word when one holds
// there, else d's field.
func (p *Param[C]) fillFrom(c, d *C) {
	for _, w := range p.words {
		if w.is != nil && w.is(d) {
			w.set(c)
			return
		}
	}
	p.copy(c, d)
}

// ValueIn is the parameter's value in the named preset (canonical names
// only), as In or Default set it: how a table that lifts this parameter
// takes the value of another of its presets.
func (p *Param[C]) ValueIn(preset string) string { return p.value(preset) }

// value is the parameter's value in the named preset.
func (p *Param[C]) value(preset string) string {
	if v, ok := p.presets[preset]; ok {
		return v
	}
	return p.def
}

// set parses v into c: special words, then zero words, then the kind.
func (p *Param[C]) set(c *C, v string) error {
	t := strings.ToLower(strings.TrimSpace(v))
	for _, w := range p.words {
		if t == w.text {
			w.set(c)
			return nil
		}
	}
	if slices.Contains(p.zero, t) {
		p.setZero(c)
	} else if err := p.parse(c, v); err != nil {
		return err
	}
	if p.onSet != nil {
		p.onSet(c)
	}
	return nil
}

// get prints the effective value in a form set reads back.
func (p *Param[C]) get(c *C) string {
	if p.show != nil {
		return p.show(c)
	}
	for _, w := range p.words {
		if w.is != nil && w.is(c) {
			return w.text
		}
	}
	if p.zeroShown != "" && p.isZero(c) {
		return p.zeroShown
	}
	return p.format(c)
}

// validate checks a field a program set: special words and zero words are
// always valid, anything else must be within the kind's bounds.
func (p *Param[C]) validate(c *C) error {
	if p.check == nil {
		return nil
	}
	for _, w := range p.words {
		if w.is != nil && w.is(c) {
			return nil
		}
	}
	if p.zero != nil && p.isZero(c) {
		return nil
	}
	return p.check(c)
}

// boundsDoc describes the accepted values, words included.
func (p *Param[C]) boundsDoc() string {
	var alts []string
	for _, w := range p.words {
		alts = append(alts, w.text)
	}
	if z := p.zeroWord(); z != "" {
		alts = append(alts, z)
	}
	if len(alts) == 0 {
		return p.bounds
	}
	if p.bounds == "" {
		return strings.Join(alts, ", ")
	}
	return p.bounds + ", or " + strings.Join(alts, ", ")
}

// zeroWord is the word a zero value prints as ("off", "path"), or "" when
// it prints as a number ("0B").
func (p *Param[C]) zeroWord() string {
	if z := p.zeroShown; z != "" && z[0] >= 'a' && z[0] <= 'z' {
		return z
	}
	return ""
}

func (p *Param[C]) orAlt(err error) error {
	if p.alt != "" {
		return fmt.Errorf("%w, or %s", err, p.alt)
	}
	return err
}

// typed fills the accessors every kind with a field of type T shares.
func typed[C any, T comparable](p *Param[C], f func(*C) *T) *Param[C] {
	var zero T
	p.isZero = func(c *C) bool { return *f(c) == zero }
	p.setZero = func(c *C) { *f(c) = zero }
	p.copy = func(dst, src *C) { *f(dst) = *f(src) }
	return p
}

// quantity is the kind of rates, times and sizes: a unit parser with its
// range [0, max], and the canonical form.
func quantity[C any, T ~int64](key, unit string, f func(*C) *T, parse func(string) (T, error), format func(T) string, max T, maxText string) *Param[C] {
	p := &Param[C]{key: key, unit: unit, bounds: ">= 0"}
	p.parse = func(c *C, v string) error {
		x, err := parse(v)
		if err != nil {
			return p.orAlt(err)
		}
		if x == 0 && p.positive {
			if z := p.zeroWord(); z != "" {
				return fmt.Errorf("must be positive or %q, got %q", z, v)
			}
			return fmt.Errorf("must be positive, got %q", v)
		}
		*f(c) = x
		return nil
	}
	p.format = func(c *C) string { return format(*f(c)) }
	p.check = func(c *C) error {
		switch x := *f(c); {
		case x <= 0 && p.positive && p.zero == nil:
			return fmt.Errorf("%s must be positive, got %s", key, format(x))
		case x < 0:
			return fmt.Errorf("%s must not be negative, got %s", key, format(x))
		case x > max:
			return fmt.Errorf("%s must be at most %s, got %s", key, maxText, format(x))
		}
		return nil
	}
	return typed(p, f)
}

// Rate is a rate in bits per second (units.ParseRate: "25Gbps", "50Mb/s"),
// printed by units.FormatRate; the parser refuses zero.
func Rate[C any](key string, f func(*C) *units.BitsPerSec) *Param[C] {
	return quantity(key, "rate", f, units.ParseRate, units.FormatRate, units.MaxRate, "1Pbps").Positive()
}

// Time is a time in picoseconds (units.ParseDuration: "55us", "0.5ms"),
// printed by units.FormatDuration.
func Time[C any](key string, f func(*C) *units.Time) *Param[C] {
	return quantity(key, "time", f, units.ParseDuration, units.FormatDuration, units.MaxDuration, "1000000s")
}

// Size is a size in bytes (units.ParseSize: "64KB", "1MiB", "1000"),
// printed by units.FormatSize.
func Size[C any](key string, f func(*C) *units.Bytes) *Param[C] {
	return quantity(key, "size", f, units.ParseSize, units.FormatSize, units.MaxSize, "10^18 bytes")
}

// Real is a finite number in r (units.ParseFloat: NaN and the infinities
// are refused in any spelling), printed exactly.
func Real[C any](key string, f func(*C) *float64, r Interval) *Param[C] {
	p := &Param[C]{key: key, unit: "number", bounds: r.String()}
	p.parse = func(c *C, v string) error {
		x, err := ParseFloatIn(v, r)
		if err != nil {
			return p.orAlt(err)
		}
		*f(c) = x
		return nil
	}
	p.format = func(c *C) string { return units.FormatFloat(*f(c)) }
	p.check = func(c *C) error { return checkFloat(key, *f(c), r) }
	return typed(p, f)
}

// Int is an integer in r: `want an integer >= 1, got "0"`.
func Int[C any](key string, f func(*C) *int, r Interval) *Param[C] {
	bounded := !math.IsInf(r.Hi, 1)
	in := r.String()
	if bounded {
		in = "in " + in
	}
	p := &Param[C]{key: key, unit: "integer", bounds: r.String()}
	p.parse = func(c *C, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || !r.Contains(float64(n)) {
			return fmt.Errorf("want an integer %s, got %q", in, v)
		}
		*f(c) = n
		return nil
	}
	p.format = func(c *C) string { return strconv.Itoa(*f(c)) }
	p.check = func(c *C) error {
		if n := *f(c); !r.Contains(float64(n)) {
			if bounded {
				return fmt.Errorf("%s must be %s, got %d", key, in, n)
			}
			return fmt.Errorf("%s must be at least %s, got %d", key, units.FormatFloat(r.Lo), n)
		}
		return nil
	}
	return typed(p, f)
}

// Bool is true or false (strconv.ParseBool: 1, t, TRUE, ...).
func Bool[C any](key string, f func(*C) *bool) *Param[C] { return boolParam(key, f, false) }

// BoolNot is a flag stored negated: key=true sets the field false.
func BoolNot[C any](key string, f func(*C) *bool) *Param[C] { return boolParam(key, f, true) }

func boolParam[C any](key string, f func(*C) *bool, not bool) *Param[C] {
	p := &Param[C]{key: key, unit: "bool", bounds: "true, false"}
	p.parse = func(c *C, v string) error {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("want true or false, got %q", v)
		}
		*f(c) = b != not
		return nil
	}
	p.format = func(c *C) string { return strconv.FormatBool(*f(c) != not) }
	return typed(p, f)
}

// Enum is one of values (case-insensitive): `want one of zhu, mlx, got
// "x"`.
func Enum[C any, T ~string](key string, f func(*C) *T, values ...T) *Param[C] {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	list := strings.Join(names, ", ")
	p := &Param[C]{key: key, unit: "enum", bounds: list}
	p.parse = func(c *C, v string) error {
		t := strings.ToLower(strings.TrimSpace(v))
		for _, x := range values {
			if string(x) == t {
				*f(c) = x
				return nil
			}
		}
		return fmt.Errorf("want one of %s, got %q", list, v)
	}
	p.format = func(c *C) string { return string(*f(c)) }
	p.check = func(c *C) error {
		for _, x := range values {
			if *f(c) == x {
				return nil
			}
		}
		return fmt.Errorf("%s must be one of %s, got %q", key, list, *f(c))
	}
	return typed(p, f)
}

// Value is a field of type T with a grammar of its own (a time or a
// multiple of the base RTT, a rate or a fraction of the line rate): parse
// reads it (bounds included), format prints it back; unit and bounds
// describe it in docs.
func Value[C any, T comparable](key, unit, bounds string, f func(*C) *T, parse func(string) (T, error), format func(T) string) *Param[C] {
	p := &Param[C]{key: key, unit: unit, bounds: bounds}
	p.parse = func(c *C, v string) error {
		x, err := parse(v)
		if err != nil {
			return err
		}
		*f(c) = x
		return nil
	}
	p.format = func(c *C) string { return format(*f(c)) }
	return typed(p, f)
}

// Custom is a value with a grammar of its own (a list, a file, a time or a
// multiple of the base RTT): set parses it into c, get prints it back;
// unit and bounds describe it in docs.
func Custom[C any](key, unit, bounds string, set func(c *C, v string) error, get func(c *C) string) *Param[C] {
	return &Param[C]{key: key, unit: unit, bounds: bounds, parse: set, format: get}
}

// Lift makes a parameter of a configuration C that embeds a configuration
// D (reached by f) out of one of D's parameters: the same key, parser,
// printed form, checks and doc, and as its default p's value in D's
// preset named from.
func Lift[C, D any](p *Param[D], from string, f func(*C) *D) *Param[C] {
	q := &Param[C]{key: p.key, unit: p.unit, doc: p.doc, def: p.value(from), bounds: p.bounds,
		positive: p.positive, zero: p.zero, zeroShown: p.zeroShown, alt: p.alt, fill: p.fill}
	for _, w := range p.words {
		q.words = append(q.words, word[C]{text: w.text, set: func(c *C) { w.set(f(c)) }})
		if is := w.is; is != nil {
			q.words[len(q.words)-1].is = func(c *C) bool { return is(f(c)) }
		}
	}
	q.parse = func(c *C, v string) error { return p.parse(f(c), v) }
	q.format = func(c *C) string { return p.format(f(c)) }
	wrap := func(fn func(*D)) func(*C) {
		if fn == nil {
			return nil
		}
		return func(c *C) { fn(f(c)) }
	}
	q.setZero, q.onSet = wrap(p.setZero), wrap(p.onSet)
	if p.check != nil {
		q.check = func(c *C) error { return p.check(f(c)) }
	}
	if p.isZero != nil {
		q.isZero = func(c *C) bool { return p.isZero(f(c)) }
		q.copy = func(dst, src *C) { p.copy(f(dst), f(src)) }
	}
	if p.show != nil {
		q.show = func(c *C) string { return p.show(f(c)) }
	}
	return q
}
