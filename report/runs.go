package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/internal/shellquote"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// runs writes the section of the run folders of ins: what was run, the
// warnings, the metrics, the bucket tables, the figures and, for
// estimates, the links.
func (p *page) runs(ins []Input, colours map[string]int, opt Options) error {
	var args []string
	var colls []*runfolder.Collection
	var collDirs []string
	for _, in := range ins {
		args = append(args, in.Dir)
		if in.Kind == KindComparison {
			c := &runfolder.Collection{}
			if err := readJSON(filepath.Join(in.Dir, runfolder.CollectionFile), "a "+runfolder.CollectionFile, c); err != nil {
				return err
			}
			colls = append(colls, c)
			collDirs = append(collDirs, in.Dir)
		}
	}
	found, err := runfolder.Expand(args)
	if err != nil {
		return err
	}
	runs, err := plot.LoadRuns(runfolder.Dirs(found))
	if err != nil {
		return err
	}
	for _, r := range runs {
		r.Group = colours[r.Manifest.CCA]
	}
	p.res.Runs += len(runs)

	title := fmt.Sprintf("%d runs", len(runs))
	if len(runs) == 1 {
		m := &runs[0].Manifest
		title = fmt.Sprintf("Run: %s under %s", m.Trace, m.CCA)
		if m.Mode == runfolder.ModeEstimate {
			title = fmt.Sprintf("Estimate: %s under %s", m.Trace, m.CCA)
		}
	} else if len(colls) == 1 && len(ins) == 1 {
		title = fmt.Sprintf("Comparison: %s, %d runs", colls[0].Trace, len(runs))
	}
	p.section("runs", title)
	allParams := p.whatWasRun(runs, colls, collDirs)
	p.runWarnings(runs)
	if err := p.runMetrics(runs); err != nil {
		return err
	}
	p.runFigures(runs, opt)
	for _, r := range runs {
		if r.Manifest.Mode == runfolder.ModeEstimate {
			if err := p.estimate(r); err != nil {
				return err
			}
		}
	}
	allParams()
	p.endSection()
	return nil
}

// whatWasRun writes the runs table, each run's command and, with several
// runs, the settings that differ; it returns the writer of the table of
// every effective parameter, which goes at the end of the section.
func (p *page) whatWasRun(runs []*plot.Run, colls []*runfolder.Collection, collDirs []string) (allParams func()) {
	p.h3("What was run")
	var rows [][]string
	for _, r := range runs {
		m := &r.Manifest
		kind := "packet-level run"
		if m.Mode == runfolder.ModeEstimate {
			kind = "estimate (" + m.Estimate.Method + ")"
		}
		rows = append(rows, []string{r.Label, filepath.ToSlash(r.Dir), kind, m.CCA, strconv.FormatUint(m.Seed, 10), m.Trace, m.Topology,
			network(r.Ports), m.Packets, m.Tool, metrics.Format(float64(m.SimEndNs), metrics.UnitNs), strconv.FormatUint(m.Events, 10)})
	}
	p.table("Runs (from each folder's "+runfolder.SummaryFile+"; the network from its "+runfolder.PortsFile+")",
		[]string{"run", "folder", "kind", "algorithm", "seed", "workload or trace", "topology", "network", "packet log", "written by", "simulated time", "events"},
		rows, func(c int) bool { return c == 4 || c >= 10 })
	p.para("Commands that reproduce each run (rebuilt from " + runfolder.SummaryFile + ": the workload, algorithm with its preset, topology, seed and packet log; the network settings, listed at the end of this section, are the preset's unless a configuration file changed them):")
	var cmds []string
	for _, r := range runs {
		cmds = append(cmds, commandOf(&r.Manifest, r.Dir))
	}
	p.raw("<pre>" + esc(strings.Join(uniq(cmds), "\n")) + "</pre>\n")
	for i, c := range colls {
		if c.SameNetwork != "" {
			p.para(fmt.Sprintf("%s: every run took the network settings of %s (compare --same-network).", collDirs[i], c.SameNetwork))
		}
	}

	// Every effective parameter, a column per run.
	keys, vals := parameters(runs)
	var prow, drow [][]string
	// Different algorithms have different parameters: with the algorithm
	// differing, its parameters are left to the full table.
	algDiffers := slices.ContainsFunc(runs, func(r *plot.Run) bool { return r.Manifest.CCA != runs[0].Manifest.CCA })
	for _, k := range keys {
		row := []string{k}
		differ := false
		for i := range runs {
			v, ok := vals[i][k]
			if !ok {
				v = "-"
			}
			if i > 0 && v != row[1] {
				differ = true
			}
			row = append(row, v)
		}
		prow = append(prow, row)
		if differ && !(algDiffers && strings.HasPrefix(k, "cca_params.")) {
			drow = append(drow, row)
		}
	}
	header := []string{"setting"}
	for _, r := range runs {
		header = append(header, r.Label)
	}
	if len(runs) > 1 {
		if len(drow) == 0 {
			p.para("Every setting is the same in all runs.")
		} else {
			caption := "Settings that differ between the runs"
			if algDiffers {
				caption += " (each algorithm's own parameters are in the table of every parameter at the end of this section)"
			}
			p.table(caption, header, drow, allNumeric)
		}
	}
	return func() {
		p.h3("Every effective parameter")
		p.table("Every effective parameter ("+runfolder.SummaryFile+": config, cca_params, estimate; units in the names: _bytes, _ns, _bps, _pkts)", header, prow, allNumeric)
	}
}

