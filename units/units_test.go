package units

import (
	"math"
	"testing"
)

func TestTxTimeExactAndRoundedUp(t *testing.T) {
	for _, c := range []struct {
		n    Bytes
		r    BitsPerSec
		want Time
	}{
		{64, 800 * Gbps, 640},             // a 64 B frame at 800 Gb/s is 640 ps
		{1048, 100 * Gbps, 83840},         // a full HPCC-simulator packet at 100G
		{1, 3 * Gbps, 2667},               // 8/3 ns rounds up
		{1_000_000, 1 * Mbps, 8 * Second}, // no overflow on large products
	} {
		if got := TxTime(c.n, c.r); got != c.want {
			t.Errorf("TxTime(%d, %v) = %d, want %d", c.n, c.r, got, c.want)
		}
	}
	if BytesIn(TxTime(1048, 100*Gbps), 100*Gbps) != 1048 {
		t.Error("BytesIn does not invert TxTime")
	}
}

func TestParsers(t *testing.T) {
	rates := map[string]BitsPerSec{"100G": 100 * Gbps, "100Gbps": 100 * Gbps, "25Gb/s": 25 * Gbps, "50Mb/s": 50 * Mbps, "400000000000": 400 * Gbps, "1.5g": 1500 * Mbps}
	for s, want := range rates {
		if got, err := ParseRate(s); err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	times := map[string]Time{"1us": Microsecond, "0.001ms": Microsecond, "55us": 55 * Microsecond, "900ns": 900 * Nanosecond, "640ps": 640, "2s": 2 * Second}
	for s, want := range times {
		if got, err := ParseDuration(s); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	sizes := map[string]Bytes{"1MB": MB, "64KB": 64 * KB, "1MiB": 1 << 20, "1000": 1000, "9.5KB": 9500}
	for s, want := range sizes {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, bad := range []string{"", "fast", "-5G", "0", "NaNG", "1e30G"} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "5", "-1us", "xus", "1e30s"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "lots", "-1KB", "1e30GB"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}

func TestTimeString(t *testing.T) {
	for _, c := range []struct {
		t    Time
		want string
	}{{12500 * Nanosecond, "12.5us"}, {1341440 * Nanosecond, "1.34144ms"}, {640, "640ps"}, {2 * Second, "2s"}, {Never, "never"}} {
		if got := c.t.String(); got != c.want {
			t.Errorf("%d: %q, want %q", int64(c.t), got, c.want)
		}
	}
}

// The parsers never panic and never return an error together with a value
// outside their documented range.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"100G", "1us", "1MB", "0.5ms", "-1", "1e400", "NaN", "9.5KB", "25Gb/s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := ParseRate(s); err == nil && (r <= 0 || r > 1e15) {
			t.Fatalf("ParseRate(%q) = %d out of range", s, r)
		}
		if d, err := ParseDuration(s); err == nil && d < 0 {
			t.Fatalf("ParseDuration(%q) = %d < 0", s, d)
		}
		if b, err := ParseSize(s); err == nil && b < 0 {
			t.Fatalf("ParseSize(%q) = %d < 0", s, b)
		}
	})
}

// A serialization time beyond int64 picoseconds saturates to Never instead
// of panicking in the 128-bit division (issue: 1e18-byte messages).
func TestTxTimeSaturates(t *testing.T) {
	cases := []struct {
		n    Bytes
		r    BitsPerSec
		want Time
	}{
		{1e18, 100 * Gbps, Never},
		{1 << 62, 1, Never},
		{1e12, 1, Never},
		{-5, Gbps, 0},
		{1e12, 100 * Gbps, 80 * Second},
	}
	for _, c := range cases {
		if got := TxTime(c.n, c.r); got != c.want {
			t.Errorf("TxTime(%d, %v) = %v, want %v", c.n, c.r, got, c.want)
		}
	}
}

// BytesIn saturates instead of panicking in the 128-bit division when
// rate x time is beyond int64 bytes.
func TestBytesInSaturates(t *testing.T) {
	if got := BytesIn(Never, 1000*Gbps*1000); got != math.MaxInt64 {
		t.Errorf("BytesIn(never, 1Pbps) = %d, want MaxInt64", got)
	}
	if got := BytesIn(Second, 8); got != 1 {
		t.Errorf("BytesIn(1s, 8bps) = %d, want 1", got)
	}
	if got := BytesIn(Second, -1); got != 0 {
		t.Errorf("BytesIn with a negative rate = %d, want 0", got)
	}
}

// The Human formatters keep one to three integer digits, three decimals,
// and switch unit at each power of 1000 (1024 for bytes).
func TestHuman(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{HumanNs(850), "850 ns"}, {HumanNs(999.4), "999 ns"}, {HumanNs(12_500), "12.500 us"},
		{HumanNs(1_342_000), "1.342 ms"}, {HumanNs(2e9), "2.000 s"}, {HumanNs(-12_500), "-12.500 us"},
		{HumanBps(0), "0 b/s"}, {HumanBps(1500), "1.500 Kb/s"}, {HumanBps(40e6), "40.000 Mb/s"},
		{HumanBps(93.75e9), "93.750 Gb/s"}, {HumanBps(1.6e12), "1.600 Tb/s"},
		{HumanBytes(1000), "1000 B"}, {HumanBytes(1536), "1.500 KiB"}, {HumanBytes(3 << 20), "3.000 MiB"},
		{HumanBytes(5 << 30), "5.000 GiB"}, {HumanBytes(1023), "1023 B"}, {HumanBytes(1024), "1.000 KiB"},
		{HumanNs(math.NaN()), "NaN s"}, {HumanBps(math.Inf(1)), "+Inf Tb/s"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
