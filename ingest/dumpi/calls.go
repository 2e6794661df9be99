package dumpi

// Phase 1, continued: collectives, communicator and group calls, derived
// datatypes.

// collective records a collective call; false if r is not one. The bytes
// a rank contributes (collOp.bytes, collOp.counts) are:
//
//	Bcast, Reduce, Allreduce, Scan, Exscan   count x size(datatype)
//	Gather(v)                                sendcount x size(sendtype)
//	Scatter(v)                               recvcount x size(recvtype)
//	Allgather                                recvcount x size(recvtype) (a block; MPI_IN_PLACE-safe)
//	Alltoall                                 sendcount x size(sendtype) (to each peer)
//	Allgatherv                               counts[k] = recvcounts[k] x size(recvtype)
//	Alltoallv                                counts[k] = sendcounts[k] x size(sendtype)
//	Alltoallw                                counts[k] = sendcounts[k] x size(sendtypes[k])
//	Reduce_scatter                           counts[k] = recvcounts[k] x size(datatype)
func (x *extractor) collective(r *Record, entry, exit int64) bool {
	fn := r.Func
	i := func(name string) int64 { v, _ := r.Int(name); return v }
	c := collOp{fn: fn, entry: entry, root: -1}
	scale := func(counts []int64, size func(k int) int64) []int64 {
		out := make([]int64, len(counts))
		for k, n := range counts {
			out[k] = satMul(n, size(k))
		}
		return out
	}
	switch fn {
	case fnBarrier:
	case fnBcast, fnReduce:
		c.bytes, c.root = x.size(fn, i("count"), i("datatype")), int32(i("root"))
	case fnAllreduce, fnScan, fnExscan:
		c.bytes = x.size(fn, i("count"), i("datatype"))
	case fnGather, fnGatherv:
		c.bytes, c.root = x.size(fn, i("sendcount"), i("sendtype")), int32(i("root"))
	case fnScatter, fnScatterv:
		c.bytes, c.root = x.size(fn, i("recvcount"), i("recvtype")), int32(i("root"))
	case fnAllgather:
		c.bytes = x.size(fn, i("recvcount"), i("recvtype"))
	case fnAlltoall:
		c.bytes = x.size(fn, i("sendcount"), i("sendtype"))
	case fnAllgatherv:
		one := x.size(fn, 1, i("recvtype"))
		c.counts = scale(r.Ints("recvcounts"), func(int) int64 { return one })
	case fnAlltoallv:
		one := x.size(fn, 1, i("sendtype"))
		c.counts = scale(r.Ints("sendcounts"), func(int) int64 { return one })
	case fnAlltoallw:
		types := r.Ints("sendtypes")
		c.counts = scale(r.Ints("sendcounts"), func(k int) int64 {
			if k < len(types) {
				return x.size(fn, 1, types[k])
			}
			return 0
		})
	case fnReduceScatter:
		one := x.size(fn, 1, i("datatype"))
		c.counts = scale(r.Ints("recvcounts"), func(int) int64 { return one })
	default:
		return false
	}
	c.comm = x.comm(i("comm"))
	l := x.log
	l.colls = append(l.colls, c)
	l.events = append(l.events, event{kind: evColl, a: int32(len(l.colls) - 1), entry: entry, exit: exit})
	return true
}

