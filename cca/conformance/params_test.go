package conformance_test

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// registry has every algorithm the CLI has.
func registry() *cca.Registry { return all.Registry() }

// keysOf lists an algorithm's parameter keys: those of its default spec.
func keysOf(t testing.TB, r *cca.Registry, name string) []string {
	s, err := r.Build(name, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	keys := make([]string, 0, len(s.Params))
	for k := range s.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkSpec asserts what every accepted parameter set must give: finite
// values everywhere, a spec whose printed parameters build it again, a
// replay configuration that validates with the spec's network hints, and
// an algorithm that starts and takes events without panicking or asking
// for a timer in the past.
func checkSpec(t *testing.T, r *cca.Registry, name string, spec cca.Spec, topo *topology.Topology) {
	t.Helper()
	for k, v := range spec.Params {
		if f, err := strconv.ParseFloat(strings.TrimSuffix(v, "x"), 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			t.Fatalf("%s: accepted parameter %s = %s", name, k, v)
		}
	}
	if h := spec.ECN; h != nil && !(h.Pmax >= 0 && h.Pmax <= 1) {
		t.Fatalf("%s: ECN hint pmax %v", name, h.Pmax)
	}
	again, err := r.Build(name, spec.Params)
	if err != nil {
		t.Fatalf("%s: its own parameters %v do not build: %v", name, spec.Params, err)
	}
	for k, v := range spec.Params {
		if again.Params[k] != v {
			t.Fatalf("%s: parameter %s = %q builds again as %q", name, k, v, again.Params[k])
		}
	}
	cfg := replay.Config{Topology: topo, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Packets: replay.PacketsNone}
	cfg.ApplyCCHints()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("%s %v: accepted, but the run configuration does not validate: %v", name, spec.Params, err)
	}
	exercise(t, name+" "+fmt.Sprint(spec.Params), spec.New())
}

// exercise starts a and feeds it a fixed sequence of sends, ACKs (marked,
// with one INT hop), CNPs, NACKs, RTT probes and due timers, failing t if
// it asks for a timer in the past or reports a negative rate or window.
// It returns what a reports after each event: rate, window and next timer.
func exercise(t *testing.T, what string, a cca.Algorithm) []string {
	t.Helper()
	var seen []string
	now := units.Time(0)
	a.Start(now, cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 4 * units.Microsecond, MTU: 1048, Hops: 2})
	for i := 0; i < 8; i++ {
		now += units.Microsecond
		a.OnSend(now, 1048)
		switch i % 4 {
		case 0:
			a.OnAck(now, &cca.Ack{AckedBytes: 1000, RTT: 6 * units.Microsecond, ECE: true, NumHops: 1,
				Hops: [telemetry.MaxHops]telemetry.Hop{{QLen: 50 * units.KB, TxBytes: units.Bytes(i) * 12500, TS: now, LinkRate: 100 * units.Gbps}}})
		case 1:
			a.OnCNP(now)
		case 2:
			a.OnNack(now)
		case 3:
			if p, ok := a.(cca.RTTProber); ok && p.ProbesRTT() {
				p.OnRTT(now, 5*units.Microsecond)
			}
		}
		if at := a.NextTimer(); at < now {
			t.Fatalf("%s: timer at %v, before now %v", what, at, now)
		} else if at != units.Never && at-now <= 10*units.Microsecond {
			now = at
			a.OnTimer(now)
		}
		if a.Rate() < 0 || a.Window() < 0 {
			t.Fatalf("%s: rate %v, window %v", what, a.Rate(), a.Window())
		}
		seen = append(seen, fmt.Sprintf("%v rate=%v window=%v next=%v", now, a.Rate(), a.Window(), a.NextTimer()))
	}
	return seen
}

