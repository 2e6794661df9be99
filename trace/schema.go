package trace

// MetadataKey is the Parquet key/value metadata key whose value is
// SchemaVersion.
const MetadataKey = "ccreplay.trace.schema"

// HostsKey is the Parquet key/value metadata key holding Trace.Hosts in
// decimal ("0" or absent: infer from the largest host index).
const HostsKey = "ccreplay.trace.hosts"

// parquetRow is one message in a Parquet trace, schema SchemaVersion.
// Readers outside Go see int64 columns (src and dst are int32), deps as
// list<int64> and the version under MetadataKey.
//
// NB: never rename or retype a column here; add a new SchemaVersion.
type parquetRow struct {
	ID           int64   `parquet:"id,delta"`         // message id, >= 0
	Src          int32   `parquet:"src"`              // sending host index
	Dst          int32   `parquet:"dst"`              // receiving host index
	Bytes        int64   `parquet:"bytes"`            // payload, bytes
	ReleaseNs    int64   `parquet:"release_ns,delta"` // earliest release, ns
	FlowID       int64   `parquet:"flow_id"`          // queue pair, -1 = its own
	CollectiveID int64   `parquet:"collective_id"`    // collective, -1 = none
	Deps         []int64 `parquet:"deps,list"`        // ids that must complete first
	GapNs        int64   `parquet:"gap_ns"`           // compute gap after the deps, ns
}

// rowsPerRowGroup bounds the rows parquet-go buffers before flushing a row
// group (STYLE.md section 7: the default keeps the whole file in memory).
const rowsPerRowGroup = 1 << 17
