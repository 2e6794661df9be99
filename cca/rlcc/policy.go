package rlcc

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/rl/nn"
)

// Policy file identification (see File).
const (
	FileFormat  = "ccreplay.rlcc-policy"
	FileVersion = 1
)

// Policy kinds.
const (
	KindMLP   = "mlp"
	KindTrees = "trees"
)

// File is the JSON layout of a policy file:
//
//	{"format": "ccreplay.rlcc-policy", "version": 1, "kind": "mlp" | "trees",
//	 "features": [FeatureNames...], "action_min": 0.5, "action_max": 1.5,
//	 "produced_by": "<command line and seed>",
//	 "input_transform": "rlcc-v1", "mlp": {nn.MLP JSON}     (kind mlp)
//	 "trees": {gbt JSON}                                    (kind trees)}
//
// An MLP's tanh output y in (-1, 1) maps linearly onto the action range:
// a = (action_min + action_max)/2 + y (action_max - action_min)/2. A tree
// ensemble predicts the action a itself, clamped to the range.
type File struct {
	Format         string        `json:"format"`
	Version        int           `json:"version"`
	Kind           string        `json:"kind"`
	Features       []string      `json:"features"`
	ActionMin      float64       `json:"action_min"`
	ActionMax      float64       `json:"action_max"`
	ProducedBy     string        `json:"produced_by"`
	InputTransform string        `json:"input_transform,omitempty"`
	MLP            *nn.MLP       `json:"mlp,omitempty"`
	Trees          *gbt.Ensemble `json:"trees,omitempty"`
}

// Policy maps an observation (FeatureNames order) to an action. It is
// immutable once built and shared by every flow of a run; per-flow scratch
// memory is the work buffer each agent owns.
type Policy struct {
	// Kind is KindMLP or KindTrees.
	Kind string
	// AMin and AMax bound the action (rate multipliers).
	AMin, AMax float64
	// ProducedBy records how the policy was made (command line, seed).
	ProducedBy string
	// Source says where it was loaded from: "embedded default" or a path.
	Source string
	// MLP is set for KindMLP, Trees for KindTrees.
	MLP   *nn.MLP
	Trees *gbt.Ensemble
}

// NewMLPPolicy wraps a network of input width NumFeatures (after
// Transform) as a policy with action range [amin, amax].
func NewMLPPolicy(m *nn.MLP, amin, amax float64, producedBy string) (*Policy, error) {
	p := &Policy{Kind: KindMLP, AMin: amin, AMax: amax, ProducedBy: producedBy, MLP: m}
	return p, p.check()
}

// NewTreePolicy wraps an ensemble that predicts the action from the raw
// features as a policy with action range [amin, amax].
func NewTreePolicy(e *gbt.Ensemble, amin, amax float64, producedBy string) (*Policy, error) {
	p := &Policy{Kind: KindTrees, AMin: amin, AMax: amax, ProducedBy: producedBy, Trees: e}
	return p, p.check()
}

func (p *Policy) check() error {
	if !(p.AMin > 0 && p.AMin < p.AMax) || math.IsInf(p.AMax, 0) {
		return fmt.Errorf("action range must satisfy 0 < action_min < action_max < inf, got [%v, %v]", p.AMin, p.AMax)
	}
	switch p.Kind {
	case KindMLP:
		if p.MLP == nil {
			return fmt.Errorf("mlp policy without a network")
		}
		if p.MLP.Inputs() != NumFeatures {
			return fmt.Errorf("mlp policy has %d inputs, want %d (%s)", p.MLP.Inputs(), NumFeatures, strings.Join(FeatureNames, ", "))
		}
	case KindTrees:
		if p.Trees == nil {
			return fmt.Errorf("trees policy without an ensemble")
		}
		if n := p.Trees.NumFeatures(); n > NumFeatures {
			return fmt.Errorf("tree ensemble uses %d features, the RL-CC observation has %d (%s)", n, NumFeatures, strings.Join(FeatureNames, ", "))
		}
		if names := p.Trees.FeatureNames(); names != nil && ownNames(names) && !slices.Equal(names, FeatureNames[:len(names)]) {
			return fmt.Errorf("tree ensemble features %v are not in the RL-CC order %v", names, FeatureNames)
		}
	default:
		return fmt.Errorf("unknown policy kind %q (want %s or %s)", p.Kind, KindMLP, KindTrees)
	}
	return nil
}

