package trace

// MetadataKey is the Parquet key/value metadata key whose value is
// SchemaVersion (or SchemaVersionV1 in older files).
const MetadataKey = "ccreplay.trace.schema"

// HostsKey is the Parquet key/value metadata key holding Trace.Hosts in
// decimal ("0" or absent: infer from the largest host index).
const HostsKey = "ccreplay.trace.hosts"

// PPNKey is the Parquet key/value metadata key holding Trace.PPN in
// decimal; written only for MPI jobs (absent: 0).
const PPNKey = "ccreplay.trace.ppn"

// RanksKey is the Parquet key/value metadata key holding Trace.Ranks, the
// host of each rank in rank order, ';'-separated ("0;0;1;1"); written only
// for MPI jobs (absent: no ranks).
const RanksKey = "ccreplay.trace.ranks"

// parquetRow is one message in a Parquet trace, schema SchemaVersion
// (ccreplay.trace.v2): the version 1 columns (id through gap_ns), then
// priority, iteration, src_rank and dst_rank. Readers outside Go see int64
// columns (src, dst, priority and the ranks are int32), deps as
// list<int64> and the version under MetadataKey. WriteParquet writes rows
// of it; ReadParquet reads the columns pqColumnsV1 or pqColumnsV2 name.
//
// NB: never rename or retype a column here; add a new SchemaVersion.
type parquetRow struct {
	ID           int64   `parquet:"id,delta"`         // message id, >= 0
	Src          int32   `parquet:"src"`              // sending host index
	Dst          int32   `parquet:"dst"`              // receiving host index (== src: same host)
	Bytes        int64   `parquet:"bytes"`            // payload, bytes
	ReleaseNs    int64   `parquet:"release_ns,delta"` // earliest release, ns
	FlowID       int64   `parquet:"flow_id"`          // queue pair, -1 = its own
	CollectiveID int64   `parquet:"collective_id"`    // collective, -1 = none
	Deps         []int64 `parquet:"deps,list"`        // ids that must complete first
	GapNs        int64   `parquet:"gap_ns"`           // compute gap after the deps, ns
	Priority     int32   `parquet:"priority"`         // traffic class, 0 = the NIC's default
	Iteration    int64   `parquet:"iteration"`        // application iteration, -1 = none
	SrcRank      int32   `parquet:"src_rank"`         // sending MPI rank, -1 = none
	DstRank      int32   `parquet:"dst_rank"`         // receiving MPI rank, -1 = none
}

// rowsPerRowGroup bounds the rows parquet-go buffers before flushing a row
// group (parquet-go's default keeps the whole file in memory).
const rowsPerRowGroup = 1 << 17
