package gbt

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadLightGBM reads a model saved by LightGBM's Booster.save_model (the
// text model format, "version=v3" and "version=v4" headers as written by
// LightGBM 3.x and 4.x) for a single-output regression objective whose
// prediction is the raw score: regression (L2), regression_l1, huber, fair,
// quantile, mape (not with the "sqrt" option of reg_sqrt, which squares
// the output). Its prediction equals LightGBM's predict(): the sum of the
// trees' leaf values (LightGBM folds boost_from_average into the first tree,
// so the base score is 0).
//
// What is read: the header keys version, num_class, num_tree_per_iteration,
// max_feature_idx, objective, feature_names and average_output (rejected),
// and per "Tree=" block num_leaves, split_feature, threshold, decision_type,
// left_child, right_child (a negative child c is leaf ~c = -c-1), leaf_value,
// is_linear (rejected when 1) and shrinkage (already applied to the leaf
// values). Everything else (feature_infos, tree_sizes, split_gain, leaf_count,
// feature importances, parameters, ...) is ignored.
//
// decision_type bits: 1 categorical (rejected), 2 default_left, bits 2-3
// the missing type (0 None: NaN is replaced by 0; 1 Zero: NaN and
// |x| <= 1e-35 go the default way; 2 NaN: NaN goes the default way).
// LightGBM's x <= threshold becomes x < nextafter(threshold, +Inf).
func ReadLightGBM(r io.Reader) (*Ensemble, error) {
	e, err := readLightGBM(r)
	if err != nil {
		return nil, fmt.Errorf("gbt: LightGBM model: %w", err)
	}
	return e, nil
}

// lgbObjectives are the objectives whose prediction is the raw score.
var lgbObjectives = []string{"regression", "regression_l1", "huber", "fair", "quantile", "mape"}