// parameters lists every setting of the runs' manifests: the command's
// inputs, the network configuration (summary.json's config, in its order),
// the algorithm's parameters (sorted) and an estimate's settings.
func parameters(runs []*plot.Run) ([]string, []map[string]string) {
	var keys []string
	have := map[string]bool{}
	vals := make([]map[string]string, len(runs))
	for i, r := range runs {
		m := &r.Manifest
		v := map[string]string{}
		add := func(k, s string) {
			if !have[k] {
				have[k] = true
				keys = append(keys, k)
			}
			v[k] = s
		}
		add("cca", m.CCA)
		add("seed", strconv.FormatUint(m.Seed, 10))
		add("trace", m.Trace)
		add("topology", m.Topology)
		add("packets", m.Packets)
		for _, kv := range orderedJSON(m.Config) {
			add("config."+kv[0], kv[1])
		}
		ps := make([]string, 0, len(m.CCAParams))
		for k := range m.CCAParams {
			ps = append(ps, k)
		}
		sort.Strings(ps)
		for _, k := range ps {
			add("cca_params."+k, m.CCAParams[k])
		}
		if m.Estimate != nil {
			for _, kv := range orderedJSON(m.Estimate) {
				add("estimate."+kv[0], kv[1])
			}
		}
		vals[i] = v
	}
	return keys, vals
}

// orderedJSON is the members of v's JSON object in their order, values as
// JSON text (strings unquoted).
func orderedJSON(v any) [][2]string {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal(b, &raw) != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var out [][2]string
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			break
		}
		switch t := t.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				if r, ok := raw[t]; ok {
					s := string(r)
					if u, err := strconv.Unquote(s); err == nil {
						s = u
					}
					out = append(out, [2]string{t, s})
					delete(raw, t)
					// skip its value
					var skip json.RawMessage
					if dec.Decode(&skip) != nil {
						return out
					}
				}
			}
		}
	}
	return out
}

// commandOf rebuilds the command line of a run from its manifest.
func commandOf(m *runfolder.Manifest, dir string) string {
	verb := "run"
	if m.Mode == runfolder.ModeEstimate {
		verb = "estimate"
	}
	flag := "--workload"
	if !strings.Contains(m.Trace, "=") && (strings.ContainsAny(m.Trace, "/\\") || strings.Contains(m.Trace, ".")) {
		flag = "--trace"
	}
	args := []string{"ccreplay", verb, flag, m.Trace, "--cca", m.CCA}
	if m.Topology != "" {
		args = append(args, "--topology", m.Topology)
	}
	args = append(args, "--seed", strconv.FormatUint(m.Seed, 10))
	if m.Packets != "" && verb == "run" {
		args = append(args, "--packets", m.Packets)
	}
	args = append(args, "--out", filepath.ToSlash(dir))
	for i, a := range args {
		args[i] = shellquote.Word(a)
	}
	return strings.Join(args, " ")
}

// runWarnings lists what the runs' manifests warn of.
func (p *page) runWarnings(runs []*plot.Run) {
	var ws []string
	for _, r := range runs {
		for _, w := range r.Manifest.Warnings {
			ws = append(ws, r.Label+": "+w)
		}
		if fin, all := r.Summary.FlowsFinished, r.Summary.Flows; fin < all {
			ws = append(ws, fmt.Sprintf("%s: %d of %d flows did not finish (left out of FCT and slowdown)", r.Label, all-fin, all))
		}
	}
	p.warnings(ws, "None: no run's "+runfolder.SummaryFile+" holds a warning and every flow finished.")
}

