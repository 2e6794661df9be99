package gen

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/cdf"
)

// cdfKindDoc documents the cdf generator, which trace/cdf implements.
func cdfKindDoc() Kind {
	k := Kind{Name: "cdf", Doc: "datacenter flows drawn from a flow-size CDF at a target load with Poisson arrivals per host (FDCC thesis: mean inter-arrival = 1 / (BW x load / (8 x mean size))), uniform random host pairs without self pairs"}
	for _, sk := range cdf.SpecKeys() {
		def := sk.Default
		if def == "" {
			def = "none"
		}
		k.Keys = append(k.Keys, Key{Name: sk.Name, Default: def, Doc: sk.Doc})
	}
	k.Keys = append(k.Keys, Key{Name: "data", Default: "built-in", Doc: "your own copy of a named family: a folder laid out as hpcc/, opera/, homa/ (the CDF files of the HPCC, Opera and Homa repositories) or the family's file; without it the distributions built into ccreplay are used"})
	return k
}

// parseCDF runs trace/cdf's generator for a "cdf:..." spec and returns
// its statistics too (mean size used, achieved load).
func parseCDF(args string, seed int64, maxMessages int) (*trace.Trace, cdf.Stats, error) {
	keys := map[string]string{}
	for _, kv := range strings.Split(args, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, cdf.Stats{}, fmt.Errorf("cdf: %q is not key=value", kv)
		}
		if _, dup := keys[k]; dup {
			return nil, cdf.Stats{}, fmt.Errorf("cdf: key %q given twice", k)
		}
		keys[k] = v
	}
	dir := "" // the built-in distributions
	if d, ok := keys["data"]; ok {
		if dir = strings.TrimSpace(d); dir == "" {
			return nil, cdf.Stats{}, fmt.Errorf("cdf: data=%q: want a folder or a file (leave data out for the built-in distributions)", d)
		}
		delete(keys, "data")
	}
	return cdf.FromSpec(keys, seed, dir, maxMessages)
}

// ParseWithStats is Parse, also returning the cdf generator's statistics
// (zero for other kinds) so that callers can print the mean size used and
// the achieved load.
func ParseWithStats(spec string, seed int64) (*trace.Trace, cdf.Stats, error) {
	return ParseWithin(spec, seed, 0)
}

// ParseWithin is ParseWithStats for a trace of at most maxMessages
// messages (0: only the generators' own limits), e.g. what a memory budget
// holds (MemPerMessage): a spec that would make more is refused with a
// *trace.TooManyMessagesError before anything is built.
func ParseWithin(spec string, seed int64, maxMessages int) (*trace.Trace, cdf.Stats, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if strings.TrimSpace(name) == "cdf" {
		t, st, err := parseCDF(args, seed, maxMessages)
		if err != nil {
			return nil, st, err
		}
		if err := t.Validate(); err != nil {
			return nil, st, fmt.Errorf("cdf: %w", err)
		}
		return t, st, nil
	}
	t, err := parse(spec, seed, maxMessages)
	return t, cdf.Stats{}, err
}