// TestParamsRoundTrip feeds each preset's effective parameters
// (Spec.Params, what summary.json records) back to Build, for every
// registered algorithm: summary.json must be enough to rerun the same
// configuration. The rebuilt Spec must print the same parameters, carry
// the same network hints (ECN marking, CNP interval, INT, flow counter),
// hold the same configuration where the algorithm exposes it (a Config
// method) and behave the same under exercise's event sequence.
func TestParamsRoundTrip(t *testing.T) {
	r := registry()
	for _, sp := range specs(t) {
		again, err := r.Build(sp.full, sp.s.Params)
		if err != nil {
			t.Errorf("%s: its own parameters do not build: %v", sp.full, err)
			continue
		}
		if !maps.Equal(sp.s.Params, again.Params) {
			t.Errorf("%s: params changed:\n%v\n%v", sp.full, sp.s.Params, again.Params)
		}
		if sp.s.Name != again.Name || !reflect.DeepEqual(sp.s.ECN, again.ECN) || sp.s.CNPInterval != again.CNPInterval ||
			sp.s.NeedsINT != again.NeedsINT || sp.s.NeedsFlowCounter != again.NeedsFlowCounter {
			t.Errorf("%s: the hints changed:\n%+v\n%+v", sp.full, sp.s, again)
		}
		a, b := sp.s.New(), again.New()
		c1, c2 := configOf(a), configOf(b)
		if why, ok := printsEffective[sp.name]; ok {
			// The first rebuild turns a resolved word into its value: from
			// then on the configuration must be a fixed point.
			third, err := r.Build(sp.full, again.Params)
			if err != nil {
				t.Fatalf("%s: %v", sp.full, err)
			}
			c1, c2 = c2, configOf(third.New())
			t.Logf("%s: compared rebuilt with rebuilt twice: %s", sp.full, why)
		}
		if !reflect.DeepEqual(c1, c2) {
			t.Errorf("%s: config changed:\n%+v\n%+v", sp.full, c1, c2)
		}
		if s1, s2 := exercise(t, sp.full, a), exercise(t, sp.full+" rebuilt", b); !slices.Equal(s1, s2) {
			t.Errorf("%s: behaves differently rebuilt:\n%v\n%v", sp.full, s1, s2)
		}
	}
}

// printsEffective are the algorithms whose Spec.Params print a parameter's
// effective value where the configuration holds a word (keyval's Show): the
// rebuilt configuration holds the value, which behaves the same.
var printsEffective = map[string]string{
	"dolce": "qualify_gap auto prints fast_recovery x increase_timer",
}

// configOf is a's configuration if it has a Config method, else nil.
func configOf(a cca.Algorithm) any {
	m := reflect.ValueOf(a).MethodByName("Config")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return nil
	}
	return m.Call(nil)[0].Interface()
}

// TestParamsRejectNonFinite guards defect 1 (values that pass validation
// and fail later): a NaN or an infinity in any float parameter of any
// algorithm is an error naming the key.
func TestParamsRejectNonFinite(t *testing.T) {
	r := registry()
	for _, tc := range []struct{ spec, key string }{
		{"dcqcn", "g"}, {"dcqcn", "alpha_init"}, {"dcqcn", "pmax"},
		{"dctcp", "g"}, {"dctcp", "alpha_init"},
		{"hpcc", "eta"},
		{"swift", "ai"}, {"swift", "beta"}, {"swift", "max_mdf"}, {"swift", "min_cwnd"}, {"swift", "max_cwnd"},
		{"swift", "init_cwnd"}, {"swift", "fs_min_cwnd"}, {"swift", "fs_max_cwnd"},
		{"timely", "alpha"}, {"timely", "beta"},
		{"rlcc", "amin"}, {"rlcc", "amax"},
		{"dolce", "gamma"}, {"dolce", "epsilon"}, {"dolce", "xi"}, {"dolce", "pmax"},
		{"dolceplus", "gamma"}, {"dolceplus", "epsilon"}, {"dolceplus", "xi"}, {"dolceplus", "pmax"},
	} {
		for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e400"} {
			_, err := r.Build(tc.spec, map[string]string{tc.key: v})
			if err == nil {
				t.Errorf("%s %s=%s accepted", tc.spec, tc.key, v)
				continue
			}
			if want := tc.spec + ": parameter " + tc.key + ": want a "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s %s=%s: %q, want it to start with %q", tc.spec, tc.key, v, err, want)
			}
		}
	}
	// Multiples and fractions: timely's thresholds and step, dolce's arms.
	for _, tc := range []struct{ spec, key, v string }{
		{"timely", "t_low", "NaNx"}, {"timely", "t_high", "Infx"}, {"timely", "delta", "NaNx"},
		{"timely", "t_low", "1e300x"}, {"dolce", "arms", "0.1:NaN"}, {"dolce", "arms", "NaN:1"}, {"dolce", "arms", "0.1:Inf"},
	} {
		if _, err := r.Build(tc.spec, map[string]string{tc.key: tc.v}); err == nil || !strings.Contains(err.Error(), "parameter "+tc.key+": ") {
			t.Errorf("%s %s=%s: %v, want an error naming the key", tc.spec, tc.key, tc.v, err)
		}
	}
}