// runMetrics writes the headline metrics (summary.json's, which `ccreplay
// metrics --verify` recomputes from the Parquet files) and the bucket
// tables.
func (p *page) runMetrics(runs []*plot.Run) error {
	p.h3("Metrics")
	if len(runs) == 1 {
		var rows [][]string
		for _, r := range metrics.SummaryRows(runs[0].Summary) {
			rows = append(rows, []string{r.Label, r.Value})
		}
		p.table("Metrics of "+runs[0].Label+" (as ccreplay metrics prints them)", []string{"metric", "value"}, rows, allNumeric)
		if r := runs[0]; r.Packets != "" {
			ps, err := arrowread.ScanPacketStats(r.Packets)
			if err != nil {
				return err
			}
			rows = rows[:0]
			for _, x := range metrics.PacketRows(ps) {
				rows = append(rows, []string{x.Label, x.Value})
			}
			p.table("From "+runfolder.PacketsFile+" (streamed, as ccreplay metrics prints it)", []string{"packet log", "value"}, rows, allNumeric)
		}
		if r := runs[0]; len(r.Messages) > 0 {
			t := metrics.BySize(r.Messages)
			header, rows := metrics.SizeCells(t)
			p.table(strings.ToUpper(t.Caption()[:1])+t.Caption()[1:], header, rows, allNumeric)
		}
	} else {
		header := []string{"metric"}
		for _, r := range runs {
			header = append(header, r.Label)
		}
		var rows [][]string
		for _, mt := range metrics.Compared {
			row := []string{mt.Label}
			for _, r := range runs {
				s := r.Summary
				row = append(row, metrics.Format(mt.Get(&s), mt.Unit))
			}
			rows = append(rows, row)
		}
		p.table("Headline metrics, a column per run (as ccreplay compare and metrics print them)", header, rows, allNumeric)
	}
	for _, r := range runs {
		bs := r.Summary.Buckets
		if len(bs) == 0 {
			continue
		}
		p.table(fmt.Sprintf("FCT and slowdown per flow-size bucket: %s (flows sorted by size, %s of equal count)", r.Label, plural(len(bs), "bucket")),
			metrics.BucketHeader, metrics.BucketCells(bs), allNumeric)
	}
	return nil
}

// runFigures draws plot's views of the runs; a view that does not apply
// is listed as skipped. As `ccreplay plot --pool auto`: an algorithm with
// more than two runs is one pooled curve in the distribution views and
// its first run in the time views.
func (p *page) runFigures(runs []*plot.Run, opt Options) {
	p.h3("Figures")
	dist, single := runs, runs
	n := map[string]int{}
	for _, r := range runs {
		n[r.Manifest.CCA]++
	}
	if slices.ContainsFunc(runs, func(r *plot.Run) bool { return n[r.Manifest.CCA] > 2 }) {
		dist, single = plot.PoolSeeds(runs)
	}
	var skipped []string
	for _, view := range []string{"fct", "slowdown", "queue", "rate", "alltoall"} {
		var fig plot.Figure
		var err error
		switch view {
		case "fct":
			fig, err = plot.FCTCDF(dist)
		case "slowdown":
			fig, err = plot.Slowdown(dist, opt.Buckets)
		case "queue":
			fig, err = plot.QueueOverTime(single, opt.Time)
		case "rate":
			fig, err = plot.RateOverTime(single, opt.Time)
		case "alltoall":
			fig, err = plot.AlltoallLatency(single)
		}
		var sk *plot.Skipped
		if errors.As(err, &sk) {
			p.res.Skipped = append(p.res.Skipped, sk)
			skipped = append(skipped, sk.View+": "+sk.Reason)
			continue
		}
		if err != nil {
			skipped = append(skipped, view+": "+err.Error())
			p.res.Warnings = append(p.res.Warnings, view+" figure: "+err.Error())
			continue
		}
		if len(single) < len(runs) {
			if view == "fct" || view == "slowdown" {
				fig.Notes = append(fig.Notes, "each algorithm's runs pooled into one curve")
			} else {
				fig.Notes = append(fig.Notes, "each algorithm's first run only")
			}
		}
		p.figure(&fig)
	}
	if len(skipped) > 0 {
		p.para("Not drawn: " + strings.Join(skipped, "; ") + ".")
	}
}

// maxLinkRows bounds the links listed for an estimate.
const maxLinkRows = 25

