package otf2

import (
	"fmt"
	"math"
	"sort"
)

// Definitions (spec: "Definition records"; reference: the definition
// list of the format, otf2.defs, and OTF2_GlobalDefReader). A record's
// attributes are stored in the order of the format version that
// introduced them: first those of version 1.0 (including attributes
// later retired, like Region's regionType), then each later version's
// additions. A reader takes the later blocks only when the record is long
// enough, and skips whatever follows what it knows.

// Global definition record types.
const (
	defClockProperties = 5
	defString          = 10
	defSystemTreeNode  = 12
	defLocationGroup   = 13
	defLocation        = 14
	defRegion          = 15
	defGroup           = 18
	defComm            = 22
)

// Local definition record types.
const (
	localMappingTable = 5
	localClockOffset  = 6
)

// Group types (OTF2_GroupType, since 1.2).
const (
	groupLocations     = 1
	groupCommLocations = 4
	groupCommGroup     = 5
	groupCommSelf      = 6
)

// Paradigms (OTF2_Paradigm) this reader cares for.
const (
	paradigmMPI = 4
)

// Mapping types (OTF2_MappingType) of the attributes this reader maps.
const (
	mapLocation = 2
	mapRegion   = 3
	mapGroup    = 4
	mapComm     = 6
	mapMax      = 15
)

// ClockProperties is the archive's timer: Resolution ticks per second,
// and event times in [GlobalOffset, GlobalOffset+TraceLength].
type ClockProperties struct {
	Resolution, GlobalOffset, TraceLength uint64
	// Realtime is the wall-clock time of GlobalOffset, ns since the Unix
	// epoch, or 0 when not recorded (since OTF2 3.0).
	Realtime uint64
}

// SystemTreeNode is a node of the machine's system tree (a machine, a
// cabinet, a node).
type SystemTreeNode struct {
	Name, Class string
	// Parent is the parent node's id, or NoParent.
	Parent uint32
}

// NoParent is the Parent of the root of the system tree, and an undefined
// reference in general.
const NoParent = undef32

// LocationGroup is a process (an MPI rank) or an accelerator context.
type LocationGroup struct {
	Name string
	// Type is 1 for a process, 2 for an accelerator.
	Type uint8
	// Node is the system-tree node the group runs on.
	Node uint32
}

// Location is a thread or stream of a location group, with its own event
// file.
type Location struct {
	ID   uint64
	Name string
	// Type is 1 for a CPU thread, 2 for an accelerator stream, 3 for a
	// metric location.
	Type   uint8
	Events uint64
	Group  uint32
}

// Region is a code region (a function, an MPI call).
type Region struct {
	Name     string
	Role     uint8
	Paradigm uint8
}

// Group is a list of members: locations, or ranks of a communication
// group.
type Group struct {
	Name     string
	Type     uint8
	Paradigm uint8
	Members  []uint64
}

// Comm is a communicator: its group (of type COMM_GROUP or COMM_SELF).
type Comm struct {
	Name   string
	Group  uint32
	Parent uint32
}

// Defs are the global definitions of an archive, by id.
type Defs struct {
	Clock          ClockProperties
	HaveClock      bool
	Strings        map[uint32]string
	Nodes          map[uint32]SystemTreeNode
	LocationGroups map[uint32]LocationGroup
	Locations      []Location // in definition order
	Regions        map[uint32]Region
	Groups         map[uint32]Group
	Comms          map[uint32]Comm
	// Records counts the definition records read, by type name.
	Records map[string]int64
}

