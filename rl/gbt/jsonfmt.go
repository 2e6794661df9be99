package gbt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// FormatName and FormatVersion identify ccreplay's own ensemble JSON.
const (
	FormatName    = "ccreplay.gbt"
	FormatVersion = 1
)

// jsonModel is the file layout of WriteJSON/ReadJSON:
//
//	{
//	  "format": "ccreplay.gbt", "version": 1,
//	  "base_score": 1.02,
//	  "num_features": 7,
//	  "features": ["rate_frac", ...],          (optional)
//	  "trees": [ {"nodes": [
//	      {"feature": 1, "threshold": 1.25, "left": 1, "right": 2, "missing_left": true},
//	      {"leaf": -0.01},
//	      {"leaf": 0.02} ]}, ... ]
//	}
//
// Node 0 of each tree is its root; an internal node sends x to "left" when
// x[feature] < threshold, to "right" otherwise, and a NaN to "left" when
// missing_left is true. "zero_missing" (LightGBM's zero_as_missing) also
// treats |x| <= 1e-35 as missing. WriteJSON lays nodes out in pre-order.
type jsonModel struct {
	Format      string     `json:"format"`
	Version     int        `json:"version"`
	BaseScore   float64    `json:"base_score"`
	NumFeatures int        `json:"num_features"`
	Features    []string   `json:"features,omitempty"`
	Trees       []jsonTree `json:"trees"`
}

type jsonTree struct {
	Nodes []jsonNode `json:"nodes"`
}

type jsonNode struct {
	Leaf        *float64 `json:"leaf,omitempty"`
	Feature     *int     `json:"feature,omitempty"`
	Threshold   *float64 `json:"threshold,omitempty"`
	Left        *int     `json:"left,omitempty"`
	Right       *int     `json:"right,omitempty"`
	MissingLeft bool     `json:"missing_left,omitempty"`
	ZeroMissing bool     `json:"zero_missing,omitempty"`
}

// MarshalJSON encodes the ensemble in ccreplay's JSON form (compact). It
// lets an Ensemble be embedded in a larger JSON document, such as an RL-CC
// policy file.
func (e *Ensemble) MarshalJSON() ([]byte, error) {
	m := jsonModel{
		Format: FormatName, Version: FormatVersion,
		BaseScore: e.base, NumFeatures: e.nFeatures, Features: e.names,
		Trees: make([]jsonTree, len(e.roots)),
	}
	for t, r := range e.roots {
		end := len(e.nodes)
		if t+1 < len(e.roots) {
			end = int(e.roots[t+1])
		}
		nodes := make([]jsonNode, 0, end-int(r))
		for i := int(r); i < end; i++ {
			n := e.nodes[i]
			if n.flags&flagLeaf != 0 {
				v := n.v
				nodes = append(nodes, jsonNode{Leaf: &v})
				continue
			}
			feat, thr := int(n.feature), n.v
			left, right := i+1-int(r), int(n.right)-int(r)
			nodes = append(nodes, jsonNode{
				Feature: &feat, Threshold: &thr, Left: &left, Right: &right,
				MissingLeft: n.flags&flagMissingLeft != 0,
				ZeroMissing: n.flags&flagZeroMissing != 0,
			})
		}
		m.Trees[t] = jsonTree{Nodes: nodes}
	}
	return json.Marshal(m)
}

// UnmarshalJSON decodes ccreplay's JSON form (see ReadJSON).
func (e *Ensemble) UnmarshalJSON(b []byte) error {
	got, err := decodeOwn(b)
	if err != nil {
		return err
	}
	*e = *got
	return nil
}

// WriteJSON writes the ensemble in ccreplay's own versioned JSON form,
// indented. Floats are written in their shortest exact form, so ReadJSON
// followed by WriteJSON reproduces the bytes.
func (e *Ensemble) WriteJSON(w io.Writer) error {
	b, err := e.MarshalJSON()
	if err != nil {
		return fmt.Errorf("gbt: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return fmt.Errorf("gbt: %w", err)
	}
	buf.WriteByte('\n')
	_, err = w.Write(buf.Bytes())
	return err
}

// ReadJSON reads an ensemble written by WriteJSON.
func ReadJSON(r io.Reader) (*Ensemble, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("gbt: reading model: %w", err)
	}
	return decodeOwn(b)
}

func decodeOwn(b []byte) (*Ensemble, error) {
	var m jsonModel
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("gbt: %s model: %w", FormatName, err)
	}
	if m.Format != FormatName {
		return nil, fmt.Errorf("gbt: format is %q, want %q", m.Format, FormatName)
	}
	if m.Version != FormatVersion {
		return nil, fmt.Errorf("gbt: %s version %d is not supported (want %d)", FormatName, m.Version, FormatVersion)
	}
	bld, err := newBuilder(m.BaseScore, m.NumFeatures, m.Features)
	if err != nil {
		return nil, fmt.Errorf("gbt: %s: %w", FormatName, err)
	}
	for t, tr := range m.Trees {
		raw := make([]rawNode, len(tr.Nodes))
		for i, n := range tr.Nodes {
			if n.Leaf != nil {
				if n.Feature != nil || n.Threshold != nil || n.Left != nil || n.Right != nil {
					return nil, fmt.Errorf("gbt: %s: tree %d node %d: a leaf has split fields", FormatName, t, i)
				}
				raw[i] = rawNode{leaf: true, value: *n.Leaf}
				continue
			}
			if n.Feature == nil || n.Threshold == nil || n.Left == nil || n.Right == nil {
				return nil, fmt.Errorf("gbt: %s: tree %d node %d: need leaf, or feature, threshold, left and right", FormatName, t, i)
			}
			rn := rawNode{feature: *n.Feature, threshold: *n.Threshold, left: *n.Left, right: *n.Right}
			if n.MissingLeft {
				rn.flags |= flagMissingLeft
			}
			if n.ZeroMissing {
				rn.flags |= flagZeroMissing
			}
			raw[i] = rn
		}
		if err := bld.addTree(raw, 0); err != nil {
			return nil, fmt.Errorf("gbt: %s: tree %d: %w", FormatName, t, err)
		}
	}
	e, err := bld.done()
	if err != nil {
		return nil, fmt.Errorf("gbt: %s: %w", FormatName, err)
	}
	return e, nil
}