// estimate writes an estimate's method, its links per kind and the links
// of highest offered load (links.parquet).
func (p *page) estimate(r *plot.Run) error {
	e := r.Manifest.Estimate
	p.h3("Estimate: links simulated (" + r.Label + ")")
	if e != nil {
		p.para(fmt.Sprintf("Method %s: %d links carry traffic, %d link simulations ran (aggregate %s, combine %s, tolerance %g). An estimate is not a packet-level run: see the warnings above for where its method does not hold.",
			e.Method, e.Links, e.LinksSimulated, e.Aggregate, e.Combine, e.Tolerance))
	}
	links, err := arrowread.ReadLinks(filepath.Join(r.Dir, runfolder.LinksFile))
	if err != nil {
		return err
	}
	type agg struct {
		links, sim, warn int
		flows, bytes     int64
		maxLoad          float64
	}
	byKind := map[string]*agg{}
	var kinds []string
	for i := range links {
		l := &links[i]
		a := byKind[l.Kind]
		if a == nil {
			a = &agg{}
			byKind[l.Kind] = a
			kinds = append(kinds, l.Kind)
		}
		a.links++
		if l.Simulated {
			a.sim++
		}
		if l.Warnings != "" {
			a.warn++
		}
		a.flows += l.Flows
		a.bytes += l.Bytes
		a.maxLoad = max(a.maxLoad, l.OfferedLoad)
	}
	sort.Strings(kinds)
	var rows [][]string
	for _, k := range kinds {
		a := byKind[k]
		rows = append(rows, []string{k, strconv.Itoa(a.links), strconv.Itoa(a.sim), strconv.FormatInt(a.flows, 10),
			metrics.Format(float64(a.bytes), metrics.UnitBytes), metrics.Format(a.maxLoad, metrics.UnitPct), strconv.Itoa(a.warn)})
	}
	p.table("Links per kind ("+runfolder.LinksFile+")", []string{"kind", "links", "simulated", "flow crossings", "bytes", "max offered load", "with warnings"}, rows, allNumeric)
	idx := make([]int, len(links))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return links[idx[a]].OfferedLoad > links[idx[b]].OfferedLoad })
	rows = rows[:0]
	for _, i := range idx[:min(len(idx), maxLinkRows)] {
		l := &links[i]
		rows = append(rows, linkRow(l))
	}
	p.table(fmt.Sprintf("The %d links of highest offered load (of %d)", len(rows), len(links)),
		[]string{"link", "node", "port", "peer", "kind", "rate", "flows", "bytes", "offered load", "simulated", "represented by", "PFC paused", "dropped", "warnings"},
		rows, func(c int) bool { return c != 4 && c != 9 && c != 13 })
	return nil
}

func linkRow(l *v2.LinkRow) []string {
	sim := "no"
	if l.Simulated {
		sim = "yes"
	}
	return []string{strconv.Itoa(int(l.LinkID)), strconv.Itoa(int(l.Node)), strconv.Itoa(int(l.Port)), strconv.Itoa(int(l.PeerNode)), l.Kind,
		metrics.Format(float64(l.RateBps), metrics.UnitBps), strconv.FormatInt(l.Flows, 10), metrics.Format(float64(l.Bytes), metrics.UnitBytes),
		metrics.Format(l.OfferedLoad, metrics.UnitPct), sim, strconv.Itoa(int(l.RepresentedBy)),
		metrics.Format(float64(l.PFCPausedNs), metrics.UnitNs), strconv.FormatInt(l.DroppedPkts, 10), l.Warnings}
}

// plural writes "1 bucket", "10 buckets".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "h") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// network summarises a run's topology from its ports: hosts and switches
// with ports, egress ports and their rates ("-" for an estimate, which
// has no ports of its own).
func network(ports []v2.PortRow) string {
	if len(ports) == 0 {
		return "-"
	}
	hosts, switches := map[int32]bool{}, map[int32]bool{}
	rates := map[int64]int{}
	for i := range ports {
		if ports[i].IsSwitch {
			switches[ports[i].Node] = true
		} else {
			hosts[ports[i].Node] = true
		}
		rates[ports[i].RateBps]++
	}
	rs := make([]int64, 0, len(rates))
	for r := range rates {
		rs = append(rs, r)
	}
	slices.Sort(rs)
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%d at %s", rates[r], metrics.Format(float64(r), metrics.UnitBps)))
	}
	return fmt.Sprintf("%s, %s, %s: %s", plural(len(hosts), "host"), plural(len(switches), "switch"), plural(len(ports), "egress port"), strings.Join(parts, ", "))
}
