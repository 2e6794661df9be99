// Package etgen builds Chakra execution-trace nodes and writes trace
// sets, for ccreplay's tests and example files. Node ids are assigned by
// the caller; the attributes are stored in the AttributeProto fields the
// Chakra reference feeder reads (src/feeder/et_feeder_node.cpp): comm_type
// and comm_size as int64_val, comm_src, comm_dst and comm_tag as
// int32_val, pg_name as string_val.
package etgen

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
)

// Version is the GlobalMetadata version the writer puts in every file.
const Version = "0.0.4"

// Int64 is an attribute with an int64_val.
func Int64(name string, v int64) *etpb.AttributeProto {
	return &etpb.AttributeProto{Name: name, Value: &etpb.AttributeProto_Int64Val{Int64Val: v}}
}

// Int32 is an attribute with an int32_val.
func Int32(name string, v int32) *etpb.AttributeProto {
	return &etpb.AttributeProto{Name: name, Value: &etpb.AttributeProto_Int32Val{Int32Val: v}}
}

// String is an attribute with a string_val.
func String(name, v string) *etpb.AttributeProto {
	return &etpb.AttributeProto{Name: name, Value: &etpb.AttributeProto_StringVal{StringVal: v}}
}

// Comp is a compute node of dur µs.
func Comp(id, dur uint64, deps ...uint64) *etpb.Node {
	return &etpb.Node{Id: id, Name: fmt.Sprintf("comp%d", id), Type: etpb.NodeType_COMP_NODE, DurationMicros: dur, DataDeps: deps}
}

// Send is a send node of size bytes to rank dst with tag.
func Send(id uint64, dst int32, size int64, tag int32, deps ...uint64) *etpb.Node {
	return &etpb.Node{Id: id, Name: fmt.Sprintf("send%d", id), Type: etpb.NodeType_COMM_SEND_NODE, DataDeps: deps,
		Attr: []*etpb.AttributeProto{Int32("comm_dst", dst), Int64("comm_size", size), Int32("comm_tag", tag)}}
}

// Recv is a receive node of size bytes from rank src with tag.
func Recv(id uint64, src int32, size int64, tag int32, deps ...uint64) *etpb.Node {
	return &etpb.Node{Id: id, Name: fmt.Sprintf("recv%d", id), Type: etpb.NodeType_COMM_RECV_NODE, DataDeps: deps,
		Attr: []*etpb.AttributeProto{Int32("comm_src", src), Int64("comm_size", size), Int32("comm_tag", tag)}}
}

// Coll is a collective node of kind ct over size bytes; pg names its
// process group ("" for none).
func Coll(id uint64, ct etpb.CollectiveCommType, size int64, pg string, deps ...uint64) *etpb.Node {
	nd := &etpb.Node{Id: id, Name: fmt.Sprintf("%s%d", ct, id), Type: etpb.NodeType_COMM_COLL_NODE, DataDeps: deps,
		Attr: []*etpb.AttributeProto{Int64("comm_type", int64(ct)), Int64("comm_size", size)}}
	if pg != "" {
		nd.Attr = append(nd.Attr, String("pg_name", pg))
	}
	return nd
}

// Encode returns one rank's ET stream: a GlobalMetadata and the nodes,
// each preceded by its length as a varint, as Chakra's encodeMessage
// (src/third_party/utils/protolib.py) writes them.
func Encode(nodes []*etpb.Node) []byte {
	var out []byte
	put := func(m proto.Message) {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
		if err != nil {
			panic(err) // the generated types always marshal
		}
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	put(&etpb.GlobalMetadata{Version: Version})
	for _, nd := range nodes {
		put(nd)
	}
	return out
}

// WriteSet writes ranks[r] to dir/prefix.r.et for every rank and returns
// rank 0's path.
func WriteSet(dir, prefix string, ranks [][]*etpb.Node) (string, error) {
	for r, nodes := range ranks {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d.et", prefix, r)), Encode(nodes), 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, prefix+".0.et"), nil
}

// Same returns n ranks with the same nodes, made by f for each rank.
func Same(n int, f func(rank int) []*etpb.Node) [][]*etpb.Node {
	out := make([][]*etpb.Node, n)
	for r := range out {
		out[r] = f(r)
	}
	return out
}

// TrainingStep is the example workload of examples/chakra_allreduce8: on
// each of n ranks, a data-parallel training step of a two-layer model:
// forward compute, backward compute per layer, a ring-reduced gradient
// ALL_REDUCE of grad bytes per layer as soon as its backward pass is
// done, and an optimizer step after both all-reduces.
func TrainingStep(n int, grad int64) [][]*etpb.Node {
	return Same(n, func(int) []*etpb.Node {
		return []*etpb.Node{
			Comp(1, 200),    // forward, layer 1
			Comp(2, 200, 1), // forward, layer 2
			Comp(3, 300, 2), // backward, layer 2
			Coll(4, etpb.CollectiveCommType_ALL_REDUCE, grad, "", 3), // gradients of layer 2
			Comp(5, 300, 3), // backward, layer 1
			Coll(6, etpb.CollectiveCommType_ALL_REDUCE, grad, "", 5), // gradients of layer 1
			{Id: 7, Name: "optimizer", Type: etpb.NodeType_COMP_NODE, DurationMicros: 50, DataDeps: []uint64{4, 6}},
		}
	})
}