// commCall records a communicator or group call; false if r is not one.
func (x *extractor) commCall(r *Record) bool {
	fn := r.Func
	i := func(name string) int64 { v, _ := r.Int(name); return v }
	op := commOp{fn: fn, parent: refUnknown}
	newComm := int64(-1) // handle of a new communicator, if any
	switch fn {
	case fnCommGroup:
		op.parent, op.newGroup = x.comm(i("comm")), i("group")
	case fnGroupIncl, fnGroupExcl, fnGroupRangeIncl, fnGroupRangeExcl:
		op.g1, op.newGroup = i("group"), i("newgroup")
		op.ranks = r.Ints("ranks")
		if op.ranks == nil {
			op.ranks = r.Ints("ranges")
		}
	case fnGroupUnion, fnGroupIntersection, fnGroupDifference:
		op.g1, op.g2, op.newGroup = i("group1"), i("group2"), i("newgroup")
	case fnGroupFree:
		op.g1 = i("group")
	case fnCommRemoteGroup, fnWinGetGroup, fnFileGetGroup:
		op.newGroup = i("group") // a group the builder cannot know
	case fnCommDup:
		op.parent, newComm = x.comm(i("oldcomm")), i("newcomm")
	case fnCommCreate:
		op.parent, op.g1, newComm = x.comm(i("oldcomm")), i("group"), i("newcomm")
	case fnCommSplit:
		op.parent, op.color, op.key, newComm = x.comm(i("oldcomm")), i("color"), i("key"), i("newcomm")
	case fnCartCreate:
		op.parent, newComm = x.comm(i("oldcomm")), i("newcomm")
		op.size = 1
		for _, d := range r.Ints("dims") {
			op.size = satMul(op.size, d)
		}
	case fnGraphCreate:
		op.parent, op.size, newComm = x.comm(i("oldcomm")), i("nodes"), i("newcomm")
	case fnCartSub, fnIntercommMerge, fnIntercommCreate, fnCommAccept, fnCommConnect, fnCommSpawn,
		fnCommSpawnMultiple, fnCommJoin, fnCommGetParent:
		newComm = i("newcomm")
		switch fn {
		case fnCommJoin:
			newComm = i("comm")
		case fnCommGetParent:
			newComm = i("parent")
		default:
			for _, name := range []string{"oldcomm", "localcomm", "comm"} {
				if h, ok := r.Int(name); ok {
					op.parent = x.comm(h)
					break
				}
			}
		}
		if fn != fnCartSub {
			x.other(fn)
		}
	case fnCommFree, fnCommDisconnect:
		delete(x.comms, i("comm"))
		return true
	default:
		return false
	}
	l := x.log
	if newComm >= 0 {
		op.newRef = true
		op.isNull = newComm == commNull || newComm == 0
		if !op.isNull {
			x.comms[newComm] = refFirstOp + int32(len(l.commOps))
		}
	}
	l.commOps = append(l.commOps, op)
	return true
}

// typeCall tracks the size of derived datatypes; false if r is not a
// datatype call. MPI_Type_size records, when present, give the size
// outright; otherwise sizes follow from the constructor's arguments
// (MPI_Type_create_darray's is approximated as its global size over the
// process grid).
func (x *extractor) typeCall(r *Record) bool {
	fn := r.Func
	i := func(name string) int64 { v, _ := r.Int(name); return v }
	sum := func(v []int64) (s int64) {
		for _, n := range v {
			s = satAdd(s, n)
		}
		return s
	}
	prod := func(v []int64) int64 {
		p := int64(1)
		for _, n := range v {
			p = satMul(p, n)
		}
		return p
	}
	set := func(dt, mult int64, old ...int64) {
		total := int64(0)
		for _, o := range old {
			s, ok := x.types[o]
			if !ok {
				delete(x.types, dt)
				return
			}
			total = satAdd(total, s)
		}
		x.types[dt] = satMul(mult, total)
	}
	switch fn {
	case fnTypeContiguous:
		set(i("newtype"), i("count"), i("oldtype"))
	case fnTypeVector, fnTypeHvector, fnTypeCreateHvector:
		set(i("newtype"), satMul(i("count"), i("blocklength")), i("oldtype"))
	case fnTypeIndexed, fnTypeHindexed:
		set(i("newtype"), sum(r.Ints("lengths")), i("oldtype"))
	case fnTypeCreateHindexed:
		set(i("newtype"), sum(r.Ints("blocklengths")), i("oldtype"))
	case fnTypeCreateIndexedBlock:
		set(i("newtype"), satMul(i("count"), i("blocklength")), i("oldtype"))
	case fnTypeStruct, fnTypeCreateStruct:
		lens, old := r.Ints("lengths"), r.Ints("oldtypes")
		if fn == fnTypeCreateStruct {
			lens = r.Ints("blocklengths")
		}
		total := int64(0)
		for k, t := range old {
			s, ok := x.types[t]
			if !ok || k >= len(lens) {
				delete(x.types, i("newtype"))
				return true
			}
			total = satAdd(total, satMul(lens[k], s))
		}
		x.types[i("newtype")] = total
	case fnTypeDup, fnTypeCreateResized:
		set(i("newtype"), 1, i("oldtype"))
	case fnTypeCreateSubarray:
		set(i("newtype"), prod(r.Ints("subsizes")), i("oldtype"))
	case fnTypeCreateDarray:
		if p := prod(r.Ints("psizes")); p > 0 {
			set(i("newtype"), prod(r.Ints("gsizes"))/p, i("oldtype"))
		}
	case fnTypeSize, fnTypeMatchSize:
		x.types[i("datatype")] = min(max(i("size"), 0), maxBytes)
	case fnTypeFree:
		delete(x.types, i("datatype"))
	case fnTypeCommit:
	default:
		return false
	}
	return true
}
