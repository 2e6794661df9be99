package cdf

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// SpecKey documents one key FromSpec accepts.
type SpecKey struct {
	Name    string // e.g. "load"
	Default string // used when the key is absent; "" means required or unset
	Doc     string // meaning and unit
}

var specKeys = []SpecKey{
	{"dist", "", "flow-size distribution: a family name (" + familyNames() + "; built into ccreplay except those marked *, which need data=DIR) or a CDF file path (required)"},
	{"conv", "auto", "how to read the CDF: auto (the file's own), linear or step"},
	{"hosts", "", "number of hosts, >= 2 (required)"},
	{"bw", "100G", "each host's link rate, e.g. 100G, 25Gbps"},
	{"load", "0.3", "offered load per host, a fraction in (0, 1] such as 0.3 or 30%"},
	{"duration", "", "arrival window, e.g. 10ms (give duration or flows)"},
	{"flows", "", "number of flows to generate instead of a duration"},
	{"start", "0", "when arrivals start, e.g. 1ms (whole nanoseconds)"},
	{"pkt", "1460", "bytes per packet, for CDFs whose sizes are in packets (Homa DCTCP_* files)"},
}

// SpecKeys returns the keys FromSpec accepts, in documentation order.
func SpecKeys() []SpecKey { return append([]SpecKey(nil), specKeys...) }

func specKeyNames() string {
	names := make([]string, len(specKeys))
	for i, k := range specKeys {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// specError names the key and value at fault: `cdf: load="1.5": want ...`.
func specError(key, val, want string) error {
	return fmt.Errorf("cdf: %s=%q: %s", key, val, want)
}

// FromSpec builds a Config from key=value settings (see SpecKeys), loads
// the distribution (a family, built in when dataDir is "" and otherwise
// read from the user's dataDir, see Resolve; or a file path) and calls
// Generate with seed and maxMessages (Config.MaxMessages; 0: MaxFlows
// only). Unknown keys and bad values are errors naming the key and its
// value.
func FromSpec(keys map[string]string, seed int64, dataDir string, maxMessages int) (*trace.Trace, Stats, error) {
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names) // NB: the first error reported must not depend on map order.
	for _, k := range names {
		known := false
		for _, sk := range specKeys {
			known = known || sk.Name == k
		}
		if !known {
			return nil, Stats{}, fmt.Errorf("cdf: unknown key %q (known: %s)", k, specKeyNames())
		}
	}
	get := func(key string) (string, bool) {
		v, ok := keys[key]
		if !ok {
			for _, sk := range specKeys {
				if sk.Name == key {
					v = sk.Default
				}
			}
		}
		return strings.TrimSpace(v), ok
	}

	var c Config
	var o Options
	conv, _ := get("conv")
	cv, err := ParseConvention(conv)
	if err != nil {
		return nil, Stats{}, specError("conv", conv, "want auto, linear or step")
	}
	o.Convention = cv
	pkt, pktGiven := get("pkt")
	b, err := units.ParseSize(pkt)
	if err != nil || b < 1 {
		return nil, Stats{}, specError("pkt", pkt, "want a packet size in bytes such as 1460 or 1.5KB")
	}
	o.PacketBytes = int64(b)

	hosts, given := get("hosts")
	if !given {
		return nil, Stats{}, fmt.Errorf("cdf: hosts is required (e.g. hosts=16)")
	}
	n, err := strconv.Atoi(hosts)
	if err != nil || n < 2 || n > math.MaxInt32 {
		return nil, Stats{}, specError("hosts", hosts, "want an integer >= 2")
	}
	c.Hosts = n

	bw, _ := get("bw")
	if c.Bandwidth, err = units.ParseRate(bw); err != nil {
		return nil, Stats{}, specError("bw", bw, "want a rate such as 100G or 25Gbps")
	}

	load, _ := get("load")
	if c.Load, err = parseLoad(load); err != nil {
		return nil, Stats{}, specError("load", load, "want a fraction in (0, 1] such as 0.3 or 30%")
	}

	dur, durGiven := get("duration")
	flows, flowsGiven := get("flows")
	switch {
	case durGiven && flowsGiven:
		return nil, Stats{}, fmt.Errorf("cdf: give duration or flows, not both (duration=%q, flows=%q)", dur, flows)
	case !durGiven && !flowsGiven:
		return nil, Stats{}, fmt.Errorf("cdf: give duration (e.g. duration=10ms) or flows (e.g. flows=10000)")
	case durGiven:
		if c.Duration, err = units.ParseDuration(dur); err != nil || c.Duration <= 0 {
			return nil, Stats{}, specError("duration", dur, "want a positive time such as 10ms")
		}
	default:
		if c.Flows, err = strconv.Atoi(flows); err != nil || c.Flows < 1 || c.Flows > MaxFlows {
			return nil, Stats{}, specError("flows", flows, fmt.Sprintf("want an integer in 1..%d", MaxFlows))
		}
	}

	start, _ := get("start")
	if start != "0" {
		if c.Start, err = units.ParseDuration(start); err != nil || c.Start%units.Nanosecond != 0 {
			return nil, Stats{}, specError("start", start, "want a time in whole nanoseconds such as 0, 500ns or 1ms")
		}
	}

	dist, given := get("dist")
	if !given || dist == "" {
		return nil, Stats{}, fmt.Errorf("cdf: dist is required (a family: %s, * needs data=DIR; or a CDF file path)", familyNames())
	}
	if c.Dist, err = Resolve(dist, dataDir, o); err != nil {
		return nil, Stats{}, specError("dist", dist, err.Error())
	}
	if pktGiven && c.Dist.PacketBytes == 0 {
		return nil, Stats{}, specError("pkt", pkt, "the distribution's sizes are in bytes; pkt only applies to CDFs in packets (Homa DCTCP_* files)")
	}
	c.MaxMessages = maxMessages
	return Generate(c, seed)
}

// parseLoad parses "0.3" or "30%".
func parseLoad(s string) (float64, error) {
	scale := 1.0
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, scale = strings.TrimSpace(t), 100
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fmt.Errorf("not a number")
	}
	v /= scale
	if !(v > 0 && v <= 1) {
		return 0, fmt.Errorf("out of range")
	}
	return v, nil
}
