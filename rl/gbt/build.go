package gbt

import "errors"

// Node is one node of a tree as a Builder takes it and Ensemble.Tree
// returns it. A leaf holds Value; an internal node sends x to Left when
// x[Feature] < Threshold and to Right otherwise, and a missing value (NaN,
// or a feature index beyond len(x)) to Left only when MissingLeft is set.
// Left and Right are indices into the same tree's node slice.
type Node struct {
	Leaf        bool
	Value       float64 // a leaf's value
	Feature     int     // an internal node's feature index
	Threshold   float64 // go left when x[Feature] < Threshold
	Left, Right int
	MissingLeft bool // a missing value goes left
	ZeroMissing bool // |x| <= 1e-35 also counts as missing (LightGBM zero_as_missing)
}

// Builder assembles an Ensemble tree by tree: the way a trainer (such as
// package rl/gbt/fit) hands its trees to the evaluator without reaching
// into its layout.
type Builder struct {
	b   *builder
	raw []rawNode
}

// NewBuilder starts an ensemble with base score base over feature vectors
// of nFeatures values; names, when not nil, holds nFeatures feature names.
func NewBuilder(base float64, nFeatures int, names []string) (*Builder, error) {
	b, err := newBuilder(base, nFeatures, names)
	if err != nil {
		return nil, err
	}
	return &Builder{b: b}, nil
}

// AddTree appends one tree whose root is nodes[root], checking that the
// nodes form a tree (every child in range, no node reached twice), that
// every feature index is below the ensemble's number of features and that
// values are finite. Unreachable nodes are dropped; the tree is laid out
// in pre-order. A tree that fails the checks is not added.
func (b *Builder) AddTree(nodes []Node, root int) error {
	if b.b == nil {
		return errors.New("builder already finished")
	}
	b.raw = b.raw[:0]
	for _, n := range nodes {
		r := rawNode{leaf: n.Leaf, value: n.Value, feature: n.Feature, threshold: n.Threshold, left: n.Left, right: n.Right}
		if n.MissingLeft {
			r.flags |= flagMissingLeft
		}
		if n.ZeroMissing {
			r.flags |= flagZeroMissing
		}
		b.raw = append(b.raw, r)
	}
	e := b.b.e
	nNodes, nRoots, depth := len(e.nodes), len(e.roots), e.maxDepth
	if err := b.b.addTree(b.raw, root); err != nil {
		e.nodes, e.roots, e.maxDepth = e.nodes[:nNodes], e.roots[:nRoots], depth
		return err
	}
	return nil
}

// NumTrees is the number of trees added so far.
func (b *Builder) NumTrees() int {
	if b.b == nil {
		return 0
	}
	return len(b.b.e.roots)
}

// Ensemble finishes the ensemble (at least one tree); the Builder cannot
// be used afterwards.
func (b *Builder) Ensemble() (*Ensemble, error) {
	if b.b == nil {
		return nil, errors.New("builder already finished")
	}
	e, err := b.b.done()
	if err == nil {
		b.b = nil
	}
	return e, err
}

// Tree returns tree i (0 <= i < NumTrees) as nodes in pre-order, the root
// first: the form AddTree takes, so that a Builder given every Tree of an
// ensemble rebuilds it exactly.
func (e *Ensemble) Tree(i int) []Node {
	r := int(e.roots[i])
	end := len(e.nodes)
	if i+1 < len(e.roots) {
		end = int(e.roots[i+1])
	}
	out := make([]Node, 0, end-r)
	for k := r; k < end; k++ {
		n := e.nodes[k]
		if n.flags&flagLeaf != 0 {
			out = append(out, Node{Leaf: true, Value: n.v})
			continue
		}
		out = append(out, Node{
			Feature: int(n.feature), Threshold: n.v, Left: k + 1 - r, Right: int(n.right) - r,
			MissingLeft: n.flags&flagMissingLeft != 0, ZeroMissing: n.flags&flagZeroMissing != 0,
		})
	}
	return out
}
