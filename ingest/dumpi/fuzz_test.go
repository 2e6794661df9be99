package dumpi

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/internal/shareddata"
)

// FuzzDecode feeds arbitrary bytes to the reader and, when they decode,
// to the trace builder as a one-rank trace: neither may panic, errors are
// one line and decoding errors are *DecodeError.
func FuzzDecode(f *testing.F) {
	for _, p := range ringProgs(2) {
		f.Add(p.fx.bytes())
	}
	rng := []fixRec{
		{fn: fnInit, args: args{"argv": []string{"a"}}},
		{fn: fnTypeContiguous, args: args{"count": 3, "oldtype": dtDouble, "newtype": 40}},
		{fn: fnCommSplit, args: args{"oldcomm": commWorld, "color": 0, "key": 0, "newcomm": 5}},
		{fn: fnAlltoallv, args: args{"commsize": 1, "sendcounts": []int64{2}, "sendtype": 40, "comm": 5}},
		{fn: fnGather, args: args{"commrank": 0, "sendcount": 1, "sendtype": dtInt, "root": 0, "comm": commWorld, "recvcount": 1, "recvtype": dtInt}},
		{fn: fnWaitall, args: args{"count": 1, "requests": []int64{4}, "statuses": []Status{{Bytes: 1}}}},
	}
	f.Add((&fixture{recs: rng}).bytes())
	if data, err := os.ReadFile(shareddata.Path("mpi/dumpi/testtrace-0000.bin")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		oneLine := func(err error) {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		}
		file, err := NewFile(bytes.NewReader(data), int64(len(data)), "fuzz.bin")
		if err != nil {
			oneLine(err)
			return
		}
		log, err := extract(file, 0)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			oneLine(err)
			return
		}
		tr, _, err := build([]*rankLog{log}, Options{})
		if err != nil {
			oneLine(err)
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("built trace does not validate: %v", err)
		}
	})
}
