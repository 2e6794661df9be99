package otf2

import "fmt"

// Event records (spec: "Event records"; reference: the event list of the
// format, otf2.events, and OTF2_EvtReader). In an event file a record is
// preceded by a timestamp record (type 5, a full 64-bit tick count) when
// its time differs from the previous record's, and optionally by an
// attribute list (type 6, length-prefixed), which this reader skips.

// EventType is an event record's type byte.
type EventType uint8

// The event types this reader interprets.
const (
	EvEnter               EventType = 12
	EvLeave               EventType = 13
	EvMpiSend             EventType = 14
	EvMpiIsend            EventType = 15
	EvMpiIsendComplete    EventType = 16
	EvMpiIrecvRequest     EventType = 17
	EvMpiRecv             EventType = 18
	EvMpiIrecv            EventType = 19
	EvMpiRequestTest      EventType = 20
	EvMpiRequestCancelled EventType = 21
	EvMpiCollectiveBegin  EventType = 22
	EvMpiCollectiveEnd    EventType = 23
)

var eventNames = [...]string{
	10: "BufferFlush", 11: "MeasurementOnOff", 12: "Enter", 13: "Leave", 14: "MpiSend",
	15: "MpiIsend", 16: "MpiIsendComplete", 17: "MpiIrecvRequest", 18: "MpiRecv", 19: "MpiIrecv",
	20: "MpiRequestTest", 21: "MpiRequestCancelled", 22: "MpiCollectiveBegin", 23: "MpiCollectiveEnd",
	24: "OmpFork", 25: "OmpJoin", 26: "OmpAcquireLock", 27: "OmpReleaseLock", 28: "OmpTaskCreate",
	29: "OmpTaskSwitch", 30: "OmpTaskComplete", 31: "Metric", 32: "ParameterString", 33: "ParameterInt",
	34: "ParameterUnsignedInt", 35: "RmaWinCreate", 36: "RmaWinDestroy", 37: "RmaCollectiveBegin",
	38: "RmaCollectiveEnd", 39: "RmaGroupSync", 40: "RmaRequestLock", 41: "RmaAcquireLock",
	42: "RmaTryLock", 43: "RmaReleaseLock", 44: "RmaSync", 45: "RmaWaitChange", 46: "RmaPut",
	47: "RmaGet", 48: "RmaAtomic", 49: "RmaOpCompleteBlocking", 50: "RmaOpCompleteNonBlocking",
	51: "RmaOpTest", 52: "RmaOpCompleteRemote", 53: "ThreadFork", 54: "ThreadJoin",
	55: "ThreadTeamBegin", 56: "ThreadTeamEnd", 57: "ThreadAcquireLock", 58: "ThreadReleaseLock",
	59: "ThreadTaskCreate", 60: "ThreadTaskSwitch", 61: "ThreadTaskComplete", 62: "ThreadCreate",
	63: "ThreadBegin", 64: "ThreadWait", 65: "ThreadEnd", 66: "CallingContextEnter",
	67: "CallingContextLeave", 68: "CallingContextSample", 69: "IoCreateHandle", 70: "IoDestroyHandle",
	71: "IoDuplicateHandle", 72: "IoSeek", 73: "IoChangeStatusFlags", 74: "IoDeleteFile",
	75: "IoOperationBegin", 76: "IoOperationTest", 77: "IoOperationIssued", 78: "IoOperationComplete",
	79: "IoOperationCancelled", 80: "IoAcquireLock", 81: "IoReleaseLock", 82: "IoTryLock",
	83: "ProgramBegin", 84: "ProgramEnd",
}

// String returns the record's name in the format's list ("MpiIsend"), or
// "event type N" for a type this reader does not know.
func (t EventType) String() string {
	if int(t) < len(eventNames) && eventNames[t] != "" {
		return eventNames[t]
	}
	return fmt.Sprintf("event type %d", t)
}

