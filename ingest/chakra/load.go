package chakra

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Options and the entry points: IsChakra, Load, LoadFiles.

// Options tunes how a Chakra execution trace becomes a ccreplay trace.
type Options struct {
	// PPN is the number of ranks per host, placed in blocks: rank r runs
	// on host r / PPN. 0 means 1.
	PPN int
	// ComputeScale multiplies the duration of every compute and memory
	// node before it becomes a gap (2 makes compute twice as slow). 0
	// means 1; it must not be negative.
	ComputeScale float64
	// Groups gives the members of process groups, by pg_name: world
	// ranks in group-rank order (what ASTRA-sim's communicator-group file
	// says). A group not listed has, when unnamed, every rank, else the
	// ranks that have a collective on it, in rank order.
	Groups map[string][]int
	// IgnoreCtrlDeps makes only data dependencies order the nodes, as
	// Chakra's reference feeder (src/feeder/et_feeder.cpp) does. By
	// default control dependencies order them too, except those on a node
	// not in the file, on the node itself or closing a cycle, which are
	// dropped and reported: Chakra's PyTorch converter writes an op's
	// parent as its control dependency, which recordings leave
	// inconsistent.
	IgnoreCtrlDeps bool
}

// IsChakra reports whether path names a Chakra execution trace file: its
// extension is .et.
func IsChakra(path string) bool { return filepath.Ext(path) == ".et" }

// rankFile matches a rank's file name: prefix.N.et.
var rankFile = regexp.MustCompile(`^(.*)\.(\d+)\.et$`)

