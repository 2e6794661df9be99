package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
)

// NetworkDiffs lists the network settings (replay.NetworkSettings) whose
// value is not the same in every algorithm's run: the switch and NIC
// settings each preset brings (ECN marking, CNP interval, INT), which
// make a comparison differ in more than the algorithm. cfgs holds one
// configuration per algorithm, in the order of names; a setting one run
// does not have (ECN thresholds with marking off) shows as "-".
func NetworkDiffs(names []string, cfgs []replay.Config) []runfolder.SettingDiff {
	values := make([]map[string]string, len(cfgs))
	var keys []string
	seen := map[string]bool{}
	for i := range cfgs {
		values[i] = map[string]string{}
		for _, s := range replay.NetworkSettings(&cfgs[i]) {
			values[i][s.Key] = s.Value
			if !seen[s.Key] {
				seen[s.Key] = true
				keys = append(keys, s.Key)
			}
		}
	}
	var out []runfolder.SettingDiff
	for _, k := range keys {
		d := runfolder.SettingDiff{Setting: k, Values: map[string]string{}}
		same := true
		for i, n := range names {
			v, ok := values[i][k]
			if !ok {
				v = "-"
			}
			d.Values[n] = v
			same = same && v == d.Values[names[0]]
		}
		if !same {
			out = append(out, d)
		}
	}
	return out
}

// WriteNetworkDiffs prints what NetworkDiffs found under the table's
// header line: one row per differing setting, one column per algorithm
// (parts are the keys of SettingDiff.Values, cols the column headers).
func WriteNetworkDiffs(w io.Writer, parts, cols []string, diffs []runfolder.SettingDiff, held string) {
	switch {
	case held != "" && len(diffs) == 0:
		fmt.Fprintf(w, "network: the same for every algorithm, %s's (--same-network)\n\n", held)
		return
	case len(diffs) == 0:
		fmt.Fprintf(w, "network: the same for every algorithm\n\n")
		return
	}
	fmt.Fprintln(w, "network settings that differ between the algorithms (each preset's switch and NIC settings;")
	fmt.Fprintln(w, "--same-network holds them at one algorithm's values):")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, "setting")
	for _, n := range cols {
		fmt.Fprintf(tw, "\t%s", n)
	}
	fmt.Fprintln(tw)
	for _, d := range diffs {
		fmt.Fprint(tw, d.Setting)
		for _, n := range parts {
			fmt.Fprintf(tw, "\t%s", d.Values[n])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// SameNetwork resolves --same-network's ALGO among the compared
// algorithms: "" (the flag given bare) is the first; otherwise ALGO as
// --cca spelled it, as resolved (dcqcn:hpcc-run), or an algorithm name
// that only one of them has. It returns the index.
func SameNetwork(algo string, typed []string, specs []cca.Spec) (int, error) {
	if algo == "" {
		return 0, nil
	}
	found := -1
	for i, sp := range specs {
		if algo == typed[i] || algo == sp.Name {
			return i, nil
		}
		if name, _, _ := strings.Cut(sp.Name, ":"); name == algo {
			if found >= 0 {
				return 0, clierr.Usagef("--same-network %s: more than one algorithm is %s; name one of %s", algo, algo, strings.Join(typed, ", "))
			}
			found = i
		}
	}
	if found < 0 {
		return 0, clierr.Usagef("--same-network %s: not among the compared algorithms (%s)", algo, strings.Join(typed, ", "))
	}
	return found, nil
}

// HoldNetwork returns spec with the network hints of ref: ECN marking and
// CNP interval as ref's preset sets them, and INT and the flow counter on
// when any compared algorithm needs them (an algorithm that reads INT
// cannot run without it; the others carry the same headers).
func HoldNetwork(spec, ref cca.Spec, specs []cca.Spec) cca.Spec {
	spec.ECN, spec.CNPInterval = ref.ECN, ref.CNPInterval
	for _, s := range specs {
		spec.NeedsINT = spec.NeedsINT || s.NeedsINT || s.NeedsFlowCounter
		spec.NeedsFlowCounter = spec.NeedsFlowCounter || s.NeedsFlowCounter
	}
	return spec
}

// WriteNetwork prints the network settings that differ between the
// algorithms (WriteNetworkDiffs), one column per algorithm as run.
func (c *Comparison) WriteNetwork(w io.Writer) {
	cols := make([]string, len(c.Specs))
	for i, sp := range c.Specs {
		cols[i] = sp.Name
	}
	WriteNetworkDiffs(w, c.Parts, cols, c.Diffs, c.Held)
}
