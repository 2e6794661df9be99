package otf2

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/ingest/dumpi"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Options tunes how an OTF2 archive becomes a ccreplay trace.
type Options struct {
	// PPN is the number of ranks per host, placed in blocks: rank r runs
	// on host r / PPN. 0 means 1. Ignored when Hosts is set or
	// SystemTree is true.
	PPN int
	// Hosts places the ranks explicitly: rank r runs on host Hosts[r].
	// When set it needs one entry per rank, each >= 0.
	Hosts []int32
	// SystemTree places the ranks by the archive's system tree: ranks
	// whose processes (location groups) hang under the same system-tree
	// node share a host; hosts are numbered in the order of their lowest
	// rank.
	SystemTree bool
	// EagerLimit is as in dumpi.Options: the largest send, bytes, that
	// completes when handed to MPI; 0 means dumpi.DefaultEagerLimit, a
	// negative value makes every send complete on delivery.
	EagerLimit int64
	// ComputeScale multiplies the compute gaps (trace.Message.Gap); 0
	// means 1. Use it to model faster or slower processors.
	ComputeScale float64
}

// Load reads the OTF2 archive whose anchor file is path and turns it into
// a trace: MPI point-to-point messages and decomposed collectives between
// the hosts of the ranks, with each rank's program order and compute time
// as dependencies, gaps and synchronization points, by the rules of
// ingest/dumpi (see the package comment). Decoding errors are
// *DecodeError and name the file and record.
func Load(path string, opt Options) (*trace.Trace, *Report, error) {
	if opt.ComputeScale < 0 || math.IsNaN(opt.ComputeScale) || math.IsInf(opt.ComputeScale, 0) {
		return nil, nil, fmt.Errorf("otf2: compute scale %v", opt.ComputeScale)
	}
	a, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	return load(a, opt)
}

// load converts an opened archive.
func load(a *Archive, opt Options) (*trace.Trace, *Report, error) {
	c, err := newConverter(a, opt)
	if err != nil {
		return nil, nil, err
	}
	return c.run()
}

// converter turns an archive into dumpi programs.
type converter struct {
	a        *Archive
	opt      Options
	rep      *Report
	ranks    []uint64       // world rank -> location id
	rankOf   map[uint64]int // location id -> world rank
	progs    []dumpi.Program
	comms    [][]int32
	commIdx  map[[2]int64]int32 // (OTF2 comm, self rank or -1) -> index into comms
	commWhy  map[uint32]string  // OTF2 comm -> why it is unusable
	skips    map[[2]string]int64
	colls    map[int32][]collRef // comm index -> collective calls, per rank in order
	t0       uint64              // global offset, ticks
	res      uint64              // ticks per second
	firstNs  int64
	lastNs   int64
	haveTime bool
}

// collRef is a collective call of a rank, for sizes that need the other
// members' records.
type collRef struct {
	comm int32
	rank int
	call int
	sent uint64
	recv uint64
	op   CollectiveOp
}

func newConverter(a *Archive, opt Options) (*converter, error) {
	d := a.Defs
	c := &converter{a: a, opt: opt, rankOf: map[uint64]int{}, commIdx: map[[2]int64]int32{},
		commWhy: map[uint32]string{}, skips: map[[2]string]int64{}, colls: map[int32][]collRef{}}
	c.rep = &Report{Anchor: a.Anchor.Path, Version: a.Anchor.VersionString(), Creator: a.Anchor.Creator,
		Machine: a.Anchor.Machine, Locations: len(d.Locations), Events: map[string]int64{},
		Collectives: map[string]int64{}, CollectiveBytes: map[string]int64{}}
	c.res, c.t0 = 1, 0
	if d.HaveClock {
		c.res, c.t0 = d.Clock.Resolution, d.Clock.GlobalOffset
		c.rep.TimerResolution, c.rep.GlobalOffset = d.Clock.Resolution, d.Clock.GlobalOffset
	} else {
		c.rep.warnings = append(c.rep.warnings, "the archive has no ClockProperties definition: times are taken as nanoseconds")
		c.res = nsPerSecond
	}
	// World ranks: the members of the MPI communication-locations group,
	// in order (spec: Group definition, type COMM_LOCATIONS).
	var world *Group
	ids := make([]uint32, 0, len(d.Groups))
	for id := range d.Groups {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if g := d.Groups[id]; g.Type == groupCommLocations && g.Paradigm == paradigmMPI {
			world = &g
			break
		}
	}
	known := map[uint64]*Location{}
	for i := range d.Locations {
		known[d.Locations[i].ID] = &d.Locations[i]
	}
	if world != nil {
		for r, loc := range world.Members {
			if _, dup := c.rankOf[loc]; dup {
				return nil, fmt.Errorf("otf2: %s: location %d is rank %d and %d of MPI_COMM_WORLD", a.Anchor.Path, loc, c.rankOf[loc], r)
			}
			if known[loc] == nil {
				return nil, fmt.Errorf("otf2: %s: rank %d is location %d, which is not defined", a.Anchor.Path, r, loc)
			}
			c.rankOf[loc] = r
			c.ranks = append(c.ranks, loc)
		}
	} else {
		// No MPI: one rank per process, its first location.
		seen := map[uint32]bool{}
		for _, l := range d.Locations {
			if g, ok := d.LocationGroups[l.Group]; ok && g.Type == 1 && !seen[l.Group] {
				seen[l.Group] = true
				c.rankOf[l.ID] = len(c.ranks)
				c.ranks = append(c.ranks, l.ID)
			}
		}
		c.rep.warnings = append(c.rep.warnings, "the archive defines no MPI communication-locations group: each process's first location is taken as a rank")
	}
	if len(c.ranks) == 0 {
		return nil, fmt.Errorf("otf2: %s: no MPI ranks (no locations)", a.Anchor.Path)
	}
	c.rep.Ranks = len(c.ranks)
	c.progs = make([]dumpi.Program, len(c.ranks))
	return c, nil
}

