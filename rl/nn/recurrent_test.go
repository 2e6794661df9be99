package nn

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// filledRecurrent is an LSTM(inputs, hidden) + head network with distinct
// non-zero parameters.
func filledRecurrent(t testing.TB, inputs, hidden int, head []int, extra int, output string) *Recurrent {
	t.Helper()
	enc := filledLSTM(t, inputs, hidden)
	m, err := NewZero(append(append([]int{hidden + extra}, head...), 1))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Params {
		m.Params[i] = 0.3 * math.Cos(float64(i+1))
	}
	m.Output = output
	r, err := NewRecurrent(enc, m, extra)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRecurrentForward: the output is the head at [h_final; extra].
func TestRecurrentForward(t *testing.T) {
	r := filledRecurrent(t, 3, 4, []int{5}, 1, OutputLinear)
	xs := []float64{0.1, 0.2, 0.3, -0.4, 0.5, -0.6}
	work := make([]float64, r.WorkSize(2))
	y := r.Forward(xs, 2, []float64{0.7}, work)
	lw := make([]float64, r.Enc.WorkSize(2))
	in := append(append([]float64(nil), r.Enc.Final(xs, 2, lw)...), 0.7)
	if want := r.Head.Forward(in, make([]float64, r.Head.WorkSize())); y != want {
		t.Fatalf("Forward = %v, want %v", y, want)
	}
	if n := testing.AllocsPerRun(100, func() { r.Forward(xs, 2, []float64{0.7}, work) }); n != 0 {
		t.Fatalf("Forward allocates %v times", n)
	}
}

// TestRecurrentPadding (paper 002, Section 4.3): a history padded to 8
// steps with the number of valid steps passed in gives exactly the output
// of the unpadded sequence, for every valid length.
func TestRecurrentPadding(t *testing.T) {
	r := filledRecurrent(t, 2, 6, []int{4, 4}, 0, "")
	for steps := 1; steps <= 8; steps++ {
		seq := make([]float64, steps*2)
		for i := range seq {
			seq[i] = math.Sin(float64(7*i + steps))
		}
		padded := make([]float64, 8*2)
		copy(padded, seq)
		for i := len(seq); i < len(padded); i++ {
			padded[i] = -5 // any padding value
		}
		a := r.Forward(seq, steps, nil, make([]float64, r.WorkSize(steps)))
		b := r.Forward(padded, steps, nil, make([]float64, r.WorkSize(8)))
		if a != b {
			t.Fatalf("%d steps: unpadded %v, padded %v", steps, a, b)
		}
	}
}

// TestRecurrentParams: ParamsInto and SetParams use the flat layout
// encoder then head.
func TestRecurrentParams(t *testing.T) {
	r := filledRecurrent(t, 2, 3, []int{4}, 1, OutputLinear)
	flat := make([]float64, r.NumParams())
	r.ParamsInto(flat)
	ne := r.Enc.NumParams()
	if flat[0] != r.Enc.Params[0] || flat[ne] != r.Head.Params[0] || flat[len(flat)-1] != r.Head.Params[len(r.Head.Params)-1] {
		t.Fatal("flat layout is not encoder then head")
	}
	for i := range flat {
		flat[i] = float64(i)
	}
	r.SetParams(flat)
	if r.Enc.Params[1] != 1 || r.Head.Params[0] != float64(ne) {
		t.Fatal("SetParams did not follow the flat layout")
	}
}

// TestRecurrentJSON: round trip gives identical bytes, outputs and the
// linear output activation; bad documents are refused.
func TestRecurrentJSON(t *testing.T) {
	r := filledRecurrent(t, 2, 3, []int{4}, 1, OutputLinear)
	b1, back := jsonRoundTrip(t, r)
	if !bytes.HasPrefix(b1, []byte(`{"format":"ccreplay-recurrent-v1","lstm":{`)) || !bytes.Contains(b1, []byte(`"output":"linear"`)) {
		t.Fatalf("unexpected form %s", b1)
	}
	xs := []float64{1, -1, 0.5, 0.25}
	if back.Forward(xs, 2, []float64{0.3}, make([]float64, back.WorkSize(2))) != r.Forward(xs, 2, []float64{0.3}, make([]float64, r.WorkSize(2))) {
		t.Fatal("round trip changed the output")
	}
	lstm := `{"inputs":1,"hidden":1,"gates":"ifgo","w":[[1,1],[1,1],[1,1],[1,1]],"b":[0,0,0,0]}`
	head2 := `{"sizes":[2,1],"hidden":"relu","output":"linear","layers":[{"w":[[1,2]],"b":[0]}]}`
	jsonRejects[Recurrent](t, []badDoc{
		{`{"format":"v0","lstm":` + lstm + `,"head":` + head2 + `,"extra":1}`, "format"},
		{`{"format":"ccreplay-recurrent-v1","lstm":` + lstm + `,"head":` + head2 + `,"extra":0}`, "must start with lstm hidden 1 + extra 0"},
		{`{"format":"ccreplay-recurrent-v1","head":` + head2 + `,"extra":1}`, "needs both"},
		{`{"format":"ccreplay-recurrent-v1","lstm":` + lstm + `,"head":` + head2 + `,"extra":-1}`, "extra"},
		{`{"format":"ccreplay-recurrent-v1","lstm":{"inputs":1},"head":` + head2 + `,"extra":1}`, "gate order"},
	})
	c := r.Clone()
	c.Head.Params[0]++
	c.Enc.Params[0]++
	if c.Head.Params[0] == r.Head.Params[0] || c.Enc.Params[0] == r.Enc.Params[0] || c.Head.Output != OutputLinear {
		t.Fatal("Clone shares parameters or lost the output activation")
	}
}

// TestMLPLinearOutput: a linear output is the pre-activation itself, the
// JSON form says "linear" and reads back; a tanh network still writes
// "tanh" and reads back with Output "" (equal to NewZero's).
func TestMLPLinearOutput(t *testing.T) {
	m := filled(t, []int{3, 4, 1})
	m.Params[len(m.Params)-1] = 3 // output bias: z beyond tanh's reach
	x := []float64{0.5, -0.5, 2}
	w := make([]float64, m.WorkSize())
	tanhY := m.Forward(x, w)
	m.Output = OutputLinear
	linY := m.Forward(x, w)
	if math.Abs(math.Tanh(linY)-tanhY) > 1e-15 || math.Abs(linY) < 1 {
		t.Fatalf("linear %v, tanh %v: want tanh(linear) = tanh and a value tanh cannot reach", linY, tanhY)
	}
	b, err := json.Marshal(m)
	if err != nil || !bytes.Contains(b, []byte(`"output":"linear"`)) {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var back MLP
	if err := json.Unmarshal(b, &back); err != nil || back.Output != OutputLinear || back.Forward(x, w) != linY {
		t.Fatalf("linear round trip: %v output %q", err, back.Output)
	}
	m.Output = ""
	b, _ = json.Marshal(m)
	if !bytes.Contains(b, []byte(`"output":"tanh"`)) {
		t.Fatalf("tanh network writes %s", b)
	}
	if err := json.Unmarshal(b, &back); err != nil || back.Output != "" {
		t.Fatalf("tanh round trip: %v output %q", err, back.Output)
	}
	m.Output = "relu"
	if _, err := json.Marshal(m); err == nil {
		t.Fatal("marshalled an unknown output activation")
	}
}

// BenchmarkRecurrentForward: the FDCC actor's shape, 8 inputs x 8 steps,
// LSTM 64, head 64-64.
func BenchmarkRecurrentForward(b *testing.B) {
	r := filledRecurrent(b, 8, 64, []int{64, 64}, 0, "")
	xs := make([]float64, 8*8)
	for i := range xs {
		xs[i] = math.Sin(float64(i))
	}
	work := make([]float64, r.WorkSize(8))
	b.ReportAllocs()
	for b.Loop() {
		r.Forward(xs, 8, nil, work)
	}
}
