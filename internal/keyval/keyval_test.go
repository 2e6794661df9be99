package keyval

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

type cfg struct {
	rate units.BitsPerSec
	n    int
}

var table = Table[cfg]{
	"rate": {func(c *cfg, v string) (err error) { c.rate, err = units.ParseRate(v); return }, func(c *cfg) string { return FormatRate(c.rate) }},
	"n":    {func(c *cfg, v string) (err error) { c.n, err = strconv.Atoi(v); return }, func(c *cfg) string { return strconv.Itoa(c.n) }},
}

func TestTableSetValuesRoundTrip(t *testing.T) {
	var c cfg
	if err := table.Set(&c, "rate", "25Gb/s"); err != nil {
		t.Fatal(err)
	}
	if err := table.Set(&c, "n", "7"); err != nil {
		t.Fatal(err)
	}
	var d cfg
	for k, v := range table.Values(&c) {
		if err := table.Set(&d, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if d != c || strings.Join(table.Keys(), ",") != "n,rate" {
		t.Fatalf("round trip %+v != %+v, keys %v", d, c, table.Keys())
	}
	if err := table.Set(&c, "bogus", "1"); err == nil || err.Error() != `unknown parameter "bogus" (known: n, rate)` {
		t.Fatalf("unknown key: %v", err)
	}
	if err := table.Set(&c, "n", "x"); err == nil || !strings.HasPrefix(err.Error(), "parameter n: ") {
		t.Fatalf("bad value: %v", err)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatRate(5 * units.Mbps), "5Mbps"}, {FormatRate(100 * units.Gbps), "100Gbps"}, {FormatRate(1500), "1500bps"},
		{FormatRate(0), "0bps"}, {FormatRateOr(0, "off"), "off"},
		{FormatDuration(55 * units.Microsecond), "55us"}, {FormatDuration(0), "0us"}, {FormatDurationOr(0, "0s"), "0s"},
		{FormatDuration(1500 * units.Nanosecond), "1500ns"}, {FormatDuration(7), "7ps"},
		{FormatSize(10 * units.MB), "10MB"}, {FormatSize(1048), "1048B"}, {FormatSize(0), "0B"}, {FormatSizeOr(0, "off"), "off"},
		{FormatFloat(0.00390625), "0.00390625"},
	} {
		if c.got != c.want {
			t.Errorf("got %q want %q", c.got, c.want)
		}
	}
}

func TestPresetAndApply(t *testing.T) {
	presets := map[string]func() cfg{"a": func() cfg { return cfg{n: 1} }, "b": func() cfg { return cfg{n: 2} }}
	if c, err := Preset(presets, "", "b"); err != nil || c.n != 2 {
		t.Fatalf("default preset: %+v %v", c, err)
	}
	if _, err := Preset(presets, "z", "a"); err == nil || err.Error() != `unknown preset "z" (known: a, b)` {
		t.Fatalf("unknown preset: %v", err)
	}
	var c cfg
	// Both keys are bad: the first in sorted order ("n") is reported.
	if err := table.Apply(&c, map[string]string{"rate": "x", "n": "y"}); err == nil || !strings.HasPrefix(err.Error(), "parameter n: ") {
		t.Fatalf("Apply reported %v, want the error of key n", err)
	}
	if err := table.Apply(&c, map[string]string{"rate": "5Mbps", "n": "3"}); err != nil || c.n != 3 || c.rate != 5*units.Mbps {
		t.Fatalf("Apply: %+v %v", c, err)
	}
}