// ns converts ticks to nanoseconds after the global offset.
func (c *converter) ns(t uint64) int64 {
	neg := t < c.t0
	d := t - c.t0
	if neg {
		d = c.t0 - t
	}
	hi, lo := bits.Mul64(d, nsPerSecond)
	var q uint64
	if hi >= c.res {
		q = math.MaxUint64
	} else {
		q, _ = bits.Div64(hi, lo, c.res)
	}
	v := int64(min(q, uint64(maxNsTime)))
	if neg {
		return -v
	}
	return v
}

// skip counts an event left out, by kind and reason.
func (c *converter) skip(kind, why string) { c.skips[[2]string{kind, why}]++ }

// why an event kind this reader does not interpret is left out.
func skipReason(t EventType) string {
	n := t.String()
	switch {
	case t == EvMpiRequestTest:
		return "a test that completed nothing changes nothing in the replay"
	case t == EvMpiRequestCancelled:
		return "the cancelled request is dropped"
	case strings.HasPrefix(n, "Rma"):
		return "one-sided communication is not modelled"
	case strings.HasPrefix(n, "Io"):
		return "I/O is not modelled"
	case strings.HasPrefix(n, "Omp"), strings.HasPrefix(n, "Thread"):
		return "threading is not modelled"
	case strings.HasPrefix(n, "Metric"), strings.HasPrefix(n, "Parameter"):
		return "metrics and parameters are not modelled"
	case strings.HasPrefix(n, "CallingContext"):
		return "sampling is not modelled"
	}
	return "not modelled"
}

// comm returns the index of OTF2 communicator id for world rank r.
func (c *converter) comm(id uint32, r int) (int32, string) {
	if why, ok := c.commWhy[id]; ok {
		return -1, why
	}
	d := c.a.Defs
	cm, ok := d.Comms[id]
	if !ok {
		c.commWhy[id] = fmt.Sprintf("communicator %d is not defined", id)
		return -1, c.commWhy[id]
	}
	g, ok := d.Groups[cm.Group]
	if !ok {
		c.commWhy[id] = fmt.Sprintf("communicator %d's group %d is not defined", id, cm.Group)
		return -1, c.commWhy[id]
	}
	key := [2]int64{int64(id), -1}
	if g.Type == groupCommSelf {
		key[1] = int64(r)
	}
	if k, ok := c.commIdx[key]; ok {
		return k, ""
	}
	var members []int32
	switch g.Type {
	case groupCommSelf:
		members = []int32{int32(r)}
	case groupCommGroup:
		for _, m := range g.Members {
			if m >= uint64(len(c.ranks)) {
				c.commWhy[id] = fmt.Sprintf("communicator %d has rank %d of %d", id, m, len(c.ranks))
				return -1, c.commWhy[id]
			}
			members = append(members, int32(m))
		}
	case groupCommLocations, groupLocations:
		for _, m := range g.Members {
			w, ok := c.rankOf[m]
			if !ok {
				c.commWhy[id] = fmt.Sprintf("communicator %d has location %d, which is not an MPI rank", id, m)
				return -1, c.commWhy[id]
			}
			members = append(members, int32(w))
		}
	default:
		c.commWhy[id] = fmt.Sprintf("communicator %d's group has type %d", id, g.Type)
		return -1, c.commWhy[id]
	}
	seen := map[int32]bool{}
	for _, m := range members {
		if seen[m] {
			c.commWhy[id] = fmt.Sprintf("communicator %d lists rank %d twice", id, m)
			return -1, c.commWhy[id]
		}
		seen[m] = true
	}
	k := int32(len(c.comms))
	c.comms = append(c.comms, members)
	c.commIdx[key] = k
	return k, ""
}

