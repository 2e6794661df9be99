package cdf

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// writeCDF writes a small opera-format CDF (mean 14500 B) to a temporary
// file.
func writeCDF(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "small.csv")
	if err := os.WriteFile(p, []byte("1000,0.5\n10000,0.9\n100000,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFromSpecMatchesGenerate(t *testing.T) {
	p := writeCDF(t)
	got, gst, err := FromSpec(map[string]string{"dist": p, "hosts": "6", "bw": "25Gbps", "load": "40%", "flows": "1000", "start": "2us"}, 4, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load(p, Auto)
	if err != nil {
		t.Fatal(err)
	}
	want, wst, err := Generate(Config{Dist: d, Hosts: 6, Bandwidth: 25 * units.Gbps, Load: 0.4, Flows: 1000, Start: 2 * units.Microsecond}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || gst != wst {
		t.Error("FromSpec and Generate differ for the same settings")
	}
	// Defaults bw 100G and load 0.3; conv=linear overrides the file's
	// step convention.
	_, st, err := FromSpec(map[string]string{"dist": p, "hosts": "2", "duration": "1ms", "conv": "linear"}, 1, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	lin, err := Load(p, Linear)
	if err != nil {
		t.Fatal(err)
	}
	wantIA := units.Time(math.Round(8 * lin.Mean() / (100e9 * 0.3) * 1e12))
	if st.TargetLoad != 0.3 || st.MeanSize != lin.Mean() || st.MeanInterArrival != wantIA {
		t.Errorf("defaults: %+v, want mean %v and inter-arrival %v", st, lin.Mean(), wantIA)
	}
}

// Errors name the key and the value.
func TestFromSpecErrors(t *testing.T) {
	p := writeCDF(t)
	base := map[string]string{"dist": p, "hosts": "4", "duration": "1ms"}
	for _, c := range []struct {
		set  map[string]string
		drop string
		want string
	}{
		{map[string]string{"speed": "1"}, "", `cdf: unknown key "speed" (known: dist, conv, hosts`},
		{map[string]string{"load": "1.5"}, "", `cdf: load="1.5": want a fraction in (0, 1]`},
		{map[string]string{"load": "abc"}, "", `cdf: load="abc"`},
		{map[string]string{"bw": "fast"}, "", `cdf: bw="fast": want a rate`},
		{map[string]string{"hosts": "1"}, "", `cdf: hosts="1": want an integer >= 2`},
		{nil, "hosts", "cdf: hosts is required"},
		{nil, "dist", "cdf: dist is required"},
		{map[string]string{"flows": "10"}, "", "cdf: give duration or flows, not both"},
		{nil, "duration", "cdf: give duration (e.g. duration=10ms) or flows"},
		{map[string]string{"duration": "10"}, "", `cdf: duration="10": want a positive time`},
		{map[string]string{"conv": "cubic"}, "", `cdf: conv="cubic"`},
		{map[string]string{"start": "1.5ns"}, "", `cdf: start="1.5ns": want a time in whole nanoseconds`},
		{map[string]string{"pkt": "1500"}, "", `cdf: pkt="1500": the distribution's sizes are in bytes`},
		{map[string]string{"pkt": "-3"}, "", `cdf: pkt="-3"`},
		{map[string]string{"dist": "nope"}, "", `cdf: dist="nope": distribution "nope" is neither a family (websearch`},
	} {
		keys := map[string]string{}
		for k, v := range base {
			if k != c.drop {
				keys[k] = v
			}
		}
		for k, v := range c.set {
			keys[k] = v
		}
		_, _, err := FromSpec(keys, 1, t.TempDir(), 0)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("FromSpec(%v) error\n  %v\nwant prefix\n  %s", keys, err, c.want)
		}
	}
	// A bad file is reported with its line through the dist key.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("10,0.5\n5,1\n"), 0o644)
	_, _, err := FromSpec(map[string]string{"dist": bad, "hosts": "2", "flows": "1"}, 1, "", 0)
	if err == nil || !strings.Contains(err.Error(), "bad.csv:2: size 5 below the previous 10") {
		t.Errorf("bad file: %v", err)
	}
}

// pkt scales Homa's packet-unit files.
func TestFromSpecPacketsSharedData(t *testing.T) {
	dir := cdfDir(t)
	_, st, err := FromSpec(map[string]string{"dist": "dctcp", "hosts": "4", "flows": "10", "pkt": "1000"}, 1, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1744.70406 * 1000; st.MeanSize < want-1 || st.MeanSize > want+1 {
		t.Errorf("dctcp with pkt=1000: mean %v, want %v", st.MeanSize, want)
	}
}

func TestSpecKeysDocumented(t *testing.T) {
	for _, k := range SpecKeys() {
		if k.Doc == "" {
			t.Errorf("key %s has no doc", k.Name)
		}
	}
}