func readLightGBM(r io.Reader) (*Ensemble, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<28)
	line := 0
	header := map[string]string{}
	var trees []map[string]string
	var treeLines []int
	var cur map[string]string
	sawFirst := false
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if !sawFirst {
			if strings.TrimSpace(s) == "" {
				continue
			}
			sawFirst = true
			if s != "tree" {
				return nil, fmt.Errorf("line %d: first line is %q, want \"tree\"", line, truncate(s))
			}
			continue
		}
		if s == "end of trees" {
			break
		}
		if s == "" {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok && cur == nil && s == "average_output" {
			// A bare flag line in the header (random-forest mode).
			k, ok = s, true
		}
		if !ok {
			if cur == nil {
				return nil, fmt.Errorf("line %d: %q is not key=value", line, truncate(s))
			}
			return nil, fmt.Errorf("line %d: %q is not key=value (tree %d)", line, truncate(s), len(trees)-1)
		}
		if k == "Tree" {
			if idx, err := strconv.Atoi(v); err != nil || idx != len(trees) {
				return nil, fmt.Errorf("line %d: Tree=%s, want Tree=%d", line, truncate(v), len(trees))
			}
			cur = map[string]string{}
			trees = append(trees, cur)
			treeLines = append(treeLines, line)
			continue
		}
		m := header
		if cur != nil {
			m = cur
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("line %d: key %q repeated", line, truncate(k))
		}
		m[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if !sawFirst {
		return nil, fmt.Errorf("empty file")
	}

	if v := header["version"]; v != "v3" && v != "v4" {
		return nil, fmt.Errorf("header version %q is not supported (want v3 or v4)", v)
	}
	for _, k := range []string{"num_class", "num_tree_per_iteration"} {
		if v, ok := header[k]; ok && v != "1" {
			return nil, fmt.Errorf("header %s=%s: only single-output models are supported", k, truncate(v))
		}
	}
	if _, ok := header["average_output"]; ok {
		return nil, fmt.Errorf("header average_output: random-forest models are not supported")
	}
	objf := strings.Fields(header["objective"])
	ok := false
	for _, o := range lgbObjectives {
		ok = ok || (len(objf) > 0 && objf[0] == o)
	}
	for _, opt := range objf {
		ok = ok && opt != "sqrt" // reg_sqrt squares the prediction
	}
	if !ok {
		return nil, fmt.Errorf("objective %q is not supported (want one of %s)", truncate(header["objective"]), strings.Join(lgbObjectives, ", "))
	}
	maxIdx, err := strconv.Atoi(header["max_feature_idx"])
	if err != nil || maxIdx < -1 || maxIdx >= 1<<20 {
		return nil, fmt.Errorf("header max_feature_idx %q is not a feature index", truncate(header["max_feature_idx"]))
	}
	nf := maxIdx + 1
	var names []string
	if v, ok := header["feature_names"]; ok {
		names = strings.Fields(v)
		if len(names) != nf {
			return nil, fmt.Errorf("header feature_names has %d names, max_feature_idx says %d features", len(names), nf)
		}
	}
	bld, err := newBuilder(0, nf, names)
	if err != nil {
		return nil, err
	}
	for t, kv := range trees {
		raw, err := lgbTree(kv)
		if err != nil {
			return nil, fmt.Errorf("tree %d (Tree=%d at line %d): %w", t, t, treeLines[t], err)
		}
		if err := bld.addTree(raw, 0); err != nil {
			return nil, fmt.Errorf("tree %d (Tree=%d at line %d): %w", t, t, treeLines[t], err)
		}
	}
	return bld.done()
}

// lgbTree converts one Tree= block. Internal nodes are raw[0:L-1] (node 0
// the root) and leaves raw[L-1:]: leaf k is raw[L-1+k].
func lgbTree(kv map[string]string) ([]rawNode, error) {
	L, err := strconv.Atoi(kv["num_leaves"])
	if err != nil || L < 1 || L > maxNodes/2 {
		return nil, fmt.Errorf("num_leaves %q is not a leaf count", truncate(kv["num_leaves"]))
	}
	if v, ok := kv["is_linear"]; ok && v != "0" {
		return nil, fmt.Errorf("is_linear=%s: linear trees are not supported", truncate(v))
	}
	if v, ok := kv["num_cat"]; ok && v != "0" {
		return nil, fmt.Errorf("num_cat=%s: categorical splits are not supported", truncate(v))
	}
	leaves, err := lgbFloats(kv, "leaf_value", L)
	if err != nil {
		return nil, err
	}
	raw := make([]rawNode, 2*L-1)
	for k, v := range leaves {
		raw[L-1+k] = rawNode{leaf: true, value: v}
	}
	if L == 1 {
		// A single-leaf tree: the root is the leaf.
		return raw, nil
	}
	ni := L - 1
	cols := lgbColumns{kv: kv, n: ni}
	feat, thr := lgbColumn(&cols, "split_feature", lgbInts), lgbColumn(&cols, "threshold", lgbFloats)
	dt := lgbColumn(&cols, "decision_type", lgbInts)
	lc, rc := lgbColumn(&cols, "left_child", lgbInts), lgbColumn(&cols, "right_child", lgbInts)
	if cols.err != nil {
		return nil, cols.err
	}
	child := func(c int) (int, error) {
		if c >= 0 {
			if c >= ni {
				return 0, fmt.Errorf("child %d out of range [0,%d)", c, ni)
			}
			return c, nil
		}
		leaf := -c - 1
		if leaf >= L {
			return 0, fmt.Errorf("leaf child %d (leaf %d) out of range [0,%d)", c, leaf, L)
		}
		return L - 1 + leaf, nil
	}
	for i := 0; i < ni; i++ {
		if dt[i] < 0 || dt[i] > 15 {
			return nil, fmt.Errorf("node %d: decision_type %d is not valid", i, dt[i])
		}
		if dt[i]&1 != 0 {
			return nil, fmt.Errorf("node %d: categorical split is not supported", i)
		}
		t := thr[i]
		if math.IsNaN(t) {
			return nil, fmt.Errorf("node %d: threshold is NaN", i)
		}
		left, err := child(lc[i])
		if err != nil {
			return nil, fmt.Errorf("node %d: left_child: %w", i, err)
		}
		right, err := child(rc[i])
		if err != nil {
			return nil, fmt.Errorf("node %d: right_child: %w", i, err)
		}
		rn := rawNode{feature: feat[i], threshold: math.Nextafter(t, math.Inf(1)), left: left, right: right}
		defaultLeft := dt[i]&2 != 0
		switch (dt[i] >> 2) & 3 {
		case 0: // None: NaN is replaced by 0 and compared like any value.
			if 0 <= t {
				rn.flags |= flagMissingLeft
			}
		case 1: // Zero: NaN and zero go the default way.
			rn.flags |= flagZeroMissing
			if defaultLeft {
				rn.flags |= flagMissingLeft
			}
		case 2: // NaN: NaN goes the default way.
			if defaultLeft {
				rn.flags |= flagMissingLeft
			}
		default:
			return nil, fmt.Errorf("node %d: decision_type %d has unknown missing type 3", i, dt[i])
		}
		raw[i] = rn
	}
	return raw, nil
}

// lgbColumns reads the per-node columns of a tree, n values each, one
// after another (lgbColumn), keeping the first error: once one fails,
// the later ones are not read and are nil.
type lgbColumns struct {
	kv  map[string]string
	n   int
	err error
}

// lgbColumn reads c's column key with read (lgbInts, lgbFloats) unless an
// earlier column failed.
func lgbColumn[T any](c *lgbColumns, key string, read func(kv map[string]string, key string, n int) ([]T, error)) []T {
	if c.err != nil {
		return nil
	}
	v, err := read(c.kv, key, c.n)
	c.err = err
	return v
}

func lgbFields(kv map[string]string, key string, n int) ([]string, error) {
	v, ok := kv[key]
	if !ok {
		return nil, fmt.Errorf("%s is missing", key)
	}
	f := strings.Fields(v)
	if len(f) != n {
		return nil, fmt.Errorf("%s has %d values, want %d", key, len(f), n)
	}
	return f, nil
}

func lgbInts(kv map[string]string, key string, n int) ([]int, error) {
	return lgbValues(kv, key, n, "an integer", func(s string) (int, bool) {
		v, err := strconv.Atoi(s)
		return v, err == nil && v >= math.MinInt32 && v <= math.MaxInt32
	})
}

func lgbFloats(kv map[string]string, key string, n int) ([]float64, error) {
	return lgbValues(kv, key, n, "a number", func(s string) (float64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil || isRangeErr(err)
	})
}

// lgbValues parses the n fields of key with parse, which says whether a
// field is what (an integer, a number).
func lgbValues[T any](kv map[string]string, key string, n int, what string, parse func(string) (T, bool)) ([]T, error) {
	f, err := lgbFields(kv, key, n)
	if err != nil {
		return nil, err
	}
	out := make([]T, n)
	for i, s := range f {
		v, ok := parse(s)
		if !ok {
			return nil, fmt.Errorf("%s value %d %q is not %s", key, i, truncate(s), what)
		}
		out[i] = v
	}
	return out, nil
}

// isRangeErr accepts LightGBM's printed +-1e308-style extremes that
// overflow to +-Inf (ParseFloat returns them with ErrRange).
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// truncate shortens s for error messages.
func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
