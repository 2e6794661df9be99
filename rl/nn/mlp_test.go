package nn

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// filled is a network of the given sizes whose parameters are distinct
// non-zero values, sin(i+1) for parameter i.
func filled(t *testing.T, sizes []int) *MLP {
	t.Helper()
	m, err := NewZero(sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Params {
		m.Params[i] = math.Sin(float64(i + 1))
	}
	return m
}

// TestNewZeroLayout: every parameter starts at 0, Split finds each layer
// where Params says (weights out x in, then biases, layer after layer), and
// bad sizes are refused.
func TestNewZeroLayout(t *testing.T) {
	m, err := NewZero([]int{3, 4, 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.NumParams() != 3*4+4+4+1 || m.Inputs() != 3 {
		t.Fatalf("NumParams %d Inputs %d", m.NumParams(), m.Inputs())
	}
	for i, p := range m.Params {
		if p != 0 {
			t.Fatalf("param %d = %v", i, p)
		}
		m.Params[i] = float64(i)
	}
	w1, b1 := m.Split(m.Params, 1)
	w2, b2 := m.Split(m.Params, 2)
	if len(w1) != 12 || w1[0] != 0 || len(b1) != 4 || b1[0] != 12 || len(w2) != 4 || w2[0] != 16 || len(b2) != 1 || b2[0] != 20 {
		t.Fatalf("layout: w1 %v b1 %v w2 %v b2 %v", w1, b1, w2, b2)
	}
	for _, bad := range [][]int{{3}, {3, 2}, {0, 1}} {
		if _, err := NewZero(bad); err == nil {
			t.Errorf("NewZero(%v) accepted", bad)
		}
	}
}

// TestJSONRoundTrip: marshal, unmarshal, marshal gives identical bytes and
// identical outputs; malformed documents give one-line errors.
func TestJSONRoundTrip(t *testing.T) {
	m := filled(t, []int{3, 4, 1})
	_, back := jsonRoundTrip(t, m)
	x := []float64{0.1, -0.2, 0.3}
	w := make([]float64, m.WorkSize())
	if m.Forward(x, w) != back.Forward(x, w) {
		t.Fatal("round trip changed the output")
	}
	jsonRejects[MLP](t, []badDoc{
		{`{"sizes":[2,1],"hidden":"relu","output":"sigmoid","layers":[{"w":[[1,2]],"b":[0]}]}`, "activations"},
		{`{"sizes":[2,3],"hidden":"relu","output":"tanh","layers":[]}`, "width 1"},
		{`{"sizes":[2,1],"hidden":"relu","output":"tanh","layers":[]}`, "need 1 layers"},
		{`{"sizes":[2,1],"hidden":"relu","output":"tanh","layers":[{"w":[[1]],"b":[0]}]}`, "row 0: want 2 weights"},
		{`{"sizes":[2,1],"hidden":"relu","output":"tanh","layers":[{"w":[[1,2]],"b":[]}]}`, "want 1 weight rows and 1 biases"},
		{`{"sizes":[0,1],"hidden":"relu","output":"tanh","layers":[{"w":[],"b":[0]}]}`, "layer widths"},
		{`[1,2]`, "nn:"},
	})
}

// TestForwardAllocFree: agents call Forward once per RTT, so it must not
// allocate.
func TestForwardAllocFree(t *testing.T) {
	m := filled(t, []int{7, 12, 12, 1})
	x := make([]float64, 7)
	w := make([]float64, m.WorkSize())
	if n := testing.AllocsPerRun(100, func() { m.Forward(x, w) }); n != 0 {
		t.Fatalf("Forward allocates %v times", n)
	}
}

// jsonRoundTrip encodes v, decodes the document into a new T and encodes
// that again: the two documents must be the same bytes. It returns the
// document and the decoded copy.
func jsonRoundTrip[T any](t *testing.T, v *T) ([]byte, *T) {
	t.Helper()
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	back := new(T)
	if err := json.Unmarshal(b1, back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if !bytes.Equal(b1, b2) {
		t.Fatalf("round trip changed the JSON:\n%s\n%s", b1, b2)
	}
	return b1, back
}

// badDoc is a malformed document and a phrase its error must contain.
type badDoc struct{ doc, want string }

// jsonRejects decodes each document into a T: each must fail with a
// one-line error containing its phrase.
func jsonRejects[T any](t *testing.T, docs []badDoc) {
	t.Helper()
	for _, bad := range docs {
		err := json.Unmarshal([]byte(bad.doc), new(T))
		if err == nil || !strings.Contains(err.Error(), bad.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", bad.doc, err, bad.want)
		}
	}
}
