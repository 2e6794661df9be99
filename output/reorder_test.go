package output

import (
	"cmp"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Rows put in any order come out in index order, each once, with every
// field as put (the far ones through the spill file, which is removed at
// the end); rows put in order, or nearly, never make a spill file.
func TestReorderHandsOnInIndexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	row := func(i int) v2.FlowRow {
		return v2.FlowRow{FlowID: int64(i), Src: int32(i % 7), Dst: -3, SizeBytes: int64(i) * 1000, Slowdown: float64(i) / 3,
			Hops: 5, PFCPausedNs: 9, ConcurrentBytes: -1, SenderSlowdown: 1.5, GoodputBps: 2e9}
	}
	for _, tc := range []struct {
		name  string
		order []int
		spill bool
	}{
		{"shuffled", rng.Perm(3 * ReorderWindow), true},
		{"reversed", reversed(2*ReorderWindow + 5), true},
		{"in order", reversed(0), false},
		{"near", nearOrder(rng, 5*ReorderWindow), false},
		{"one", []int{0}, false},
	} {
		dir := t.TempDir()
		var got []v2.FlowRow
		o := NewReorder(dir, FlowRowCodec, func(r *v2.FlowRow) { got = append(got, *r) })
		order := tc.order
		if tc.name == "in order" {
			order = nil
			for i := range 4 * ReorderWindow {
				order = append(order, i)
			}
		}
		spilled := false
		for _, i := range order {
			r := row(i)
			o.Put(i, &r)
			spilled = spilled || o.spill != nil
		}
		if err := o.Close(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if spilled != tc.spill {
			t.Errorf("%s: spill file made %v, want %v", tc.name, spilled, tc.spill)
		}
		if len(got) != len(order) || o.Next() != len(order) {
			t.Fatalf("%s: %d rows handed on, want %d", tc.name, len(got), len(order))
		}
		for i := range got {
			if want := row(i); !reflect.DeepEqual(got[i], want) {
				t.Fatalf("%s: row %d is %+v, want %+v", tc.name, i, got[i], want)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: %s left in the folder", tc.name, ents[0].Name())
		}
	}
}

// A row missing or put twice is an error of Close.
func TestReorderMissingRow(t *testing.T) {
	o := NewReorder(t.TempDir(), MessageRowCodec, func(*v2.MessageRow) {})
	for _, i := range []int{0, 2, 3} {
		o.Put(i, &v2.MessageRow{})
	}
	if err := o.Close(); err == nil {
		t.Error("row 1 missing: no error")
	}
	o = NewReorder(t.TempDir(), MessageRowCodec, func(*v2.MessageRow) {})
	o.Put(0, &v2.MessageRow{})
	o.Put(0, &v2.MessageRow{})
	if err := o.Close(); err == nil {
		t.Error("row 0 put twice: no error")
	}
}

func reversed(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = n - 1 - i
	}
	return out
}

// nearOrder is 0..n-1 sorted by i plus a random shift below half the
// window: no index comes a window or more ahead of one not yet put.
func nearOrder(rng *rand.Rand, n int) []int {
	out, key := make([]int, n), make([]int, n)
	for i := range out {
		out[i], key[i] = i, i+rng.IntN(ReorderWindow/2)
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	return out
}

// The codecs carry every field of their row: each field set to a value of
// its own comes back, and a record has a word per field.
func TestRowCodecsEveryField(t *testing.T) {
	checkCodec(t, FlowRowCodec)
	checkCodec(t, MessageRowCodec)
}

func checkCodec[T any](t *testing.T, c RowCodec[T]) {
	var row T
	v := reflect.ValueOf(&row).Elem()
	if c.Size != 8*v.NumField() {
		t.Errorf("%T: record of %d bytes for %d fields", row, c.Size, v.NumField())
	}
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int64, reflect.Int32:
			f.SetInt(-int64(i) - 1000)
		case reflect.Float64:
			f.SetFloat(float64(i) + 0.25)
		default:
			t.Fatalf("%T.%s: kind %v has no codec", row, v.Type().Field(i).Name, f.Kind())
		}
	}
	b := make([]byte, c.Size)
	c.Encode(b, &row)
	var back T
	c.Decode(b, &back)
	if !reflect.DeepEqual(back, row) {
		t.Errorf("%T: %+v came back as %+v", row, row, back)
	}
}
