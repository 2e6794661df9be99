// Package gbt is ccreplay's gradient-boosted regression trees as a policy
// runtime needs them: an allocation-free evaluator (Predict) over a flat
// node array, ccreplay's own versioned JSON form (WriteJSON/ReadJSON),
// readers for ensembles trained elsewhere: XGBoost's JSON model
// (ReadXGBoostJSON) and LightGBM's text model (ReadLightGBM), and a
// Builder through which a trainer hands over its trees. The booster itself
// (an exact squared-error fit) is package rl/gbt/fit; its hyperparameters,
// Params, are declared here.
//
// It exists to distil the RL-CC policy into trees small enough for a NIC
// (RL-CC-NIC, Fuhrer 2023, Section V-C: at most 10 trees of depth at
// most 4), but the package itself accepts any number of trees and any
// depth.
//
// # Split semantics
//
// Every internal node holds a feature index j and a threshold t; a sample x
// goes to the left child when x[j] < t. A NaN feature value (or a feature
// index beyond len(x)) goes the node's "missing" direction. Loaders convert
// other libraries' rules to this one exactly: LightGBM's x <= t becomes
// x < nextafter(t, +Inf); XGBoost's float32(x) < t becomes x < t' with t' the
// float64 rounding boundary below t (see xgbThreshold).
package gbt

import (
	"errors"
	"fmt"
	"math"
)

// Node flags.
const (
	flagMissingLeft uint8 = 1 << iota // a missing (NaN) value goes left
	flagZeroMissing                   // |x| <= zeroThreshold also counts as missing (LightGBM zero_as_missing)
	flagLeaf                          // the node is a leaf; v is its value
)

// zeroThreshold is LightGBM's kZeroThreshold: values with |x| <= 1e-35 are
// "zero" for nodes whose missing type is Zero.
const zeroThreshold = 1e-35

// node is one entry of the flat, pre-order node array. The left child of an
// internal node i is always i+1; right is the index of the right child.
// For a leaf, v is the leaf value; for an internal node, v is the threshold.
type node struct {
	v       float64
	feature int32
	right   int32
	flags   uint8
}

// Ensemble is a sum of regression trees plus a base score:
// Predict(x) = base + sum over trees of the value of the leaf x reaches.
// Trees are stored in one flat pre-order array, so evaluation walks slices
// only (no pointers, maps or allocation). An Ensemble is immutable and safe
// for concurrent Predict calls.
type Ensemble struct {
	base      float64
	nodes     []node
	roots     []int32
	names     []string
	nFeatures int
	maxDepth  int
}

// Predict returns the ensemble's output for the feature vector x.
// It allocates nothing and never panics: a feature index beyond len(x) is
// treated as missing (NaN).
func (e *Ensemble) Predict(x []float64) float64 {
	s := e.base
	nodes := e.nodes
	for _, r := range e.roots {
		i := int(r)
		for {
			n := &nodes[i]
			if n.flags&flagLeaf != 0 {
				s += n.v
				break
			}
			v := math.NaN()
			if f := int(n.feature); f < len(x) {
				v = x[f]
			}
			var left bool
			switch {
			case v != v: // NaN
				left = n.flags&flagMissingLeft != 0
			case n.flags&flagZeroMissing != 0 && v >= -zeroThreshold && v <= zeroThreshold:
				left = n.flags&flagMissingLeft != 0
			default:
				left = v < n.v
			}
			if left {
				i++
			} else {
				i = int(n.right)
			}
		}
	}
	return s
}

// NumTrees is the number of trees.
func (e *Ensemble) NumTrees() int { return len(e.roots) }

// MaxDepth is the depth of the deepest tree (a single leaf has depth 0, one
// split depth 1).
func (e *Ensemble) MaxDepth() int { return e.maxDepth }

// NumFeatures is the length of the feature vector the ensemble was built
// for (one more than the largest feature index it may test).
func (e *Ensemble) NumFeatures() int { return e.nFeatures }

// NumNodes is the total number of nodes (internal and leaves) of all trees.
func (e *Ensemble) NumNodes() int { return len(e.nodes) }

// BaseScore is the constant added to the sum of the trees' leaf values.
func (e *Ensemble) BaseScore() float64 { return e.base }

// FeatureNames returns the names of the features in input order, or nil
// when the model did not record them. The slice is a copy.
func (e *Ensemble) FeatureNames() []string {
	if e.names == nil {
		return nil
	}
	return append([]string(nil), e.names...)
}

