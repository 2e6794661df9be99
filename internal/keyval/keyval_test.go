package keyval

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

type mode string

type cfg struct {
	rate   units.BitsPerSec
	ref    units.BitsPerSec
	timer  units.Time
	base   units.Time
	size   units.Bytes
	bdp    bool
	gain   float64
	n      int
	on     bool
	off    bool
	mode   mode
	custom string
}

func testTable() *Table[cfg] {
	return &Table[cfg]{
		Name:    "test",
		Default: "a",
		Presets: []cca.Preset{{Name: "a", Doc: "first"}, {Name: "b", Aliases: []string{"bee"}, Doc: "second"}},
		Params: []*Param[cfg]{
			Rate("rate", func(c *cfg) *units.BitsPerSec { return &c.rate }).Alt("line").
				Default("5Mbps").In("b", "1Gbps").DefaultIfZero().Doc("a rate"),
			Rate("ref", func(c *cfg) *units.BitsPerSec { return &c.ref }).Zero("off", "none", "0").
				Default("off").Doc("a rate or off"),
			Time("timer", func(c *cfg) *units.Time { return &c.timer }).Positive().
				Default("55us").DefaultIfZero().Doc("a positive time"),
			Time("base", func(c *cfg) *units.Time { return &c.base }).Positive().Zero("path").
				Default("path").Doc("a positive time or path"),
			Size("size", func(c *cfg) *units.Bytes { return &c.size }).Zero("none").
				Word("bdp", func(c *cfg) { c.size, c.bdp = 0, true }, func(c *cfg) bool { return c.bdp }).
				OnSet(func(c *cfg) { c.bdp = false }).
				Default("none").In("b", "bdp").Doc("a size, bdp or none"),
			Real("gain", func(c *cfg) *float64 { return &c.gain }, UnitNonZero).
				Default("0.5").DefaultIfZero().Doc("a gain"),
			Int("n", func(c *cfg) *int { return &c.n }, AtLeast(1)).
				Default("3").DefaultIfZero().Doc("a count"),
			Bool("on", func(c *cfg) *bool { return &c.on }).Default("false").Doc("a flag"),
			BoolNot("clamp", func(c *cfg) *bool { return &c.off }).Default("true").Doc("a negated flag"),
			Enum("mode", func(c *cfg) *mode { return &c.mode }, "x", "y").Default("x").DefaultIfZero().Doc("an enum"),
			Custom("custom", "word", "anything", func(c *cfg, v string) error { c.custom = v; return nil },
				func(c *cfg) string { return c.custom }).Default("hello").Doc("free text"),
		},
		Refused:   map[string]string{"old": "it is gone"},
		Exclusive: []Exclusive{{What: "the rate", Keys: []string{"rate", "ref"}}},
	}
}

// Presets are the declared values, aliases resolve to their preset, and
// unknown names are refused with the known ones.
func TestPresets(t *testing.T) {
	tb := testTable()
	a, name, err := tb.Preset("")
	if err != nil || name != "a" {
		t.Fatalf("default preset: %q %v", name, err)
	}
	want := cfg{rate: 5 * units.Mbps, timer: 55 * units.Microsecond, gain: 0.5, n: 3, off: false, mode: "x", custom: "hello"}
	if a != want {
		t.Fatalf("preset a = %+v, want %+v", a, want)
	}
	b, name, err := tb.Preset("bee")
	if err != nil || name != "b" || b.rate != units.Gbps || b.ref != 0 || !b.bdp {
		t.Fatalf("preset bee = %q %+v %v", name, b, err)
	}
	if _, _, err := tb.Preset("z"); err == nil || err.Error() != `unknown preset "z" (known: a, b)` {
		t.Fatalf("unknown preset: %v", err)
	}
	none := &Table[cfg]{Name: "bare"}
	if _, _, err := none.Preset("z"); err == nil || err.Error() != `unknown preset "z" (bare has none)` {
		t.Fatalf("no presets: %v", err)
	}
	if strings.Join(tb.Keys(), ",") != "base,clamp,custom,gain,mode,n,on,rate,ref,size,timer" {
		t.Fatalf("keys %v", tb.Keys())
	}
}

// Values print every effective value in a form Set reads back.
func TestValuesRoundTrip(t *testing.T) {
	tb := testTable()
	for _, p := range []string{"a", "b"} {
		c, _, _ := tb.Preset(p)
		if err := tb.Apply(&c, map[string]string{"n": "7", "size": "64KB", "clamp": "false", "mode": " Y "}); err != nil {
			t.Fatal(err)
		}
		v := tb.Values(&c)
		var d cfg
		if err := tb.Apply(&d, v); err != nil || d != c {
			t.Fatalf("%s: %v -> %+v, want %+v (%v)", p, v, d, c, err)
		}
	}
	c, _, _ := tb.Preset("b")
	got := tb.Values(&c)
	want := map[string]string{"rate": "1Gbps", "ref": "off", "timer": "55us", "base": "path", "size": "bdp", "gain": "0.5",
		"n": "3", "on": "false", "clamp": "true", "mode": "x", "custom": "hello"}
	if !maps.Equal(got, want) {
		t.Fatalf("values %v, want %v", got, want)
	}
}

