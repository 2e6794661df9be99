package metrics

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// DefaultRelTol is the relative tolerance Diff is used with by `ccreplay
// metrics --verify`. Summaries recomputed from a run's Parquet files are
// in fact bit-identical to the run's own (Compute is deterministic, the
// files hold the exact float64 and int64 values, and encoding/json
// round-trips float64 exactly); the tolerance only leaves room for a
// summary.json written by a build whose floating-point sums ran in another
// order.
const DefaultRelTol = 1e-12

// Diff compares two summaries field by field and returns one line per
// difference, named by JSON field (e.g. "buckets[3].slowdown_p99: 1.5 vs
// 1.25"). Integer fields (counts, ns, bytes) must be equal; float fields
// may differ by relTol relative to the larger magnitude.
func Diff(got, want Summary, relTol float64) []string {
	var out []string
	diffStruct(reflect.ValueOf(got), reflect.ValueOf(want), "", relTol, &out)
	return out
}

func diffStruct(a, b reflect.Value, prefix string, tol float64, out *[]string) {
	t := a.Type()
	for i := range t.NumField() {
		name := prefix + jsonName(t.Field(i))
		fa, fb := a.Field(i), b.Field(i)
		switch fa.Kind() {
		case reflect.Int64:
			if x, y := fa.Int(), fb.Int(); x != y {
				*out = append(*out, fmt.Sprintf("%s: %d vs %d", name, x, y))
			}
		case reflect.Float64:
			if x, y := fa.Float(), fb.Float(); !near(x, y, tol) {
				*out = append(*out, fmt.Sprintf("%s: %v vs %v", name, x, y))
			}
		case reflect.Slice:
			if fa.Len() != fb.Len() {
				*out = append(*out, fmt.Sprintf("%s: %d vs %d entries", name, fa.Len(), fb.Len()))
				continue
			}
			for j := range fa.Len() {
				diffStruct(fa.Index(j), fb.Index(j), fmt.Sprintf("%s[%d].", name, j), tol, out)
			}
		default:
			panic("metrics: Diff: unhandled field kind " + fa.Kind().String()) // a new Summary field type
		}
	}
}

// near reports whether x and y differ by at most tol relative to the
// larger magnitude (equal when tol is 0).
func near(x, y, tol float64) bool {
	if x == y {
		return true
	}
	return math.Abs(x-y) <= tol*math.Max(math.Abs(x), math.Abs(y))
}

// jsonName is a field's JSON name.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// Field is one scalar metric of a Summary: its JSON name and value.
type Field struct {
	Name  string
	Value float64
}

// Fields lists the scalar metrics of s (every int64 and float64 field, in
// declaration order, buckets left out) so that callers can aggregate runs
// without naming each field.
func Fields(s Summary) []Field {
	v := reflect.ValueOf(s)
	t := v.Type()
	var out []Field
	for i := range t.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int64:
			out = append(out, Field{jsonName(t.Field(i)), float64(f.Int())})
		case reflect.Float64:
			out = append(out, Field{jsonName(t.Field(i)), f.Float()})
		}
	}
	return out
}