// ownNames reports whether names uses any RL-CC feature name (rather than
// a library's positional default such as "f0" or "Column_0").
func ownNames(names []string) bool {
	for _, n := range names {
		if slices.Contains(FeatureNames, n) {
			return true
		}
	}
	return false
}

// WorkSize is the scratch length Action needs.
func (p *Policy) WorkSize() int {
	if p.MLP != nil {
		return NumFeatures + p.MLP.WorkSize()
	}
	return 0
}

// Action is the policy's action for observation x (NumFeatures values),
// clamped to [AMin, AMax]; a NaN output gives 1 (keep the rate). work
// must hold WorkSize floats. It does not allocate.
func (p *Policy) Action(x, work []float64) float64 {
	var a float64
	if p.Kind == KindMLP {
		z := work[:NumFeatures]
		Transform(x, z)
		a = p.FromTanh(p.MLP.Forward(z, work[NumFeatures:]))
	} else {
		a = p.Trees.Predict(x)
	}
	return p.clamp(a)
}

// FromTanh maps an MLP's output y in (-1, 1) onto the action range:
// (AMin + AMax)/2 + y (AMax - AMin)/2 (see File).
func (p *Policy) FromTanh(y float64) float64 {
	return (p.AMin+p.AMax)/2 + y*(p.AMax-p.AMin)/2
}

func (p *Policy) clamp(a float64) float64 {
	if math.IsNaN(a) {
		return 1
	}
	return min(max(a, p.AMin), p.AMax)
}

// Describe is a one-line summary: kind, shape and range.
func (p *Policy) Describe() string {
	switch p.Kind {
	case KindMLP:
		s := make([]string, len(p.MLP.Sizes))
		for i, v := range p.MLP.Sizes {
			s[i] = fmt.Sprint(v)
		}
		return fmt.Sprintf("mlp %s (%d parameters), actions [%v, %v]", strings.Join(s, "-"), p.MLP.NumParams(), p.AMin, p.AMax)
	default:
		return fmt.Sprintf("trees: %d trees of depth <= %d, actions [%v, %v]", p.Trees.NumTrees(), p.Trees.MaxDepth(), p.AMin, p.AMax)
	}
}

// File returns the policy's file form.
func (p *Policy) File() File {
	f := File{Format: FileFormat, Version: FileVersion, Kind: p.Kind, Features: FeatureNames,
		ActionMin: p.AMin, ActionMax: p.AMax, ProducedBy: p.ProducedBy}
	if p.Kind == KindMLP {
		f.InputTransform, f.MLP = InputTransform, p.MLP
	} else {
		f.Trees = p.Trees
	}
	return f
}

