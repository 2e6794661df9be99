package gbt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadXGBoostJSON reads a model saved by XGBoost's Booster.save_model("x.json")
// (the JSON model format of XGBoost 1.0 to 3.x, doc/model.schema in the
// XGBoost repository) with the gbtree booster and an identity-link
// regression objective (reg:squarederror, its old name reg:linear,
// reg:pseudohubererror, reg:absoluteerror). Its prediction equals XGBoost's
// predict(..., output_margin=False) for those objectives:
// base_score + the sum of the leaf values.
//
// What is read: learner.learner_model_param.{base_score, num_feature,
// num_target}, learner.objective.name, learner.feature_names,
// learner.gradient_booster.{name, model.trees}; per tree left_children,
// right_children (-1 marks a leaf), split_indices, split_conditions (the
// threshold of an internal node, the value of a leaf), default_left (0/1
// integers since 2.0, booleans before) and split_type (only numerical splits,
// 0, are supported). base_score may be written "5E-1" or, as XGBoost 3.1
// writes it, "[5E-1]".
//
// XGBoost compares float32(x) < threshold; the loader turns each threshold
// into the float64 boundary that gives the same decision for every float64
// x. XGBoost sums leaf values in float32 and this package in float64, so
// predictions agree to float32 precision (about 1e-7 relative).
//
// Rejected with an error: DART and linear boosters, categorical splits,
// multi-target or multi-class models, other objectives.
func ReadXGBoostJSON(r io.Reader) (*Ensemble, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("gbt: reading XGBoost model: %w", err)
	}
	var m xgbModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("gbt: XGBoost JSON: %w", err)
	}
	e, err := m.ensemble()
	if err != nil {
		return nil, fmt.Errorf("gbt: XGBoost JSON: %w", err)
	}
	return e, nil
}

type xgbModel struct {
	Learner *struct {
		FeatureNames []string `json:"feature_names"`
		Param        struct {
			BaseScore  string `json:"base_score"`
			NumFeature string `json:"num_feature"`
			NumTarget  string `json:"num_target"`
			NumClass   string `json:"num_class"`
		} `json:"learner_model_param"`
		Objective struct {
			Name string `json:"name"`
		} `json:"objective"`
		Booster struct {
			Name  string `json:"name"`
			Model struct {
				Trees []xgbTree `json:"trees"`
			} `json:"model"`
		} `json:"gradient_booster"`
	} `json:"learner"`
}

type xgbTree struct {
	Left      []int             `json:"left_children"`
	Right     []int             `json:"right_children"`
	Indices   []int             `json:"split_indices"`
	Cond      []float64         `json:"split_conditions"`
	Default   []json.RawMessage `json:"default_left"`
	SplitType []int             `json:"split_type"`
	Param     struct {
		SizeLeafVector string `json:"size_leaf_vector"`
	} `json:"tree_param"`
}

// xgbObjectives are the objectives whose prediction is the raw margin.
var xgbObjectives = []string{"reg:squarederror", "reg:linear", "reg:pseudohubererror", "reg:absoluteerror"}

func (m *xgbModel) ensemble() (*Ensemble, error) {
	l := m.Learner
	if l == nil {
		return nil, fmt.Errorf("no \"learner\" object (not an XGBoost JSON model)")
	}
	if l.Booster.Name != "gbtree" {
		return nil, fmt.Errorf("booster %q is not supported (want gbtree)", l.Booster.Name)
	}
	ok := false
	for _, o := range xgbObjectives {
		ok = ok || l.Objective.Name == o
	}
	if !ok {
		return nil, fmt.Errorf("objective %q is not supported (want one of %s)", l.Objective.Name, strings.Join(xgbObjectives, ", "))
	}
	for _, p := range []struct{ name, v string }{{"num_target", l.Param.NumTarget}, {"num_class", l.Param.NumClass}} {
		if p.v == "" {
			continue
		}
		if k, err := strconv.Atoi(p.v); err != nil || k > 1 {
			return nil, fmt.Errorf("learner_model_param.%s %q: only single-output models are supported", p.name, p.v)
		}
	}
	nf, err := strconv.Atoi(l.Param.NumFeature)
	if err != nil || nf < 0 || nf > 1<<20 {
		return nil, fmt.Errorf("learner_model_param.num_feature %q is not a feature count", l.Param.NumFeature)
	}
	bs := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(l.Param.BaseScore), "["), "]")
	base, err := strconv.ParseFloat(bs, 64)
	if err != nil {
		return nil, fmt.Errorf("learner_model_param.base_score %q is not a number", l.Param.BaseScore)
	}
	// XGBoost stores base_score as a float32.
	base = float64(float32(base))
	var names []string
	if len(l.FeatureNames) > 0 {
		names = l.FeatureNames
	}
	bld, err := newBuilder(base, nf, names)
	if err != nil {
		return nil, err
	}
	for t := range l.Booster.Model.Trees {
		raw, err := l.Booster.Model.Trees[t].raw()
		if err != nil {
			return nil, fmt.Errorf("tree %d: %w", t, err)
		}
		if err := bld.addTree(raw, 0); err != nil {
			return nil, fmt.Errorf("tree %d: %w", t, err)
		}
	}
	return bld.done()
}