// singletonEvent reports whether records of type t carry no length: the
// records of format versions 1.0 and 1.1 whose only attribute is one
// compressed integer. Records introduced later always carry a length (the
// format's generator forbids new singletons), so a reader can skip any
// record type it does not know.
func singletonEvent(t EventType) bool {
	switch t {
	case 12, 13, // Enter, Leave: region
		16, 17, 20, 21, // MPI request completions, tests, cancels: request id
		24,         // OmpFork: number of threads
		28, 29, 30: // OmpTask*: task id
		return true
	}
	return false
}

// CollectiveOp is the kind of an MpiCollectiveEnd (OTF2_CollectiveOp).
type CollectiveOp uint8

var collectiveNames = [...]string{"BARRIER", "BCAST", "GATHER", "GATHERV", "SCATTER", "SCATTERV",
	"ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW", "ALLREDUCE", "REDUCE",
	"REDUCE_SCATTER", "SCAN", "EXSCAN", "REDUCE_SCATTER_BLOCK", "CREATE_HANDLE", "DESTROY_HANDLE",
	"ALLOCATE", "DEALLOCATE", "CREATE_HANDLE_AND_ALLOCATE", "DESTROY_HANDLE_AND_DEALLOCATE"}

// String returns the operation's name as otf2-print writes it
// ("ALLREDUCE").
func (c CollectiveOp) String() string {
	if int(c) < len(collectiveNames) {
		return collectiveNames[c]
	}
	return fmt.Sprintf("collective op %d", c)
}

// Event is one decoded event record. Which fields are set depends on
// Type; times are ticks after clock correction, ids are global (local
// ids mapped through the location's mapping tables).
type Event struct {
	Type EventType
	// Time is the event's timestamp, ticks of the archive's timer.
	Time uint64
	// Region is the region of Enter and Leave.
	Region uint32
	// Peer is the receiver of a send or the sender of a receive, as a
	// rank of Comm.
	Peer uint32
	// Comm is the communicator of MPI events.
	Comm uint32
	// Tag is the message tag of point-to-point events.
	Tag uint32
	// Bytes is the message length of point-to-point events.
	Bytes uint64
	// Request is the request id of nonblocking events.
	Request uint64
	// Op, Root, Sent and Received are MpiCollectiveEnd's operation, root
	// (a rank of Comm, or NoParent for none), and bytes sent and received
	// by this location.
	Op             CollectiveOp
	Root           uint32
	Sent, Received uint64
}

// readEvents decodes an event file, calling fn for every event record
// (those it does not interpret with only Type and Time set).
func readEvents(name string, data []byte, chunk uint64, ld *localDefs, fn func(*Event) error) error {
	cur := 0
	var ev Event
	return scanChunks(name, data, chunk, evtFile, func(typ uint8, r *rbuf, t uint64) error {
		et := EventType(typ)
		ev = Event{Type: et, Time: ld.correct(t, &cur)}
		what := et.String()
		if singletonEvent(et) {
			v := r.u64()
			if r.err != nil {
				return recErr(r, what)
			}
			switch et {
			case EvEnter, EvLeave:
				if v > undef32 {
					return &DecodeError{Msg: what + ": region id out of range"}
				}
				ev.Region = uint32(ld.mapID(mapRegion, v))
			default:
				ev.Request = v
			}
			return fn(&ev)
		}
		rr, err := r.record(what)
		if err != nil {
			return err
		}
		switch et {
		case EvMpiSend, EvMpiIsend, EvMpiRecv, EvMpiIrecv:
			ev.Peer = rr.u32()
			ev.Comm = uint32(ld.mapID(mapComm, uint64(rr.u32())))
			ev.Tag = rr.u32()
			ev.Bytes = rr.u64()
			if et == EvMpiIsend || et == EvMpiIrecv {
				ev.Request = rr.u64()
			}
		case EvMpiCollectiveEnd:
			ev.Op = CollectiveOp(rr.u8())
			ev.Comm = uint32(ld.mapID(mapComm, uint64(rr.u32())))
			ev.Root = rr.u32()
			ev.Sent = rr.u64()
			ev.Received = rr.u64()
		}
		if rr.err != nil {
			return recErr(rr, what)
		}
		return fn(&ev)
	})
}