// Errors name the key, the value and the bounds; the first bad key in
// sorted order is reported.
func TestErrors(t *testing.T) {
	tb := testTable()
	for _, tc := range []struct{ kv, want string }{
		{"bogus=1", `unknown parameter "bogus" (known: base, clamp, custom, gain, mode, n, on, rate, ref, size, timer)`},
		{"old=1", `parameter "old" does not apply: it is gone`},
		{"rate=x", `parameter rate: invalid rate "x" (want e.g. 100Gbps, 25G, 50Mb/s), or line`},
		{"timer=0us", `parameter timer: must be positive, got "0us"`},
		{"ref=0.1", `parameter ref: rate "0.1" out of range (must be >= 1bps and <= 1Pbps)`},
		{"base=0.1ps", `parameter base: must be positive or "path", got "0.1ps"`},
		{"timer=-1us", `parameter timer: duration "-1us" out of range (must be >= 0)`},
		{"size=big", `parameter size: invalid size "big" (want e.g. 1MB, 64KB, 1MiB, 1000)`},
		{"gain=0", `parameter gain: must be in (0, 1], got 0`},
		{"gain=NaN", `parameter gain: want a number, got "NaN"`},
		{"gain=1e400", `parameter gain: want a finite number, got "1e400"`},
		{"n=0", `parameter n: want an integer >= 1, got "0"`},
		{"on=maybe", `parameter on: want true or false, got "maybe"`},
		{"mode=Z", `parameter mode: want one of x, y, got "Z"`},
	} {
		k, v, _ := strings.Cut(tc.kv, "=")
		c, _, _ := tb.Preset("")
		if err := tb.Apply(&c, map[string]string{k: v}); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.kv, err, tc.want)
		}
	}
	c, _, _ := tb.Preset("")
	if err := tb.Apply(&c, map[string]string{"timer": "x", "n": "y"}); err == nil || !strings.HasPrefix(err.Error(), "parameter n: ") {
		t.Fatalf("Apply reported %v, want the error of key n", err)
	}
	if err := tb.Apply(&c, map[string]string{"rate": "1G", "ref": "2G"}); err == nil || err.Error() != "parameters rate and ref each set the rate: give only one" {
		t.Fatalf("exclusive: %v", err)
	}
	if err := tb.Apply(&c, map[string]string{"rate": "1G", "ref": "OFF"}); err != nil {
		t.Fatalf("exclusive with off: %v", err)
	}
}

// A configuration built in Go takes the defaults for its zero fields, and
// Check names the field, its value and the bounds.
func TestFillAndCheck(t *testing.T) {
	tb := testTable()
	var c cfg
	tb.Fill(&c)
	if c.rate != 5*units.Mbps || c.timer != 55*units.Microsecond || c.gain != 0.5 || c.n != 3 || c.mode != "x" || c.size != 0 {
		t.Fatalf("filled %+v", c)
	}
	if err := tb.Check(&c); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mod  func(*cfg)
		want string
	}{
		{func(c *cfg) { c.rate = -1 }, "rate must be positive, got -1bps"},
		{func(c *cfg) { c.rate = units.MaxRate + 1 }, "rate must be at most 1Pbps, got 1000000000000001bps"},
		{func(c *cfg) { c.ref = -1 }, "ref must not be negative, got -1bps"},
		{func(c *cfg) { c.timer = -1 }, "timer must be positive, got -1ps"},
		{func(c *cfg) { c.size = -1 }, "size must not be negative, got -1B"},
		{func(c *cfg) { c.gain = math.NaN() }, "gain must be in (0, 1], got NaN"},
		{func(c *cfg) { c.n = -2 }, "n must be at least 1, got -2"},
		{func(c *cfg) { c.mode = "z" }, `mode must be one of x, y, got "z"`},
	} {
		d := c
		tc.mod(&d)
		if err := tb.Check(&d); err == nil || err.Error() != tc.want {
			t.Errorf("Check: %v, want %q", err, tc.want)
		}
	}
}

// A DefaultIfZero parameter with a word is unset only when its field is
// zero and none of its words holds; Fill then gives it the Base preset's
// value, the word included.
func TestFillWords(t *testing.T) {
	for _, tc := range []struct {
		base     string
		in, want cfg
	}{
		{"a", cfg{}, cfg{size: 0}},              // a: size none, zero stays
		{"b", cfg{}, cfg{bdp: true}},            // b: bdp, the word is set
		{"b", cfg{size: 2000}, cfg{size: 2000}}, // a field set is kept
		{"a", cfg{bdp: true}, cfg{bdp: true}},   // so is a word set
	} {
		tb := testTable()
		tb.Base = tc.base
		tb.Param("size").DefaultIfZero()
		c := tc.in
		tb.Fill(&c)
		if c.size != tc.want.size || c.bdp != tc.want.bdp {
			t.Errorf("base %s: Fill(%+v) gave size %v bdp %v, want %v %v", tc.base, tc.in, c.size, c.bdp, tc.want.size, tc.want.bdp)
		}
	}
	// A word's set must not run where the Base preset gives a plain value.
	tb := testTable()
	tb.Base = "a"
	tb.Param("size").DefaultIfZero().Default("1500B")
	var c cfg
	tb.Fill(&c)
	if c.size != 1500 || c.bdp {
		t.Errorf("Fill gave size %v bdp %v, want 1500B without bdp", c.size, c.bdp)
	}
}