var defNames = map[uint8]string{
	5: "ClockProperties", 6: "Paradigm", 7: "ParadigmProperty", 8: "IoParadigm",
	10: "String", 11: "Attribute", 12: "SystemTreeNode", 13: "LocationGroup", 14: "Location",
	15: "Region", 16: "Callsite", 17: "Callpath", 18: "Group", 19: "MetricMember", 20: "MetricClass",
	21: "MetricInstance", 22: "Comm", 23: "Parameter", 24: "RmaWin", 25: "MetricClassRecorder",
	26: "SystemTreeNodeProperty", 27: "SystemTreeNodeDomain", 28: "LocationGroupProperty",
	29: "LocationProperty", 30: "CartDimension", 31: "CartTopology", 32: "CartCoordinate",
	33: "SourceCodeLocation", 34: "CallingContext", 35: "CallingContextProperty",
	36: "InterruptGenerator", 37: "IoFileProperty", 38: "IoRegularFile", 39: "IoDirectory",
	40: "IoHandle", 41: "IoPreCreatedHandleState", 42: "CallpathParameter", 43: "InterComm",
}

func defName(t uint8) string {
	if n, ok := defNames[t]; ok {
		return n
	}
	return fmt.Sprintf("definition type %d", t)
}

// str returns string id's text, or "" for an unknown id.
func (d *Defs) str(id uint32) string { return d.Strings[id] }

// recErr is the error of a record that could not be decoded.
func recErr(r *rbuf, what string) error {
	msg := "truncated " + what
	if r.err != nil && r.err.msg != "truncated" {
		msg = what + ": " + r.err.msg
	}
	return &DecodeError{Msg: msg}
}

// record reads the length of the record what (named in errors) that
// starts at r and returns a reader over its body; r moves past it.
func (r *rbuf) record(what string) (*rbuf, error) {
	end := r.recordLen()
	if r.err != nil {
		return nil, recErr(r, what)
	}
	rr := r.sub(end)
	r.pos = end
	return rr, nil
}

