package chakra

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
)

// metaOnly is a stream holding only a GlobalMetadata.
var metaOnly = etgen.Encode(nil)

// cat concatenates byte slices.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// enc encodes nodes as one rank's stream.
func enc(nodes ...*etpb.Node) []byte { return etgen.Encode(nodes) }

// TestMalformed checks that damaged or inconsistent files give one-line
// errors naming the file and node, and never a panic.
func TestMalformed(t *testing.T) {
	send := func(id uint64, dst int32, deps ...uint64) *etpb.Node { return etgen.Send(id, dst, 8, 0, deps...) }
	recv := func(id uint64, src int32, deps ...uint64) *etpb.Node { return etgen.Recv(id, src, 8, 0, deps...) }
	badAttr := func(a *etpb.AttributeProto) *etpb.Node {
		nd := etgen.Send(1, 0, 8, 0)
		nd.Attr = []*etpb.AttributeProto{a, etgen.Int32("comm_dst", 0)}
		return nd
	}
	filler := make([]*etpb.Node, 17)
	for i := range filler {
		filler[i] = etgen.Comp(uint64(i), 1)
	}
	for _, tc := range []struct {
		name  string
		ranks [][]byte
		want  string
	}{
		{"empty file", [][]byte{{}}, "workload.0.et: empty file: no global metadata"},
		{"truncated metadata", [][]byte{{0x05, 0x0a}}, "workload.0.et: global metadata of 5 bytes at byte 1 runs past the end of the file (1 bytes left)"},
		{"truncated varint", [][]byte{cat(metaOnly, []byte{0x80})}, "workload.0.et: node 0: truncated length of the node at byte 8"},
		{"varint over 32 bits", [][]byte{cat(metaOnly, []byte{0xff, 0xff, 0xff, 0xff, 0x7f})}, "workload.0.et: node 0: length of the node at byte 8 is not a 32-bit varint"},
		{"length beyond file", [][]byte{cat(enc(etgen.Comp(1, 1)), []byte{0x10, 0x08})}, "workload.0.et: node 1: node of 16 bytes at byte 23 runs past the end of the file (1 bytes left)"},
		{"bad protobuf", [][]byte{cat(metaOnly, []byte{0x02, 0xff, 0xff})}, "workload.0.et: node 0: proto:"},
		{"unknown node type", [][]byte{enc(&etpb.Node{Id: 1, Type: 42})}, "workload.0.et: node 0: node type 42 is not a Chakra node type"},
		{"invalid node type", [][]byte{enc(etgen.Comp(1, 1), &etpb.Node{Id: 2})}, "workload.0.et: node 1: node type 0 is not a Chakra node type"},
		{"dangling dependency", [][]byte{enc(etgen.Comp(1, 5), etgen.Comp(2, 5, 99))}, "workload.0.et: node 1: data dependency on node id 99, which is not in the file"},
		{"self dependency", [][]byte{enc(etgen.Comp(1, 5, 1))}, "workload.0.et: node 0: depends on itself (id 1)"},
		{"cycle", [][]byte{enc(etgen.Comp(1, 1), etgen.Comp(2, 1, 1, 4), etgen.Comp(3, 1, 2), etgen.Comp(4, 1, 3))},
			"workload.0.et: node 1: data dependency cycle through nodes 1 <- 3 <- 2 <- 1"},
		{"duplicate id", [][]byte{enc(etgen.Comp(1, 1), etgen.Comp(1, 1))}, "workload.0.et: node 1: id 1 is also node 0's"},
		{"unknown comm_type", [][]byte{enc(etgen.Coll(1, 77, 8, ""))}, "workload.0.et: node 0: comm_type 77 is not a Chakra collective type"},
		{"peer out of range", [][]byte{metaOnly, metaOnly, metaOnly, enc(append(filler, send(99, 5))...)},
			"workload.3.et: node 17: comm_dst 5 is not one of the 4 ranks"},
		{"negative comm_size", [][]byte{enc(badAttr(etgen.Int64("comm_size", -8)))}, "workload.0.et: node 0: comm_size -8 is negative"},
		{"comm_size not an integer", [][]byte{enc(badAttr(etgen.String("comm_size", "8")))}, "workload.0.et: node 0: attribute comm_size is not an integer"},
		{"message too large", [][]byte{enc(badAttr(etgen.Int64("comm_size", 2e12)))}, "workload.0.et: node 0: size 2000000000000 is beyond the limit of 1000000000000 bytes"},
		{"duration too long", [][]byte{enc(etgen.Comp(1, 1e13))}, "workload.0.et: node 0: duration_micros 10000000000000 (x compute scale 1) is beyond the limit of"},
		{"pg_name not a string", [][]byte{enc(badAttr(etgen.Int64("pg_name", 1)))}, "workload.0.et: node 0: attribute pg_name is not a string"},
		{"collectives disagree", [][]byte{
			enc(etgen.Coll(1, etpb.CollectiveCommType_ALL_REDUCE, 8, "")),
			enc(etgen.Comp(1, 1), etgen.Coll(2, etpb.CollectiveCommType_ALL_TO_ALL, 8, "")),
		}, `workload.1.et: node 1: collective 0 on process group "" is ALL_TO_ALL here but ALL_REDUCE on rank 0 (workload.0.et node 0)`},
		{"deadlock", [][]byte{enc(recv(1, 1), send(2, 1, 1)), enc(recv(1, 0), send(2, 0, 1))}, "chakra: the ranks wait for each other:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := loadErr(t, tc.ranks)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want %q...", err, tc.want)
			}
		})
	}
}

