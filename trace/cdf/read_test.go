package cdf

import (
	"math"
	"strings"
	"testing"
)

func mustRead(t *testing.T, name, text string, o Options) *Dist {
	t.Helper()
	d, err := Read(strings.NewReader(text), name, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestReadFormats(t *testing.T) {
	for _, c := range []struct {
		name, text string
		o          Options
		format     string
		conv       Convention
		mean       float64
	}{
		// hpcc: percent, linear by default; (5 x 0.5) + (15 x 0.5).
		{"a.txt", "0 0\n10 50\n20 100\n", Options{}, "hpcc", Linear, 10},
		{"a.txt", "0 0\r\n10 50\r\n20 100\r\n", Options{Convention: Step}, "hpcc", Step, 15},
		// opera: comma separated fractions, step by default.
		{"a.csv", "10,0.5\n20, 1\n", Options{}, "opera", Step, 15},
		{"a.csv", "10,0\n20,1\n", Options{Convention: Linear}, "opera", Linear, 15},
		// homa: a mean line, then fractions, step by default.
		{"a.txt", "15.0\n10 0.5\n20 1\n", Options{}, "homa", Step, 15},
		// whitespace fractions without a mean line: step.
		{"a.txt", "# comment\n\n10 0.5\n20 1.0\n", Options{}, "fractions", Step, 15},
		// DCTCP_* sizes are packets.
		{"dir/DCTCP_x.txt", "3\n2 0.5\n4 1\n", Options{PacketBytes: 1000}, "homa", Step, 3000},
		{"dir/DCTCP_x.txt", "3\n2 0.5\n4 1\n", Options{}, "homa", Step, 3 * DefaultPacketBytes},
	} {
		d := mustRead(t, c.name, c.text, c.o)
		if d.Format != c.format || d.Convention != c.conv || math.Abs(d.Mean()-c.mean) > 1e-9 {
			t.Errorf("Read(%q): format %s conv %v mean %v, want %s %v %v", c.text, d.Format, d.Convention, d.Mean(), c.format, c.conv, c.mean)
		}
	}
	d := mustRead(t, "x/DCTCP_y.txt", "3\n2 0.5\n4 1\n", Options{PacketBytes: 1000})
	if d.HeaderMean != 3000 || d.PacketBytes != 1000 || d.Sample(0.7) != 4000 {
		t.Errorf("packets: header %v, packet %d, Sample(0.7) %d", d.HeaderMean, d.PacketBytes, d.Sample(0.7))
	}
	if s := d.String(); !strings.Contains(s, "packets of 1000 B") || !strings.Contains(s, "mean 3000 B") {
		t.Errorf("String() = %q", s)
	}
}

// FacebookKeyValueMsgSizeDist: a table to 0.47, then HomaSimulation's
// generalized Pareto inversion.
func TestKeyValueTail(t *testing.T) {
	name := "homa/FacebookKeyValueMsgSizeDist.txt"
	d := mustRead(t, name, "185.0\n1 0.2\n15 0.47\n", Options{})
	if d.Sample(0.1) != 1 || d.Sample(0.3) != 15 {
		t.Errorf("table part: %d %d", d.Sample(0.1), d.Sample(0.3))
	}
	// Homa: round(15 + ((1-0.47)/(1-u))^k - 1) x sigma/k).
	u := 0.99
	want := math.Round(15 + (math.Pow(0.53/0.01, kvK)-1)*kvSigma/kvK)
	if got := d.Sample(u); float64(got) != want {
		t.Errorf("Sample(%v) = %d, want %v", u, got, want)
	}
	wantMean := 1*0.2 + 15*0.27 + 0.53*(15+kvSigma/(1-kvK))
	if math.Abs(d.Mean()-wantMean) > 1e-9 {
		t.Errorf("Mean = %v, want %v", d.Mean(), wantMean)
	}
	if _, err := Read(strings.NewReader("185.0\n1 0.2\n15 0.47\n"), name, Options{Convention: Linear}); err == nil || !strings.Contains(err.Error(), "step convention") {
		t.Errorf("linear key-value: error %v", err)
	}
	// The same table under another name is an unfinished CDF.
	if _, err := Read(strings.NewReader("185.0\n1 0.2\n15 0.47\n"), "other.txt", Options{}); err == nil || !strings.Contains(err.Error(), "other.txt:3: the CDF ends at 0.47") {
		t.Errorf("unfinished homa table: error %v", err)
	}
	rng := newRand(3)
	if got, n := stratifiedMean(d, rng); math.Abs(got/d.Mean()-1) > 0.01 {
		t.Errorf("stratified mean of %d draws %v, want within 1%% of %v", n, got, d.Mean())
	}
}

// Bad files give one line naming the file and line.
func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"0 0\n10 50\n20 40\n30 100\n", "bad.txt:3: cdf 40 below the previous 50: a CDF must not decrease"},
		{"0 0\n10 50\n5 60\n30 100\n", "bad.txt:3: size 5 below the previous 10: sizes must not decrease"},
		{"0 0\n10 50\n20 90\n", "bad.txt:3: the CDF ends at 90 %, not at 100 %"},
		{"10,0.5\n20,0.9\n", "bad.txt:2: the CDF ends at 0.9, not at 1"},
		{"0 0\n10 abc\n", `bad.txt:2: cdf "abc": not a finite number`},
		{"0 0\nNaN 50\n", `bad.txt:2: size "NaN": not a finite number`},
		{"0 0\n10 50 7\n", "bad.txt:2: want 2 fields (size cdf), got 3"},
		{"10,0.5\n20 1\n", "bad.txt:2: want size,cdf separated by a comma"},
		{"0 0\n10,1\n", "bad.txt:2: unexpected ','"},
		{"abc\n1 1\n", "bad.txt:1: first line \"abc\""},
		{"-5\n1 1\n", "bad.txt:1: first line"},
		{"0 0\n10 150\n", "bad.txt:2: cdf 150 must be in [0, 100]"},
		{"-1,0\n10,1\n", "bad.txt:1: size -1 must be a finite number >= 0"},
		{"", "bad.txt: no CDF points"},
		{"# only a comment\n", "bad.txt: no CDF points"},
		{"5\n", "bad.txt: no CDF points"},
		{"1e13 1\n", "bad.txt:1: size 1e+13 B above"},
		{strings.Repeat("9", 2<<20), "bad.txt:1: line longer than 1 MiB"},
	} {
		_, err := Read(strings.NewReader(c.text), "bad.txt", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Read(%.40q) error\n  %v\nwant prefix\n  %s", c.text, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error %q spans lines", err)
		}
	}
	if _, err := Read(strings.NewReader("1 1\n"), "x", Options{PacketBytes: -1}); err == nil {
		t.Error("negative packet size accepted")
	}
}

func TestResolveErrors(t *testing.T) {
	_, err := Resolve("no-such-family", t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "websearch") || !strings.Contains(err.Error(), `"no-such-family"`) {
		t.Errorf("unknown dist: %v", err)
	}
	_, err = Resolve("websearch", t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "distribution websearch") || !strings.Contains(err.Error(), "WebSearch_distribution.txt") {
		t.Errorf("family without data: %v", err)
	}
	if f, ok := LookupFamily("WebSearch"); !ok || f.Convention != Linear {
		t.Errorf("LookupFamily(WebSearch) = %+v, %v", f, ok)
	}
}