// parseGlobalDefs reads the global definition file.
func parseGlobalDefs(name string, data []byte, chunk uint64) (*Defs, error) {
	d := &Defs{Strings: map[uint32]string{}, Nodes: map[uint32]SystemTreeNode{},
		LocationGroups: map[uint32]LocationGroup{}, Regions: map[uint32]Region{},
		Groups: map[uint32]Group{}, Comms: map[uint32]Comm{}, Records: map[string]int64{}}
	type pending struct {
		node  map[uint32][3]uint32 // name, class, parent
		lg    map[uint32][2]uint32 // name, node
		lgTyp map[uint32]uint8
		locs  []struct {
			l    Location
			name uint32
		}
		reg  map[uint32][2]uint32
		grp  map[uint32]uint32
		comm map[uint32]uint32
	}
	p := pending{node: map[uint32][3]uint32{}, lg: map[uint32][2]uint32{}, lgTyp: map[uint32]uint8{},
		reg: map[uint32][2]uint32{}, grp: map[uint32]uint32{}, comm: map[uint32]uint32{}}
	err := scanChunks(name, data, chunk, defFile, func(typ uint8, r *rbuf, _ uint64) error {
		what := defName(typ)
		rr, err := r.record(what)
		if err != nil {
			return err
		}
		d.Records[what]++
		switch typ {
		case defClockProperties:
			c := ClockProperties{Resolution: rr.u64(), GlobalOffset: rr.u64(), TraceLength: rr.u64()}
			if rr.left() > 0 {
				c.Realtime = rr.u64()
				if c.Realtime == undef64 {
					c.Realtime = 0
				}
			}
			if rr.err != nil {
				return recErr(rr, what)
			}
			if c.Resolution == 0 {
				return &DecodeError{Msg: "ClockProperties: timer resolution 0"}
			}
			d.Clock, d.HaveClock = c, true
		case defString:
			id := rr.u32()
			s := rr.str()
			if rr.err != nil {
				return recErr(rr, what)
			}
			d.Strings[id] = s
		case defSystemTreeNode:
			id := rr.u32()
			v := [3]uint32{rr.u32(), rr.u32(), rr.u32()}
			if rr.err != nil {
				return recErr(rr, what)
			}
			p.node[id] = v
		case defLocationGroup:
			id := rr.u32()
			nm := rr.u32()
			t := rr.u8()
			node := rr.u32()
			if rr.err != nil {
				return recErr(rr, what)
			}
			p.lg[id], p.lgTyp[id] = [2]uint32{nm, node}, t
		case defLocation:
			var l Location
			l.ID = rr.u64()
			nm := rr.u32()
			l.Type = rr.u8()
			l.Events = rr.u64()
			l.Group = rr.u32()
			if rr.err != nil {
				return recErr(rr, what)
			}
			if len(p.locs) >= maxLocations {
				return &DecodeError{Msg: "too many locations"}
			}
			p.locs = append(p.locs, struct {
				l    Location
				name uint32
			}{l, nm})
		case defRegion:
			id := rr.u32()
			nm := rr.u32()
			rr.u32() // description
			rr.u8()  // regionType (retired in 1.1)
			rr.u32() // source file
			rr.u32() // begin line
			rr.u32() // end line
			var reg Region
			if rr.left() > 0 { // 1.1: canonical name, role, paradigm, flags
				rr.u32()
				reg.Role = rr.u8()
				reg.Paradigm = rr.u8()
				rr.u32()
			}
			if rr.err != nil {
				return recErr(rr, what)
			}
			d.Regions[id] = reg
			p.reg[id] = [2]uint32{nm}
		case defGroup:
			id := rr.u32()
			nm := rr.u32()
			pre := rr.u8() // group type before 1.2
			n := rr.u32()
			if rr.err != nil {
				return recErr(rr, what)
			}
			// Each member takes at least one byte: a count beyond the
			// record is corrupt.
			if n > maxMembers || int(n) > rr.left() {
				return &DecodeError{Msg: fmt.Sprintf("Group: %d members in a record of %d bytes", n, rr.left())}
			}
			g := Group{Members: make([]uint64, n)}
			for i := range g.Members {
				g.Members[i] = rr.u64()
			}
			if rr.left() > 0 { // 1.2: type, paradigm, flags
				g.Type = rr.u8()
				g.Paradigm = rr.u8()
				rr.u32()
			} else {
				g.Type = convertPre12Group(pre)
				if g.Type == groupCommLocations || g.Type == groupCommGroup || g.Type == groupCommSelf {
					g.Paradigm = paradigmMPI
				}
			}
			if rr.err != nil {
				return recErr(rr, what)
			}
			d.Groups[id] = g
			p.grp[id] = nm
		case defComm:
			id := rr.u32()
			nm := rr.u32()
			c := Comm{Group: rr.u32(), Parent: rr.u32()}
			if rr.err != nil {
				return recErr(rr, what)
			}
			d.Comms[id] = c
			p.comm[id] = nm
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Names are resolved after the whole file: strings come first in
	// practice, but the format does not say so.
	for id, v := range p.node {
		d.Nodes[id] = SystemTreeNode{Name: d.str(v[0]), Class: d.str(v[1]), Parent: v[2]}
	}
	for id, v := range p.lg {
		d.LocationGroups[id] = LocationGroup{Name: d.str(v[0]), Type: p.lgTyp[id], Node: v[1]}
	}
	for _, l := range p.locs {
		l.l.Name = d.str(l.name)
		d.Locations = append(d.Locations, l.l)
	}
	for id, v := range p.reg {
		reg := d.Regions[id]
		reg.Name = d.str(v[0])
		d.Regions[id] = reg
	}
	for id, nm := range p.grp {
		g := d.Groups[id]
		g.Name = d.str(nm)
		d.Groups[id] = g
	}
	for id, nm := range p.comm {
		c := d.Comms[id]
		c.Name = d.str(nm)
		d.Comms[id] = c
	}
	sort.SliceStable(d.Locations, func(i, j int) bool { return d.Locations[i].ID < d.Locations[j].ID })
	return d, nil
}

// convertPre12Group maps the group types of format 1.0/1.1
// (OTF2_GroupTypePre12: 0 unknown, 1 locations, 2 regions, 3 metric, 4
// MPI group, 5 MPI self, 6 MPI locations) to the current ones.
func convertPre12Group(t uint8) uint8 {
	switch t {
	case 1:
		return groupLocations
	case 2:
		return 2
	case 3:
		return 3
	case 4:
		return groupCommGroup
	case 5:
		return groupCommSelf
	case 6:
		return groupCommLocations
	}
	return 0
}

// clockOffset is one ClockOffset definition of a location.
type clockOffset struct {
	time   uint64
	offset int64
}

// localDefs are what a location's local definition file says about its
// events: mapping tables from its local ids to global ones, and clock
// offsets.
type localDefs struct {
	maps    [mapMax]map[uint64]uint64
	offsets []clockOffset
}

// mapID maps a local id of mapping type t to the global one; ids without
// a mapping are their own.
func (l *localDefs) mapID(t int, id uint64) uint64 {
	if l == nil || l.maps[t] == nil {
		return id
	}
	if g, ok := l.maps[t][id]; ok {
		return g
	}
	return id
}

// parseLocalDefs reads a location's local definition file.
func parseLocalDefs(name string, data []byte, chunk uint64) (*localDefs, error) {
	l := &localDefs{}
	err := scanChunks(name, data, chunk, defFile, func(typ uint8, r *rbuf, _ uint64) error {
		what := defName(typ)
		switch typ {
		case localMappingTable:
			what = "MappingTable"
		case localClockOffset:
			what = "ClockOffset"
		}
		rr, err := r.record(what)
		if err != nil {
			return err
		}
		switch typ {
		case localMappingTable:
			mt := int(rr.u8())
			n := rr.u64()
			mode := rr.u8()
			if rr.err != nil {
				return recErr(rr, what)
			}
			per := uint64(1)
			if mode == 1 { // sparse: (local, global) pairs
				per = 2
			} else if mode != 0 {
				return &DecodeError{Msg: fmt.Sprintf("MappingTable: unknown mode %d", mode)}
			}
			if n > maxMapEntries || n*per > uint64(rr.left()) {
				return &DecodeError{Msg: fmt.Sprintf("MappingTable: %d entries in a record of %d bytes", n, rr.left())}
			}
			m := make(map[uint64]uint64, n)
			for i := uint64(0); i < n; i++ {
				local := i
				if mode == 1 {
					local = rr.u64()
				}
				m[local] = rr.u64()
			}
			if rr.err != nil {
				return recErr(rr, what)
			}
			if mt < mapMax {
				l.maps[mt] = m
			}
		case localClockOffset:
			o := clockOffset{time: rr.full64(), offset: rr.i64()}
			rr.f64() // standard deviation
			if rr.err != nil {
				return recErr(rr, what)
			}
			if n := len(l.offsets); n > 0 && o.time <= l.offsets[n-1].time {
				return &DecodeError{Msg: "ClockOffset: times do not increase"}
			}
			l.offsets = append(l.offsets, o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// correct applies the clock offsets to a timestamp as the reference
// reader does: with offsets o_1..o_k (k >= 2), the time t falls in the
// interval [o_i.time, o_i+1.time] that contains it (the first one before
// o_1, the last one after o_k) and becomes t + o_i.offset + slope_i * (t
// - o_i.time), slope_i the interval's change of offset per tick, rounded
// to the nearest tick. A single offset is not applied (the reference
// reader waits for the interval's end).
func (l *localDefs) correct(t uint64, cur *int) uint64 {
	if l == nil || len(l.offsets) < 2 {
		return t
	}
	i := *cur
	for i < len(l.offsets)-2 && t > l.offsets[i+1].time {
		i++
	}
	*cur = i
	a, b := l.offsets[i], l.offsets[i+1]
	slope := (float64(b.offset) - float64(a.offset)) / (float64(b.time) - float64(a.time))
	v := float64(t) + slope*(float64(t)-float64(a.time)) + float64(a.offset)
	if v <= 0 {
		return 0
	}
	if v >= 1.8e19 {
		return undef64 - 1
	}
	return uint64(math.RoundToEven(v)) // C's rint
}