type outer struct {
	in cfg
}

// A lifted parameter parses, prints and checks as the original, with its
// value in the named preset as default.
func TestLift(t *testing.T) {
	tb := testTable()
	lt := &Table[outer]{Name: "outer", Default: "p", Presets: []cca.Preset{{Name: "p"}},
		Params: []*Param[outer]{
			Lift(tb.Param("size"), "b", func(o *outer) *cfg { return &o.in }),
			Lift(tb.Param("rate"), "b", func(o *outer) *cfg { return &o.in }),
			Lift(tb.Param("ref"), "b", func(o *outer) *cfg { return &o.in }),
		}}
	o, _, err := lt.Preset("")
	if err != nil || !o.in.bdp || o.in.rate != units.Gbps || o.in.ref != 0 {
		t.Fatalf("lifted preset %+v %v", o, err)
	}
	if err := lt.Set(&o, "size", "1KB"); err != nil || o.in.size != 1000 || o.in.bdp {
		t.Fatalf("lifted set %+v %v", o, err)
	}
	if v := lt.Values(&o); v["size"] != "1KB" || v["rate"] != "1Gbps" || v["ref"] != "off" {
		t.Fatalf("lifted values %v", v)
	}
	o.in.ref = -1
	if err := lt.Check(&o); err == nil || err.Error() != "ref must not be negative, got -1bps" {
		t.Fatalf("lifted check %v", err)
	}
}

// The schema has every key with its unit, accepted values, doc and the
// effective value in each preset.
func TestSchema(t *testing.T) {
	s := testTable().Schema(nil)
	if s.Default != "a" || len(s.Presets) != 2 || len(s.Params) != 11 {
		t.Fatalf("schema %+v", s)
	}
	p := s.Params[9] // size
	if p.Key != "size" || p.Unit != "size" || p.Bounds != ">= 0, or bdp, none" || p.Values["a"] != "none" || p.Values["b"] != "bdp" {
		t.Fatalf("size: %+v", p)
	}
	if got := s.Others(p); got != " (b: bdp)" {
		t.Fatalf("others %q", got)
	}
}

func TestIntervals(t *testing.T) {
	for _, tc := range []struct {
		r    Interval
		in   []float64
		out  []float64
		name string
	}{
		{Unit, []float64{0, 0.5, 1}, []float64{-1e-300, 1.0000001, math.NaN(), math.Inf(1)}, "[0, 1]"},
		{UnitNonZero, []float64{1e-300, 1}, []float64{0, 2, math.NaN()}, "(0, 1]"},
		{OpenUnit, []float64{0.5}, []float64{0, 1, math.NaN()}, "(0, 1)"},
		{Positive, []float64{1e-300, 1e300}, []float64{0, -1, math.NaN(), math.Inf(1)}, "> 0"},
		{AtLeast(1), []float64{1, 1e300}, []float64{0.5, math.Inf(1)}, ">= 1"},
		{Above(0.5), []float64{0.5001}, []float64{0.5}, "> 0.5"},
		{Closed(1, 62), []float64{1, 62}, []float64{0, 63}, "[1, 62]"},
	} {
		for _, f := range tc.in {
			if !tc.r.Contains(f) {
				t.Errorf("%s does not contain %v", tc.name, f)
			}
		}
		for _, f := range tc.out {
			if tc.r.Contains(f) {
				t.Errorf("%s contains %v", tc.name, f)
			}
		}
		if tc.r.String() != tc.name {
			t.Errorf("String() = %q, want %q", tc.r.String(), tc.name)
		}
	}
	for _, tc := range []struct {
		v    string
		r    Interval
		want string
	}{
		{"1.5", UnitNonZero, "must be in (0, 1], got 1.5"},
		{"-1", Positive, "must be positive, got -1"},
		{"0.5", Above(0.5), "must be a number > 0.5, got 0.5"},
	} {
		if _, err := ParseFloatIn(tc.v, tc.r); err == nil || err.Error() != tc.want {
			t.Errorf("ParseFloatIn(%s, %s): %v, want %q", tc.v, tc.r, err, tc.want)
		}
	}
	if err := checkFloat("g", math.NaN(), UnitNonZero); err == nil || err.Error() != "g must be in (0, 1], got NaN" {
		t.Errorf("checkFloat(g, NaN): %v", err)
	}
}