// TestParamsRejectTimesBeyondMaxTime guards defect 1 for times: every
// duration parameter is at most limits.MaxTime.
func TestParamsRejectTimesBeyondMaxTime(t *testing.T) {
	r := registry()
	for _, tc := range []struct{ spec, key string }{
		{"dcqcn", "alpha_timer"}, {"dcqcn", "increase_timer"}, {"dcqcn", "decrease_interval"}, {"dcqcn", "cnp_interval"},
		{"hpcc", "base_rtt"}, {"swift", "base_target"}, {"swift", "hop_scale"}, {"swift", "fs_range"},
		{"timely", "t_low"}, {"timely", "t_high"}, {"timely", "min_rtt"}, {"rlcc", "latency"},
		{"dolce", "qualify_gap"}, {"dolce", "cnp_interval"}, {"dolceplus", "cnp_interval"},
	} {
		if _, err := r.Build(tc.spec, map[string]string{tc.key: "2000000s"}); err == nil || !strings.Contains(err.Error(), "parameter "+tc.key+": ") {
			t.Errorf("%s %s=2000000s: %v, want an error naming the key", tc.spec, tc.key, err)
		}
	}
	// The automatic qualify gap, fast_recovery x increase_timer, too.
	if _, err := r.Build("dolce", map[string]string{"fast_recovery": "1000000000", "increase_timer": "1000s"}); err == nil || !strings.Contains(err.Error(), "qualify_gap") {
		t.Errorf("dolce with a 10^12 s fast recovery phase: %v", err)
	}
}

// Found by FuzzParams' seeds (defect 1): swift took any finite window, and
// min_cwnd=1e300 made Window() overflow to a negative byte count; timely
// took a threshold of 1e300 base RTTs; dolce printed "parameter pmax:
// parameter pmax:" for an inherited DCQCN key.
func TestParamsFoundByFuzzing(t *testing.T) {
	r := registry()
	for _, tc := range []struct{ spec, key, v, want string }{
		{"swift", "min_cwnd", "1e300", "swift: parameter min_cwnd: must be in (0, 1e+09], got 1e+300"},
		{"swift", "init_cwnd", "1e18", "swift: parameter init_cwnd: must be in (0, 1e+09], got 1e+18"},
		{"timely", "t_high", "1e300x", `timely: parameter t_high: a multiple of the base RTT must be at most 1000000x, got "1e300x"`},
		{"dolce", "pmax", "2", "dolce: parameter pmax: must be in [0, 1], got 2"},
		{"dolceplus", "kmin", "lots", `dolceplus: parameter kmin: invalid size "lots" (want e.g. 1MB, 64KB, 1MiB, 1000)`},
	} {
		if _, err := r.Build(tc.spec, map[string]string{tc.key: tc.v}); err == nil || err.Error() != tc.want {
			t.Errorf("%s %s=%s:\n got %v\nwant %s", tc.spec, tc.key, tc.v, err, tc.want)
		}
	}
	if _, err := r.Build("swift", map[string]string{"max_cwnd": "1e9", "min_cwnd": "1e9", "fs_max_cwnd": "1e9"}); err != nil {
		t.Errorf("swift windows of 10^9 packets: %v", err)
	}
}

// Every preset of every algorithm passes the checks FuzzParams makes.
func TestPresetsPassChecks(t *testing.T) {
	r := registry()
	topo, err := topology.Parse("star:hosts=4", 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range specs(t) {
		checkSpec(t, r, sp.full, sp.s, topo)
	}
}

// FuzzParams builds every registered algorithm with fuzzed key=value
// overrides (defect 3): Build never panics, and whatever it accepts passes
// checkSpec. Keys are picked from the algorithm's own list by index (255
// means the raw key string), so the fuzzer spends its time on values.
func FuzzParams(f *testing.F) {
	r := registry()
	names := r.Names()
	keys := map[string][]string{}
	for _, n := range names {
		keys[n] = keysOf(f, r, n)
	}
	topo, err := topology.Parse("star:hosts=4", 4)
	if err != nil {
		f.Fatal(err)
	}
	for i, n := range names {
		for j, k := range keys[n] {
			for _, v := range []string{"NaN", "Inf", "-1", "0", "1", "0.5", "1e300", "2000000s", "1us", "1000000s", "500Kbps", "1Pbps", "1e18", "2.5x", "auto", "off"} {
				f.Add(uint8(i), "", uint8(j), v, uint8(255), "", "")
				_ = k
			}
		}
	}
	f.Add(uint8(0), "hpcc", uint8(0), "0.1", uint8(1), "1000000s", "")
	f.Fuzz(func(t *testing.T, alg uint8, preset string, k1 uint8, v1 string, k2 uint8, v2, rawKey string) {
		name := names[int(alg)%len(names)]
		ks := keys[name]
		pick := func(i uint8) string {
			if i == 255 || len(ks) == 0 {
				return rawKey
			}
			return ks[int(i)%len(ks)]
		}
		params := map[string]string{}
		for _, kv := range [][2]string{{pick(k1), v1}, {pick(k2), v2}} {
			if kv[0] != "" && kv[0] != "policy" { // a policy file path would read any file
				params[kv[0]] = kv[1]
			}
		}
		full := name
		if preset != "" {
			full += ":" + preset
		}
		spec, err := r.Build(full, params)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || strings.ToLower(msg[:1]) != msg[:1] {
				t.Fatalf("error %q is not one lowercase line", msg)
			}
			return
		}
		checkSpec(t, r, full, spec, topo)
	})
}
