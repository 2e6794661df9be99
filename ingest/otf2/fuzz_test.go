package otf2

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/otf2/internal/otf2write"
	"github.com/ccreplay/ccreplay/internal/testfiles"
)

// fuzzFiles is a small archive in memory: 3 ranks, a halo exchange and
// an allreduce, with clock offsets.
func fuzzFiles() map[string][]byte {
	return otf2write.Halo(otf2write.HaloSpec{Ranks: 3, PPN: 2, Iters: 2, HaloBytes: 1000, AllreduceBytes: 8, ComputeNs: 500, Offsets: true}).Files("t")
}

// fuzzTargets are the files of fuzzFiles a fuzz input replaces, by the
// input's selector.
var fuzzTargets = []string{"t.otf2", "t.def", "t/0.def", "t/0.evt", "t/1.evt"}

// FuzzReader replaces one file of a valid archive with the fuzzer's
// bytes and loads the archive in memory: the reader and the conversion
// must return a trace or an error, never panic or hang, whatever the
// bytes. The seeds are the archive's own files and damaged copies.
//
//	go test ./ingest/otf2/ -run '^$' -fuzz FuzzReader -fuzztime 30s
func FuzzReader(f *testing.F) {
	files := fuzzFiles()
	for i, name := range fuzzTargets {
		b := files[name]
		for _, s := range testfiles.Seeds(b) {
			f.Add(uint8(i), s)
		}
		flip := append([]byte(nil), b...)
		for k := 19; k < len(flip); k += 13 {
			flip[k] ^= 0xff
		}
		f.Add(uint8(i), flip)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := fuzzTargets[int(which)%len(fuzzTargets)]
		read := func(p string) ([]byte, error) {
			p = filepath.ToSlash(p)
			if p == name {
				return data, nil
			}
			if b, ok := files[p]; ok {
				return b, nil
			}
			return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
		}
		a, err := openWith("t.otf2", read)
		if err != nil {
			return
		}
		tr, _, err := load(a, Options{PPN: 2, ComputeScale: 1.5})
		if err == nil {
			if err := tr.Validate(); err != nil {
				t.Fatalf("invalid trace: %v", err)
			}
		}
	})
}

func TestFuzzSeedsLoad(t *testing.T) {
	files := fuzzFiles()
	read := func(p string) ([]byte, error) {
		if b, ok := files[filepath.ToSlash(p)]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}
	a, err := openWith("t.otf2", read)
	if err != nil {
		t.Fatal(err)
	}
	tr, rep, err := load(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sends != 12 || len(tr.Messages) == 0 {
		t.Errorf("sends %d", rep.Sends)
	}
}
