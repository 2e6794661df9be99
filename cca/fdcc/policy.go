package fdcc

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/rl/nn"
)

// Policy file identification (see File).
const (
	FileFormat  = "ccreplay.fdcc-policy"
	FileVersion = 1
)

// File is the JSON layout of a policy file:
//
//	{"format": "ccreplay.fdcc-policy", "version": 1,
//	 "features": [FeatureNames...], "input_transform": "symlog",
//	 "history": 8, "rescale": "compound" | "direct",
//	 "produced_by": "<command line and seed>",
//	 "network": {nn.Recurrent JSON: LSTM encoder, tanh MLP head}}
//
// The network reads up to History transformed observations, oldest first,
// and its tanh output is the action o of FDCC (Zhang 2023), Section 4.2.
type File struct {
	Format         string        `json:"format"`
	Version        int           `json:"version"`
	Features       []string      `json:"features"`
	InputTransform string        `json:"input_transform"`
	History        int           `json:"history"`
	Rescale        Rescale       `json:"rescale"`
	ProducedBy     string        `json:"produced_by"`
	Network        *nn.Recurrent `json:"network"`
}

// Policy maps a history of observations to the action o in (-1, 1). It is
// immutable once built and shared by every flow of a run (FDCC, Zhang 2023,
// Section 5.1: "all these agents share a common parameterized policy
// network"); each agent owns its work buffer.
type Policy struct {
	// Net is the actor: an LSTM over the transformed observations and an
	// MLP head with a tanh output.
	Net *nn.Recurrent
	// Rescale is the rescaling the policy was trained with, what agents
	// use unless the rescale parameter overrides it.
	Rescale Rescale
	// ProducedBy records how the policy was made (command line, seed).
	ProducedBy string
	// Source says where it was loaded from: "embedded default" or a path.
	Source string
}

// NewPolicy wraps an actor network as a policy after checking its shape.
func NewPolicy(net *nn.Recurrent, rescale Rescale, producedBy string) (*Policy, error) {
	p := &Policy{Net: net, Rescale: rescale, ProducedBy: producedBy}
	return p, p.check()
}

func (p *Policy) check() error {
	switch {
	case p.Rescale != RescaleCompound && p.Rescale != RescaleDirect:
		return fmt.Errorf("fdcc policy: rescale must be %q or %q, got %q", RescaleCompound, RescaleDirect, p.Rescale)
	case p.Net == nil || p.Net.Enc == nil || p.Net.Head == nil:
		return fmt.Errorf("fdcc policy: no network")
	case p.Net.Enc.Inputs != NumFeatures:
		return fmt.Errorf("fdcc policy: the network reads %d features, FDCC observes %d", p.Net.Enc.Inputs, NumFeatures)
	case p.Net.Validate() != nil:
		return fmt.Errorf("fdcc policy: %v", p.Net.Validate())
	case p.Net.Extra != 0:
		return fmt.Errorf("fdcc policy: an actor takes no extra inputs, the network has %d (a critic?)", p.Net.Extra)
	case p.Net.Head.Output != "" && p.Net.Head.Output != "tanh":
		return fmt.Errorf("fdcc policy: the network's output must be tanh, got %q", p.Net.Head.Output)
	}
	return nil
}

// WorkSize is the length of the work buffer Output needs.
func (p *Policy) WorkSize() int { return p.Net.WorkSize(History) }

// Output is the action o for the transformed history xs (steps rows of
// NumFeatures, oldest first, 1 <= steps <= History).
func (p *Policy) Output(xs []float64, steps int, work []float64) float64 {
	return p.Net.Forward(xs, steps, nil, work)
}

// Marshal writes the policy file.
func (p *Policy) Marshal() ([]byte, error) {
	f := File{Format: FileFormat, Version: FileVersion, Features: FeatureNames[:], InputTransform: InputTransform,
		History: History, Rescale: p.Rescale, ProducedBy: p.ProducedBy, Network: p.Net}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Parse reads a policy file; source names it in errors and Policy.Source.
// Unknown fields, another format or version, other features or transform,
// and a malformed network are errors.
func Parse(b []byte, source string) (*Policy, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not an FDCC policy file: %v", source, err)
	}
	switch {
	case f.Format != FileFormat:
		return nil, fmt.Errorf("%s: format %q, want %q", source, f.Format, FileFormat)
	case f.Version != FileVersion:
		return nil, fmt.Errorf("%s: version %d, this ccreplay reads %d", source, f.Version, FileVersion)
	case f.InputTransform != InputTransform:
		return nil, fmt.Errorf("%s: input transform %q, want %q", source, f.InputTransform, InputTransform)
	case f.History != History:
		return nil, fmt.Errorf("%s: history %d, want %d", source, f.History, History)
	case len(f.Features) != NumFeatures:
		return nil, fmt.Errorf("%s: %d features, want %d (%v)", source, len(f.Features), NumFeatures, FeatureNames)
	}
	for i, n := range f.Features {
		if n != FeatureNames[i] {
			return nil, fmt.Errorf("%s: feature %d is %q, want %q", source, i, n, FeatureNames[i])
		}
	}
	p := &Policy{Net: f.Network, Rescale: f.Rescale, ProducedBy: f.ProducedBy, Source: source}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	return p, nil
}

// Load reads a policy file from path.
func Load(path string) (*Policy, error) {
	b, err := limits.ReadFile(path, "a policy file", limits.MaxPolicyBytes, true)
	if err != nil {
		return nil, fmt.Errorf("fdcc policy: %v", err)
	}
	return Parse(b, path)
}

//go:embed policy/default.json
var defaultJSON []byte

var (
	defaultOnce sync.Once
	defaultPol  *Policy
	defaultErr  error
)

// Default is the embedded policy, trained by `ccreplay train fdcc` (the
// command line is in its produced_by; docs/FDCC.md has the training run).
func Default() (*Policy, error) {
	defaultOnce.Do(func() { defaultPol, defaultErr = Parse(defaultJSON, "embedded default") })
	return defaultPol, defaultErr
}

// DefaultJSON is the embedded policy file's bytes.
func DefaultJSON() []byte { return bytes.Clone(defaultJSON) }
