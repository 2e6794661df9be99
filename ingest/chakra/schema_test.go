package chakra

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
)

// TestSchemaNumbers checks the generated types against the published
// schema, MLCommons Chakra schema/protobuf/et_def.proto (release 1.0.0):
// the field numbers of the messages the reader decodes and the values of
// NodeType and CollectiveCommType, which travel as integers.
func TestSchemaNumbers(t *testing.T) {
	fields := map[protoreflect.MessageDescriptor]map[string]protoreflect.FieldNumber{
		(&etpb.GlobalMetadata{}).ProtoReflect().Descriptor(): {"version": 1, "attr": 2},
		(&etpb.Node{}).ProtoReflect().Descriptor(): {"id": 1, "name": 2, "type": 3, "ctrl_deps": 4, "data_deps": 5,
			"start_time_micros": 6, "duration_micros": 7, "inputs": 8, "outputs": 9, "attr": 10},
		(&etpb.IOInfo{}).ProtoReflect().Descriptor(): {"values": 1, "shapes": 2, "types": 3},
		(&etpb.AttributeProto{}).ProtoReflect().Descriptor(): {"name": 1, "doc_string": 2,
			"double_val": 3, "double_list": 4, "float_val": 5, "float_list": 6, "int32_val": 7, "int32_list": 8,
			"int64_val": 9, "int64_list": 10, "uint32_val": 11, "uint32_list": 12, "uint64_val": 13, "uint64_list": 14,
			"sint32_val": 15, "sint32_list": 16, "sint64_val": 17, "sint64_list": 18, "fixed32_val": 19, "fixed32_list": 20,
			"fixed64_val": 21, "fixed64_list": 22, "sfixed32_val": 23, "sfixed32_list": 24, "sfixed64_val": 25,
			"sfixed64_list": 26, "bool_val": 27, "bool_list": 28, "string_val": 29, "string_list": 30, "bytes_val": 31,
			"bytes_list": 32},
		(&etpb.Tensor{}).ProtoReflect().Descriptor(): {"tensor_id": 1, "storage_id": 2, "offset": 3, "num_elem": 4,
			"elem_bytes": 5, "device": 6},
	}
	for md, want := range fields {
		if md.Fields().Len() != len(want) {
			t.Errorf("%s has %d fields, the schema %d", md.FullName(), md.Fields().Len(), len(want))
		}
		for name, num := range want {
			f := md.Fields().ByName(protoreflect.Name(name))
			if f == nil || f.Number() != num {
				t.Errorf("%s.%s: %v, want number %d", md.FullName(), name, f, num)
			}
		}
	}
	if f := (&etpb.Node{}).ProtoReflect().Descriptor().Fields().ByName("data_deps"); f.Kind() != protoreflect.Uint64Kind || !f.IsList() {
		t.Errorf("data_deps is %v", f.Kind())
	}
	enums := map[protoreflect.EnumDescriptor][]string{
		etpb.NodeType(0).Descriptor(): {"INVALID_NODE", "METADATA_NODE", "MEM_LOAD_NODE", "MEM_STORE_NODE",
			"COMP_NODE", "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE"},
		etpb.CollectiveCommType(0).Descriptor(): {"ALL_REDUCE", "REDUCE", "ALL_GATHER", "GATHER", "SCATTER",
			"BROADCAST", "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER"},
	}
	for ed, want := range enums {
		if ed.Values().Len() != len(want) {
			t.Errorf("%s has %d values", ed.FullName(), ed.Values().Len())
		}
		for v, name := range want {
			if got := ed.Values().ByNumber(protoreflect.EnumNumber(v)); got == nil || string(got.Name()) != name {
				t.Errorf("%s %d is %v, want %s", ed.FullName(), v, got, name)
			}
		}
	}
}