// CheckLimits returns an error when the ensemble has more than maxTrees
// trees or a tree deeper than maxDepth (RL-CC-NIC, Fuhrer 2023, Section V-C,
// deploys at most 10 trees of depth at most 4 on the NIC).
func (e *Ensemble) CheckLimits(maxTrees, maxDepth int) error {
	if e.NumTrees() > maxTrees {
		return fmt.Errorf("gbt: ensemble has %d trees, limit is %d", e.NumTrees(), maxTrees)
	}
	if e.maxDepth > maxDepth {
		return fmt.Errorf("gbt: ensemble has depth %d, limit is %d", e.maxDepth, maxDepth)
	}
	return nil
}

// rawNode is a node as a loader reads it, before it is laid out in
// pre-order. Children are indices into the same tree's rawNode slice.
type rawNode struct {
	leaf        bool
	value       float64 // leaf value
	feature     int
	threshold   float64 // go left when x < threshold
	left, right int
	flags       uint8 // flagMissingLeft, flagZeroMissing
}

// maxNodes bounds the nodes of one loaded ensemble (a guard against
// hostile files; ccreplay's own trees have at most 2^(depth+1)-1 nodes each).
const maxNodes = 1 << 24

// builder collects trees and lays them out.
type builder struct {
	e *Ensemble
}

func newBuilder(base float64, nFeatures int, names []string) (*builder, error) {
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return nil, fmt.Errorf("base score %v is not finite", base)
	}
	if nFeatures < 0 {
		return nil, fmt.Errorf("number of features %d is negative", nFeatures)
	}
	if names != nil && len(names) != nFeatures {
		return nil, fmt.Errorf("%d feature names for %d features", len(names), nFeatures)
	}
	var cp []string
	if names != nil {
		cp = append([]string{}, names...)
	}
	return &builder{e: &Ensemble{base: base, nFeatures: nFeatures, names: cp}}, nil
}

// addTree appends one tree given as raw nodes with its root at index root,
// checking that the nodes form a tree (every child in range, no node reached
// twice) and that values are finite. Unreachable nodes are dropped.
func (b *builder) addTree(raw []rawNode, root int) error {
	if len(raw) == 0 {
		return errors.New("tree has no nodes")
	}
	if root < 0 || root >= len(raw) {
		return fmt.Errorf("root %d out of range [0,%d)", root, len(raw))
	}
	if len(b.e.nodes)+len(raw) > maxNodes {
		return fmt.Errorf("more than %d nodes", maxNodes)
	}
	seen := make([]bool, len(raw))
	type frame struct {
		raw, depth int
		patch      int // index in b.e.nodes whose right field waits for this node; -1 if none
	}
	b.e.roots = append(b.e.roots, int32(len(b.e.nodes)))
	stack := []frame{{raw: root, depth: 0, patch: -1}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.raw < 0 || f.raw >= len(raw) {
			return fmt.Errorf("child index %d out of range [0,%d)", f.raw, len(raw))
		}
		if seen[f.raw] {
			return fmt.Errorf("node %d is reached twice (not a tree)", f.raw)
		}
		seen[f.raw] = true
		if f.patch >= 0 {
			b.e.nodes[f.patch].right = int32(len(b.e.nodes))
		}
		if f.depth > b.e.maxDepth {
			b.e.maxDepth = f.depth
		}
		r := raw[f.raw]
		if r.leaf {
			if math.IsNaN(r.value) || math.IsInf(r.value, 0) {
				return fmt.Errorf("node %d: leaf value %v is not finite", f.raw, r.value)
			}
			b.e.nodes = append(b.e.nodes, node{v: r.value, feature: -1, right: -1, flags: flagLeaf})
			continue
		}
		if r.feature < 0 || r.feature >= b.e.nFeatures {
			return fmt.Errorf("node %d: feature index %d out of range [0,%d)", f.raw, r.feature, b.e.nFeatures)
		}
		if math.IsNaN(r.threshold) {
			return fmt.Errorf("node %d: threshold is NaN", f.raw)
		}
		idx := len(b.e.nodes)
		b.e.nodes = append(b.e.nodes, node{v: r.threshold, feature: int32(r.feature), right: -1, flags: r.flags &^ flagLeaf})
		// Pre-order: the left child must be laid out right after this node,
		// so push right first.
		stack = append(stack, frame{raw: r.right, depth: f.depth + 1, patch: idx}, frame{raw: r.left, depth: f.depth + 1, patch: -1})
	}
	return nil
}

func (b *builder) done() (*Ensemble, error) {
	if len(b.e.roots) == 0 {
		return nil, errors.New("model has no trees")
	}
	return b.e, nil
}