func (t *xgbTree) raw() ([]rawNode, error) {
	n := len(t.Left)
	if n == 0 {
		return nil, fmt.Errorf("no nodes")
	}
	if n > maxNodes {
		return nil, fmt.Errorf("%d nodes is too many", n)
	}
	if s := t.Param.SizeLeafVector; s != "" && s != "0" && s != "1" {
		return nil, fmt.Errorf("size_leaf_vector %s: vector leaves are not supported", s)
	}
	for _, a := range []struct {
		name string
		k    int
	}{{"right_children", len(t.Right)}, {"split_indices", len(t.Indices)}, {"split_conditions", len(t.Cond)}, {"default_left", len(t.Default)}} {
		if a.k != n {
			return nil, fmt.Errorf("%s has %d entries, left_children %d", a.name, a.k, n)
		}
	}
	if len(t.SplitType) != 0 && len(t.SplitType) != n {
		return nil, fmt.Errorf("split_type has %d entries, left_children %d", len(t.SplitType), n)
	}
	raw := make([]rawNode, n)
	for i := 0; i < n; i++ {
		if t.Left[i] == -1 {
			raw[i] = rawNode{leaf: true, value: float64(float32(t.Cond[i]))}
			continue
		}
		if len(t.SplitType) > 0 && t.SplitType[i] != 0 {
			return nil, fmt.Errorf("node %d: categorical split (split_type %d) is not supported", i, t.SplitType[i])
		}
		dl, err := xgbBool(t.Default[i])
		if err != nil {
			return nil, fmt.Errorf("node %d: default_left: %w", i, err)
		}
		c := t.Cond[i]
		if math.IsNaN(c) || math.Abs(c) > math.MaxFloat32 {
			return nil, fmt.Errorf("node %d: split condition %v is not a finite float32", i, c)
		}
		rn := rawNode{feature: t.Indices[i], threshold: xgbThreshold(float32(c)), left: t.Left[i], right: t.Right[i]}
		if dl {
			rn.flags |= flagMissingLeft
		}
		raw[i] = rn
	}
	return raw, nil
}

// xgbBool decodes a default_left entry: 0/1 (XGBoost >= 2.0) or false/true.
func xgbBool(m json.RawMessage) (bool, error) {
	switch s := string(bytes.TrimSpace(m)); s {
	case "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	default:
		return false, fmt.Errorf("%q is not 0, 1, false or true", s)
	}
}

// xgbThreshold returns the float64 t' such that, for every float64 x that
// is not NaN, float32(x) < t exactly when x < t'. XGBoost stores features
// as float32 (rounded to nearest, ties to even) before comparing them with
// the float32 threshold t; the boundary is the midpoint m between t and the
// float32 p just below it, moved one float64 ulp up when a tie at m rounds
// down to p (p even, t odd).
func xgbThreshold(t float32) float64 {
	const beyond = 0x1p128 // the "next float32" after MaxFloat32, where rounding overflows
	switch {
	case math.IsInf(float64(t), -1):
		return math.Inf(-1)
	case math.IsInf(float64(t), 1):
		// float32(x) < +Inf iff x does not overflow: x < MaxFloat32 + ulp/2
		// (a tie rounds to the even infinity).
		return (math.MaxFloat32 + beyond) / 2
	}
	tv := float64(t)
	var pv float64
	if t == -math.MaxFloat32 {
		pv = -beyond
	} else {
		pv = float64(math.Nextafter32(t, float32(math.Inf(-1))))
	}
	m := (pv + tv) / 2 // exact: float32 values have 24-bit mantissas
	tOdd := math.Float32bits(t)&1 == 1
	if t == 0 {
		tOdd = false // +-0 have even mantissas
	}
	if tOdd {
		// A tie at m rounds to the even p, which is < t: include m.
		return math.Nextafter(m, math.Inf(1))
	}
	return m
}