// run reads every location and builds the trace.
func (c *converter) run() (*trace.Trace, *Report, error) {
	for _, l := range c.a.Defs.Locations {
		r, isRank := c.rankOf[l.ID]
		var rc *rankConv
		if isRank {
			rc = &rankConv{c: c, rank: r, reqSend: map[uint64]int32{}, reqRecv: map[uint64]int32{}}
		}
		has, offs, err := c.a.readLocation(l.ID, func(ev *Event) error {
			c.rep.Events[ev.Type.String()]++
			c.rep.EventCount++
			t := c.ns(ev.Time)
			if !c.haveTime || t < c.firstNs {
				c.firstNs = t
			}
			if !c.haveTime || t > c.lastNs {
				c.lastNs = t
			}
			c.haveTime = true
			if rc == nil {
				c.skip(ev.Type.String(), "the location is not an MPI rank")
				return nil
			}
			rc.event(ev, t)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		c.rep.ClockOffsets += int64(offs)
		if offs == 1 {
			c.rep.warnings = append(c.rep.warnings, fmt.Sprintf("location %d has a single clock offset, which OTF2 readers do not apply", l.ID))
		}
		if rc != nil {
			if !has {
				c.rep.warnings = append(c.rep.warnings, fmt.Sprintf("rank %d (location %d) has no event file", r, l.ID))
			}
			rc.finish()
			_, evt := c.a.LocationFiles(l.ID)
			c.progs[r] = dumpi.Program{File: evt, Calls: rc.calls}
		}
	}
	if c.haveTime {
		c.rep.StartNs, c.rep.DurationNs = c.firstNs, c.lastNs-c.firstNs
	}
	c.fillCounts()
	hosts, placement, err := c.placement()
	if err != nil {
		return nil, nil, err
	}
	c.rep.Placement = placement
	dopt := dumpi.Options{PPN: c.opt.PPN, Hosts: hosts, EagerLimit: c.opt.EagerLimit}
	tr, drep, fns, err := dumpi.BuildCollectives(c.progs, c.comms, dopt)
	if err != nil {
		return nil, nil, fmt.Errorf("otf2: %s: %w", c.a.Anchor.Path, err)
	}
	scale := c.opt.ComputeScale
	if scale == 0 {
		scale = 1
	}
	clamped := 0
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if scale != 1 {
			m.Gap = units.Time(min(float64(m.Gap)*scale, float64(limits.MaxTime)+1))
		}
		if m.Gap > limits.MaxTime || m.Release > limits.MaxTime {
			m.Gap, m.Release = min(m.Gap, limits.MaxTime), min(m.Release, limits.MaxTime)
			clamped++
		}
	}
	if clamped > 0 {
		c.rep.warnings = append(c.rep.warnings, fmt.Sprintf("%d gaps or release times beyond %s were cut to it", clamped, limits.Describe(limits.MaxTime)))
	}
	if err := tr.Validate(); err != nil {
		return nil, nil, fmt.Errorf("otf2: %s: %w", c.a.Anchor.Path, err)
	}
	c.rep.fill(drep, tr, fns)
	for k, n := range c.skips {
		c.rep.Skipped = append(c.rep.Skipped, Skip{Kind: k[0], Reason: k[1], Count: n})
	}
	c.rep.sortSkipped()
	return tr, c.rep, nil
}

// placement maps ranks to hosts by the options.
func (c *converter) placement() ([]int32, string, error) {
	n := len(c.ranks)
	switch {
	case c.opt.Hosts != nil:
		if len(c.opt.Hosts) != n {
			return nil, "", fmt.Errorf("otf2: %d host placements for %d ranks", len(c.opt.Hosts), n)
		}
		return c.opt.Hosts, "explicit", nil
	case c.opt.SystemTree:
		d := c.a.Defs
		hosts := make([]int32, n)
		byNode := map[uint32]int32{}
		groupOf := make(map[uint64]uint32, len(d.Locations))
		for _, l := range d.Locations {
			groupOf[l.ID] = l.Group
		}
		for r, loc := range c.ranks {
			node := uint32(NoParent)
			if g, ok := d.LocationGroups[groupOf[loc]]; ok {
				node = g.Node
			}
			h, ok := byNode[node]
			if !ok {
				h = int32(len(byNode))
				byNode[node] = h
			}
			hosts[r] = h
		}
		return hosts, "system tree", nil
	}
	return nil, fmt.Sprintf("%d ranks per host", max(c.opt.PPN, 1)), nil
}