// TestDecodeErrorType checks that decoding errors are *DecodeError.
func TestDecodeErrorType(t *testing.T) {
	_, err := Decode("x/workload.3.et", []byte{0x80})
	var de *DecodeError
	if !errors.As(err, &de) || de.File != "workload.3.et" || de.Node != -1 {
		t.Errorf("error %#v", err)
	}
}

// TestFiles checks how a trace set's files are found.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"w.0.et", "w.1.et", "w.2.et", "w.01.et", "other.5.et", "single.et"} {
		if err := os.WriteFile(filepath.Join(dir, name), metaOnly, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(filepath.Join(dir, "w.2.et"))
	if err != nil || len(files) != 3 || files[1] != filepath.Join(dir, "w.1.et") {
		t.Errorf("files %v, %v", files, err)
	}
	if files, err := Files(filepath.Join(dir, "single.et")); err != nil || len(files) != 1 {
		t.Errorf("single: %v, %v", files, err)
	}
	if _, err := Files(filepath.Join(dir, "other.5.et")); err == nil || !strings.Contains(err.Error(), "other.0.et is missing") {
		t.Errorf("gap: %v", err)
	}
	if _, err := Files(filepath.Join(dir, "none.0.et")); err == nil {
		t.Error("a missing file loads")
	}
	if !IsChakra("a/workload.0.et") || !IsChakra("x.et") || IsChakra("x.ET") || IsChakra("x.et.json") || IsChakra("x.bin") {
		t.Error("IsChakra")
	}
	if _, _, err := Load(filepath.Join(dir, "w.0.et"), Options{ComputeScale: -1}); err == nil {
		t.Error("a negative compute scale is accepted")
	}
}

// TestGzip checks that a gzip-compressed file reads as the plain one, as
// Chakra's reader (src/third_party/utils/protoio.cc) accepts both.
func TestGzip(t *testing.T) {
	plain := enc(etgen.Comp(1, 3), etgen.Coll(2, etpb.CollectiveCommType_BARRIER, 0, "", 1))
	var z strings.Builder
	if err := gzipTo(&z, plain); err != nil {
		t.Fatal(err)
	}
	f, err := Decode("z.0.et", []byte(z.String()))
	if err != nil || len(f.Nodes) != 2 || f.Nodes[1].GetType() != etpb.NodeType_COMM_COLL_NODE {
		t.Errorf("decoded %v, %v", f, err)
	}
	if _, err := Decode("z.0.et", []byte(z.String()[:20])); err == nil || !strings.HasPrefix(err.Error(), "z.0.et: gzip:") {
		t.Errorf("truncated gzip: %v", err)
	}
}