// Files returns the files of the trace set path belongs to, by rank:
// for prefix.N.et, the files prefix.0.et, prefix.1.et, ... in its
// directory, which must be numbered from 0 without a gap; a file not
// named so is a trace of one rank.
func Files(path string) ([]string, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	m := rankFile.FindStringSubmatch(base)
	if m == nil {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(filepath.Clean(dir + "."))
	if err != nil {
		return nil, err
	}
	var ranks []int
	for _, e := range entries {
		em := rankFile.FindStringSubmatch(e.Name())
		if em == nil || em[1] != m[1] || e.IsDir() {
			continue
		}
		k, err := strconv.Atoi(em[2])
		if err != nil || em[2] != strconv.Itoa(k) {
			continue // leading zeros or out of range: not a rank number
		}
		ranks = append(ranks, k)
	}
	slices.Sort(ranks)
	files := make([]string, len(ranks))
	for i, k := range ranks {
		if k != i {
			return nil, fmt.Errorf("%s: the trace set's files must be numbered from 0 without gaps: %s.%d.et is missing", base, m[1], i)
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("%s.%d.et", m[1], k))
	}
	if len(files) == 0 {
		return []string{path}, nil
	}
	return files, nil
}

// Load reads a Chakra execution trace, given any rank's file (the others
// are found by Files), and turns it into a trace: point-to-point sends
// and decomposed collectives as messages between the ranks' hosts, each
// rank's dependency graph and compute time as dependencies, gaps and
// synchronization points. See the package comment for the rules.
// Decoding errors are *DecodeError and name the file and node.
func Load(path string, opt Options) (*trace.Trace, *Report, error) {
	files, err := Files(path)
	if err != nil {
		return nil, nil, err
	}
	return LoadFiles(files, opt)
}

// LoadFiles is Load for an explicit list of files, one per rank in rank
// order.
func LoadFiles(files []string, opt Options) (*trace.Trace, *Report, error) {
	if len(files) == 0 {
		return nil, nil, errors.New("chakra: no trace files")
	}
	if len(files) > math.MaxInt32/2 {
		return nil, nil, fmt.Errorf("chakra: %d ranks is too many", len(files))
	}
	parsed := make([]*File, len(files))
	// Every rank is read (keep going); the error is the lowest rank's, so
	// that errors are reproducible.
	err := pool.Run(context.Background(), len(files), pool.Options{Parallel: runtime.GOMAXPROCS(0), KeepGoing: true}, func(_ context.Context, r int) error {
		var err error
		parsed[r], err = ReadFile(files[r])
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return Convert(parsed, opt)
}

// Convert turns decoded files, one per rank in rank order, into a trace,
// as Load does.
func Convert(files []*File, opt Options) (*trace.Trace, *Report, error) {
	n := len(files)
	if n == 0 {
		return nil, nil, errors.New("chakra: no trace files")
	}
	if opt.ComputeScale < 0 || math.IsNaN(opt.ComputeScale) || math.IsInf(opt.ComputeScale, 0) {
		return nil, nil, fmt.Errorf("chakra: compute scale %v is not a finite number >= 0", opt.ComputeScale)
	}
	if opt.ComputeScale == 0 {
		opt.ComputeScale = 1
	}
	ppn := max(opt.PPN, 1)
	hosts := make([]int32, n)
	for r := range hosts {
		hosts[r] = int32(r / ppn)
	}
	rep := &Report{Ranks: n, Hosts: (n + ppn - 1) / ppn, PPN: ppn, NodeTypes: map[string]int64{},
		Collectives: map[string]int64{}, CollectiveBytes: map[string]int64{}, Groups: map[string][]int32{},
		Ignored: map[string]int64{}, PerRank: make([]RankReport, n)}
	if md := files[0].Metadata; md != nil {
		rep.Version = md.GetVersion()
		for _, a := range md.GetAttr() {
			// Chakra's converters write the schema version as an attribute.
			if v, ok := a.GetValue().(*etpb.AttributeProto_StringVal); ok && a.GetName() == "schema" && rep.Version == "" {
				rep.Version = v.StringVal
			}
		}
	}
	b := &builder{opt: opt, rep: rep, skips: map[skipKey]int64{}, graphs: make([]*rankGraph, n)}
	var first, end int64
	seen := false
	for r, f := range files {
		g, err := newRankGraph(f, int32(r), n, opt.IgnoreCtrlDeps)
		if err != nil {
			return nil, nil, err
		}
		b.graphs[r] = g
		rep.Files = append(rep.Files, f.Name)
		rep.PerRank[r] = RankReport{File: f.Name, Nodes: int64(len(f.Nodes))}
		rep.Nodes += int64(len(f.Nodes))
		for k, c := range g.types {
			rep.NodeTypes[k] += c
		}
		for k, c := range g.skips {
			if k.reason == reasonUnused {
				rep.Ignored[strings.TrimPrefix(k.kind, "attribute ")] += c
				continue
			}
			b.skips[k] += c
		}
		for i, o := range g.ops {
			if o.kind != opDelay {
				continue
			}
			rep.ComputeMicros = satAdd(rep.ComputeMicros, o.dur)
			if b.gap(o.dur) > limits.MaxTime {
				return nil, nil, errorf(f.Name, i, "duration_micros %d (x compute scale %g) is beyond the limit of %s",
					o.dur, opt.ComputeScale, units.FormatDuration(limits.MaxTime))
			}
		}
		if g.seen {
			if !seen || g.first < first {
				first = g.first
			}
			end = max(end, g.end)
			seen = true
		}
	}
	if seen {
		rep.SpanMicros = end - first
	}
	b.matchP2P()
	if err := b.collectives(); err != nil {
		return nil, nil, err
	}
	for r := range b.graphs {
		b.walk(r)
	}
	order, err := b.order()
	if err != nil {
		return nil, nil, err
	}
	tr := b.emit(order, hosts, rep.Hosts, ppn)
	if err := tr.Validate(); err != nil {
		// NB: the checks above should make this impossible; it guards the
		// replay against a trace it cannot run (e.g. too many bytes).
		return nil, nil, fmt.Errorf("chakra: the trace is beyond what ccreplay can replay: %v", err)
	}
	for k, c := range b.skips {
		rep.Skipped = append(rep.Skipped, Skip{Kind: k.kind, Reason: k.reason, Count: c})
	}
	slices.SortFunc(rep.Skipped, func(x, y Skip) int {
		if c := strings.Compare(x.Kind, y.Kind); c != 0 {
			return c
		}
		return strings.Compare(x.Reason, y.Reason)
	})
	return tr, rep, nil
}
