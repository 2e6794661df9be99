package runconfig

import (
	"fmt"
	"github.com/ccreplay/ccreplay/cca/all"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// The YAML loader never panics: any input either loads into a config whose
// sections validate, or gives one error line naming the file. A config the
// loader accepts and replay.Config.Validate passes holds no NaN and no
// infinity anywhere (defect 1: `pmax: .nan` used to pass both and fail the
// run after it wrote its Parquet files).
func FuzzLoadConfig(f *testing.F) {
	for _, s := range []string{
		"workload: incast:n=4\nseed: 3\n",
		"switch:\n  buffer: 32MB\n  ecn: {enabled: true, kmin: 5KB, kmax: 200KB, pmax: 0.01}\n",
		"switch:\n  ecn:\n    per_rate:\n      - {rate: 100Gbps, kmin: 400KB, kmax: 1600KB, pmax: 0.2}\n",
		"nic: {mtu_payload: 1000, header: 48, ack_every: 2, cnp_interval: 50us, window: bdp}\n",
		"bogus: 1\n", "switch: [1,2]\n", "nic: {data_prio: 9}\n", "\x00\xff",
		"switch: {ecn: {pmax: .nan}}\n", "switch: {ecn: {pmax: .inf, ref_rate: 500Kbps}}\n",
		"switch: {buffer: 1B}\n", "switch: {buffer: 100KB, pfc: {mode: static, xoff_per_gbps: 1MB, xon_per_gbps: 1KB}}\n",
		"cca: dcqcn\ncca_params: {g: NaN, pmax: Inf}\n", "cca: timely\ncca_params: {t_low: 1e300x}\n",
		"max_time: 1000000s\nnic: {local_rate: 1Pbps, window: 2KB, ack_every: 3}\n",
	} {
		f.Add(s)
	}
	topo, err := topology.Parse("star:hosts=4", 4)
	if err != nil {
		f.Fatal(err)
	}
	reg := all.Registry()
	f.Fuzz(func(t *testing.T, s string) {
		path := filepath.Join(t.TempDir(), "run.yaml")
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		fc, err := Load(path)
		if err != nil {
			if msg := err.Error(); len(msg) == 0 || containsNewline(msg) {
				t.Fatalf("error is not one line: %q", msg)
			}
			return
		}
		sw, n := switchmodel.DefaultConfig(), nic.DefaultConfig()
		swErr := fc.ApplySwitch(path, &sw)
		checkApplied(t, "applySwitch", "switch", swErr, sw.Validate)
		nicErr := fc.ApplyNIC(path, &n)
		checkApplied(t, "applyNIC", "NIC", nicErr, n.Validate)
		if swErr != nil || nicErr != nil {
			return
		}
		// The whole run configuration, as run's config step builds it.
		params := map[string]string{}
		for k, v := range fc.CCAParams {
			if k != "policy" { // a policy file path would read any file
				params[k] = v
			}
		}
		name := fc.CCA
		if name == "" {
			name = "dcqcn"
		}
		spec, err := reg.Build(name, params)
		if err != nil {
			return
		}
		cfg := replay.Config{Topology: topo, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Packets: replay.PacketsNone}
		cfg.ApplyCCHints()
		if fc.ApplySwitch(path, &cfg.Switch) != nil || fc.ApplyNIC(path, &cfg.NIC) != nil {
			return // the algorithm's hints and the file disagree
		}
		if cfg.LocalRate, err = fc.LocalRate(path); err != nil {
			return
		}
		if fc.MaxTime != "" {
			if cfg.MaxTime, err = units.ParseDuration(fc.MaxTime); err != nil {
				return
			}
		}
		if err := cfg.Validate(); err != nil {
			if containsNewline(err.Error()) {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		if where := nonFinite(reflect.ValueOf(cfg), "cfg"); where != "" {
			t.Fatalf("a valid config holds a non-finite float at %s", where)
		}
		for k, v := range spec.Params {
			if f, err := strconv.ParseFloat(strings.TrimSuffix(v, "x"), 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
				t.Fatalf("a valid config has cca parameter %s = %s", k, v)
			}
		}
	})
}

// nonFinite returns the path of the first NaN or infinite float in v
// (structs, pointers, slices, arrays and maps are walked; functions and
// interfaces are not), or "".
func nonFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return path
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return nonFinite(v.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if w := nonFinite(v.Field(i), path+"."+v.Type().Field(i).Name); w != "" {
				return w
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if w := nonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); w != "" {
				return w
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if w := nonFinite(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key())); w != "" {
				return w
			}
		}
	}
	return ""
}

func containsNewline(s string) bool {
	for _, c := range s {
		if c == '\n' {
			return true
		}
	}
	return false
}

// checkApplied fails the test where apply took the file (err nil) into a
// configuration validate refuses, or refused it in more than one line.
func checkApplied(t *testing.T, apply, what string, err error, validate func() error) {
	t.Helper()
	if err == nil {
		if verr := validate(); verr != nil {
			t.Fatalf("%s accepted an invalid %s config: %v", apply, what, verr)
		}
	} else if containsNewline(err.Error()) {
		t.Fatalf("error is not one line: %q", err)
	}
}
