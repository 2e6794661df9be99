package chakra

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
)

// FuzzDecode feeds arbitrary bytes to the decoder and, when they decode,
// to the converter as a trace of one rank and of two ranks with the same
// graph: either a one-line error naming the file, or a valid trace;
// never a panic. Run: go test -fuzz FuzzDecode ./ingest/chakra/
func FuzzDecode(f *testing.F) {
	for _, ranks := range [][][]*etpb.Node{
		pingPong(),
		oneCollective(2, etpb.CollectiveCommType_ALL_REDUCE, 1000),
		oneCollective(2, etpb.CollectiveCommType_BARRIER, 0),
		etgen.TrainingStep(2, 4096),
	} {
		for _, nodes := range ranks {
			f.Add(etgen.Encode(nodes))
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0x80})
	f.Add(cat(metaOnly, []byte{0x10, 0x08}))
	f.Add(enc(etgen.Comp(1, 1, 3), etgen.Comp(2, 1, 1), etgen.Comp(3, 1, 2)))
	f.Add(enc(&etpb.Node{Id: 1, Type: 42}))
	a, b := etgen.Comp(1, 5), etgen.Comp(2, 2, 1)
	a.CtrlDeps, b.CtrlDeps = []uint64{2, 9}, []uint64{2}
	f.Add(enc(a, b, etgen.Send(3, 0, 8, 0, 2), etgen.Recv(4, 0, 8, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode("fuzz.0.et", data)
		if err != nil {
			checkErr(t, err)
			return
		}
		for _, files := range [][]*File{{file}, {file, file}} {
			tr, rep, err := Convert(files, Options{})
			if err != nil {
				checkErr(t, err)
				continue
			}
			if err := tr.Validate(); err != nil {
				t.Fatalf("invalid trace: %v", err)
			}
			if err := rep.WriteText(&strings.Builder{}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// checkErr checks that err is one line naming the file or the package.
func checkErr(t *testing.T, err error) {
	t.Helper()
	s := err.Error()
	if strings.Contains(s, "\n") || !(strings.HasPrefix(s, "fuzz.0.et: ") || strings.HasPrefix(s, "chakra: ")) {
		t.Fatalf("error %q", s)
	}
}