// Marshal is the policy file's bytes: indented JSON with a trailing
// newline, the same bytes for the same policy.
func (p *Policy) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(p.File(), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

//go:embed policy/default.json
var defaultPolicy []byte

// DefaultSource is the Source of the embedded default policy.
const DefaultSource = "embedded default"

// Default returns the policy embedded from policy/default.json.
func Default() (*Policy, error) { return Parse(defaultPolicy, DefaultSource) }

//go:embed policy/teacher.json
var teacherPolicy []byte

// TeacherSource is the Source of the embedded teacher policy.
const TeacherSource = "embedded teacher"

// Teacher returns the MLP policy embedded from policy/teacher.json, the
// trained network RL-CC (Tessler 2022) runs (`--cca-param policy=teacher`).
// Since issue 35 it is not the network the default trees were distilled
// from (policy/EVALUATION.md).
func Teacher() (*Policy, error) { return Parse(teacherPolicy, TeacherSource) }

// Named returns the embedded policy called name ("default" or "teacher"),
// or loads the file at path name.
func Named(name string) (*Policy, error) {
	switch name {
	case "", "default":
		return Default()
	case "teacher":
		return Teacher()
	}
	return LoadFile(name)
}

// LoadFile reads a policy from a file (see Parse for the formats).
func LoadFile(path string) (*Policy, error) {
	b, err := limits.ReadFile(path, "a policy file", limits.MaxPolicyBytes, true)
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	return Parse(b, path)
}

// Parse reads a policy, recognising the format by content:
//
//   - a ccreplay.rlcc-policy JSON file (File);
//   - a bare ensemble in ccreplay's gbt JSON ("format": "ccreplay.gbt");
//   - an XGBoost JSON model (Booster.save_model("x.json"), an object with
//     "learner"), gbtree with reg:squarederror;
//   - a LightGBM text model (Booster.save_model, starts with "tree").
//
// A bare ensemble must predict the action a from the features in
// FeatureNames order (the columns of decisions.parquet); its action range
// is [AMin, AMax]. source names the input in errors and in Policy.Source.
func Parse(b []byte, source string) (*Policy, error) {
	p, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %v", source, oneLine(err))
	}
	p.Source = source
	return p, nil
}

func parse(b []byte) (*Policy, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return nil, fmt.Errorf("empty file")
	}
	if t[0] != '{' {
		if bytes.HasPrefix(t, []byte("tree")) {
			e, err := gbt.ReadLightGBM(bytes.NewReader(t))
			if err != nil {
				return nil, err
			}
			return NewTreePolicy(e, AMin, AMax, "LightGBM model")
		}
		return nil, fmt.Errorf("not a policy file, XGBoost JSON or LightGBM text model")
	}
	var probe struct {
		Format  string          `json:"format"`
		Learner json.RawMessage `json:"learner"`
	}
	if err := json.Unmarshal(t, &probe); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	switch {
	case probe.Format == FileFormat:
		return parseFile(t)
	case probe.Format == gbt.FormatName:
		e, err := gbt.ReadJSON(bytes.NewReader(t))
		if err != nil {
			return nil, err
		}
		return NewTreePolicy(e, AMin, AMax, "gbt model")
	case probe.Learner != nil:
		e, err := gbt.ReadXGBoostJSON(bytes.NewReader(t))
		if err != nil {
			return nil, err
		}
		return NewTreePolicy(e, AMin, AMax, "XGBoost model")
	case probe.Format != "":
		return nil, fmt.Errorf("unknown format %q (want %s, %s, an XGBoost JSON or a LightGBM text model)", probe.Format, FileFormat, gbt.FormatName)
	}
	return nil, fmt.Errorf("JSON without \"format\" or XGBoost \"learner\": not a policy")
}

func parseFile(b []byte) (*Policy, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if f.Version != FileVersion {
		return nil, fmt.Errorf("version %d, this build reads version %d", f.Version, FileVersion)
	}
	if !slices.Equal(f.Features, FeatureNames) {
		return nil, fmt.Errorf("features %v, want %v", f.Features, FeatureNames)
	}
	p := &Policy{Kind: f.Kind, AMin: f.ActionMin, AMax: f.ActionMax, ProducedBy: f.ProducedBy, MLP: f.MLP, Trees: f.Trees}
	switch {
	case f.Kind == KindMLP && f.InputTransform != InputTransform:
		return nil, fmt.Errorf("input_transform %q, want %q", f.InputTransform, InputTransform)
	case f.Kind == KindMLP && f.Trees != nil, f.Kind == KindTrees && (f.MLP != nil || f.InputTransform != ""):
		return nil, fmt.Errorf("a %s policy must not carry another kind's payload", f.Kind)
	}
	return p, p.check()
}

// oneLine flattens an error message onto one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
