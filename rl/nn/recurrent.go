package nn

import (
	"encoding/json"
	"fmt"
)

// RecurrentFormat tags the JSON form of a Recurrent.
const RecurrentFormat = "ccreplay-recurrent-v1"

// Recurrent is an LSTM encoder followed by an MLP head, the actor and
// critic networks of FDCC's memory-based TD3 (paper 002, Section 4.3 and
// Fig. 4.2): the LSTM reads the last k <= 8 observations, its hidden state
// after the last valid step represents the history, and the head maps
// that state (for a critic, followed by the action) to one output.
//
// Padding (Section 4.3): the paper pads histories to 8 steps and gathers
// the LSTM output at each sequence's last valid step. Here the caller
// passes the number of valid steps, the cell runs over exactly those, and
// padding after them is never read, so a padded buffer and the unpadded
// sequence give identical outputs.
type Recurrent struct {
	// Enc is the encoder.
	Enc *LSTM
	// Head maps [h; extra] to the output: Head.Sizes[0] == Enc.Hidden +
	// Extra.
	Head *MLP
	// Extra is the number of inputs appended after the hidden state: 0
	// for an actor, 1 for a critic whose action is appended.
	Extra int
}

// NewRecurrent joins an encoder and a head after checking their widths
// agree; the networks are used as they are, not copied.
func NewRecurrent(enc *LSTM, head *MLP, extra int) (*Recurrent, error) {
	r := &Recurrent{Enc: enc, Head: head, Extra: extra}
	return r, r.Validate()
}

// Validate checks that both parts exist and their widths agree.
func (r *Recurrent) Validate() error {
	if r.Enc == nil || r.Head == nil {
		return fmt.Errorf("nn: recurrent network needs both an lstm and a head")
	}
	if err := r.Enc.checkShape(); err != nil {
		return err
	}
	if len(r.Enc.Params) != r.Enc.wantParams() {
		return fmt.Errorf("nn: lstm has %d parameters, want %d", len(r.Enc.Params), r.Enc.wantParams())
	}
	if r.Extra < 0 {
		return fmt.Errorf("nn: recurrent extra inputs must be >= 0, got %d", r.Extra)
	}
	if len(r.Head.Sizes) < 2 || r.Head.Sizes[0] != r.Enc.Hidden+r.Extra {
		return fmt.Errorf("nn: recurrent head sizes %v must start with lstm hidden %d + extra %d", r.Head.Sizes, r.Enc.Hidden, r.Extra)
	}
	if len(r.Head.offs) != len(r.Head.Sizes) {
		if err := r.Head.layout(); err != nil {
			return err
		}
	}
	if len(r.Head.Params) != r.Head.offs[len(r.Head.offs)-1] {
		return fmt.Errorf("nn: head has %d parameters, want %d", len(r.Head.Params), r.Head.offs[len(r.Head.offs)-1])
	}
	if !validOutput(r.Head.Output) {
		return fmt.Errorf("nn: unknown output activation %q (want %q or %q)", r.Head.Output, OutputTanh, OutputLinear)
	}
	return nil
}

// Inputs is the width of one observation (one step).
func (r *Recurrent) Inputs() int { return r.Enc.Inputs }

// NumParams is the number of parameters: the encoder's, then the head's.
func (r *Recurrent) NumParams() int { return r.Enc.NumParams() + r.Head.NumParams() }

// ParamsInto copies every parameter into dst (len NumParams): Enc.Params
// first, then Head.Params. This flat layout is the one of the gradients
// learn.BackwardRecurrent accumulates, so learn.Adam can update it.
func (r *Recurrent) ParamsInto(dst []float64) {
	r.checkFlat(dst)
	n := copy(dst, r.Enc.Params)
	copy(dst[n:], r.Head.Params)
}

// SetParams copies src (len NumParams, in the layout of ParamsInto) into
// the networks' parameters.
func (r *Recurrent) SetParams(src []float64) {
	r.checkFlat(src)
	n := copy(r.Enc.Params, src)
	copy(r.Head.Params, src[n:])
}

func (r *Recurrent) checkFlat(v []float64) {
	if len(v) != r.NumParams() {
		panic(fmt.Sprintf("nn.Recurrent: flat parameter vector has %d values, want %d", len(v), r.NumParams()))
	}
}

// WorkSize is the length of the work buffer Forward and
// learn.BackwardRecurrent need for sequences of up to maxSteps steps.
func (r *Recurrent) WorkSize(maxSteps int) int {
	in := r.Head.Sizes[0]
	return 2*in + r.Head.WorkSize() + r.Enc.WorkSize(maxSteps)
}

// Parts splits work into the regions Forward uses, for learn: the head's
// input [h; extra], a buffer of the same length for its gradient (Forward
// leaves it alone), the head's work buffer and the encoder's.
func (r *Recurrent) Parts(work []float64) (headIn, dHeadIn, headWork, encWork []float64) {
	in := r.Head.Sizes[0]
	hw := r.Head.WorkSize()
	return work[:in], work[in : 2*in], work[2*in : 2*in+hw], work[2*in+hw:]
}

// Forward is the output for the sequence of steps observations in xs
// (row-major, oldest first, len >= steps*Inputs; anything after them is
// padding and is ignored) followed by extra (len Extra: nil for an actor,
// the action for a critic). work must hold WorkSize(steps) floats; it is
// overwritten (see Parts: the head's input and activations, and the
// encoder's records). Forward does not allocate.
func (r *Recurrent) Forward(xs []float64, steps int, extra []float64, work []float64) float64 {
	if len(extra) != r.Extra || len(work) < r.WorkSize(steps) {
		panic(fmt.Sprintf("nn.Recurrent: extra has %d values (want %d), work %d (want %d)", len(extra), r.Extra, len(work), r.WorkSize(steps)))
	}
	in, _, hw, ew := r.Parts(work)
	h := r.Enc.Final(xs, steps, ew)
	copy(in, h)
	copy(in[len(h):], extra)
	return r.Head.Forward(in, hw)
}

// Clone returns an independent copy.
func (r *Recurrent) Clone() *Recurrent {
	return &Recurrent{Enc: r.Enc.Clone(), Head: r.Head.Clone(), Extra: r.Extra}
}

// recurrentJSON is the JSON form of a Recurrent.
type recurrentJSON struct {
	Format string `json:"format"`
	LSTM   *LSTM  `json:"lstm"`
	Head   *MLP   `json:"head"`
	Extra  int    `json:"extra"`
}

// MarshalJSON writes {"format": "ccreplay-recurrent-v1", "lstm": {LSTM
// JSON}, "head": {MLP JSON}, "extra": n}.
func (r *Recurrent) MarshalJSON() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return json.Marshal(recurrentJSON{Format: RecurrentFormat, LSTM: r.Enc, Head: r.Head, Extra: r.Extra})
}

// UnmarshalJSON reads the form MarshalJSON writes and validates it.
func (r *Recurrent) UnmarshalJSON(data []byte) error {
	var in recurrentJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("nn: recurrent: %w", err)
	}
	if in.Format != RecurrentFormat {
		return fmt.Errorf("nn: recurrent format must be %q, got %q", RecurrentFormat, in.Format)
	}
	n := Recurrent{Enc: in.LSTM, Head: in.Head, Extra: in.Extra}
	if err := n.Validate(); err != nil {
		return err
	}
	*r = n
	return nil
}