// TestDecodeWireBytes decodes a stream encoded by hand from the
// protobuf wire format (https://protobuf.dev/programming-guides/encoding/)
// and the schema's field numbers, not by our writer: packed and unpacked
// dependencies, an int64_val and an int32_val attribute.
func TestDecodeWireBytes(t *testing.T) {
	stream := []byte{
		0x07,                                // GlobalMetadata, 7 bytes
		0x0a, 0x05, '0', '.', '0', '.', '4', // version (1, LEN) "0.0.4"
		0x32,       // Node, 50 bytes
		0x08, 0x11, // id (1, VARINT) 17
		0x12, 0x01, 'x', // name (2, LEN) "x"
		0x18, 0x05, // type (3, VARINT) COMM_SEND_NODE
		0x22, 0x01, 0x03, // ctrl_deps (4, LEN, packed) [3]
		0x20, 0x04, // ctrl_deps (4, VARINT, unpacked) 4
		0x2a, 0x02, 0x01, 0x02, // data_deps (5, LEN, packed) [1 2]
		0x30, 0x64, // start_time_micros (6) 100
		0x38, 0x05, // duration_micros (7) 5
		0x52, 0x0e, // attr (10, LEN), 14 bytes
		0x0a, 0x09, 'c', 'o', 'm', 'm', '_', 's', 'i', 'z', 'e', // name "comm_size"
		0x48, 0x80, 0x08, // int64_val (9, VARINT) 1024
		0x52, 0x0c, // attr (10, LEN), 12 bytes
		0x0a, 0x08, 'c', 'o', 'm', 'm', '_', 'd', 's', 't', // name "comm_dst"
		0x38, 0x01, // int32_val (7, VARINT) 1
	}
	f, err := Decode("wire.0.et", stream)
	if err != nil {
		t.Fatal(err)
	}
	if f.Metadata.GetVersion() != "0.0.4" || len(f.Nodes) != 1 {
		t.Fatalf("decoded %v", f)
	}
	nd := f.Nodes[0]
	if nd.GetId() != 17 || nd.GetName() != "x" || nd.GetType() != etpb.NodeType_COMM_SEND_NODE ||
		!slices.Equal(nd.GetCtrlDeps(), []uint64{3, 4}) || !slices.Equal(nd.GetDataDeps(), []uint64{1, 2}) ||
		nd.GetStartTimeMicros() != 100 || nd.GetDurationMicros() != 5 {
		t.Errorf("node %v", nd)
	}
	at, err := readAttrs(nd)
	if err != nil || at.commSize != 1024 || at.commDst != 1 || at.commTag != 0 {
		t.Errorf("attributes %+v, %v", at, err)
	}
}

// TestGeneratedUpToDate regenerates et_def.pb.go with protoc, when it and
// protoc-gen-go are installed, and compares it with the committed file.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, tool := range []string{"protoc", "protoc-gen-go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("protoc", "--proto_path=../..", "--go_out="+out, "--go_opt=module=github.com/ccreplay/ccreplay",
		"ingest/chakra/etpb/et_def.proto")
	cmd.Dir = "."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	got, err := os.ReadFile(filepath.Join(out, "ingest/chakra/etpb/et_def.pb.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("etpb/et_def.pb.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("etpb/et_def.pb.go is out of date (or made by another protoc / protoc-gen-go version): run go generate ./ingest/chakra/etpb")
	}
}

// TestWriteRoundTrip checks that Write frames messages as Chakra's
// encodeMessage does (the same bytes as etgen's independent framing) and
// that Decode reads them back.
func TestWriteRoundTrip(t *testing.T) {
	nodes := pingPong()[0]
	var b bytes.Buffer
	if err := Write(&b, &etpb.GlobalMetadata{Version: etgen.Version}, nodes); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), etgen.Encode(nodes)) {
		t.Error("Write and etgen.Encode differ")
	}
	f, err := Decode("rt.0.et", b.Bytes())
	if err != nil || len(f.Nodes) != len(nodes) {
		t.Fatalf("%v, %v", f, err)
	}
	for i := range nodes {
		if !proto.Equal(f.Nodes[i], nodes[i]) {
			t.Errorf("node %d: %v, want %v", i, f.Nodes[i], nodes[i])
		}
	}
	// A file with no nodes is a rank with nothing to do.
	tr, rep, err := Convert([]*File{f, {Name: "empty.1.et"}}, Options{})
	if err != nil || rep.Ranks != 2 || rep.UnmatchedSends != 1 || rep.UnmatchedReceives != 1 || tr.Validate() != nil {
		t.Errorf("%+v, %v", rep, err)
	}
}
