package distill

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/cca/rlcc"
)

// ParseMonotone reads monotone constraints of the trees: "none" (or "")
// for none, else comma-separated FEATURE=-1|0|1 with FEATURE one of
// rlcc.FeatureNames (-1: the action never rises with it). The result has
// one constraint per feature, for gbt.Params.Monotone.
func ParseMonotone(s string) ([]int8, error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "" {
		return nil, nil
	}
	out := make([]int8, rlcc.NumFeatures)
	for _, kv := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		j := slices.Index(rlcc.FeatureNames, strings.TrimSpace(name))
		v := strings.TrimSpace(val)
		if !ok || j < 0 || (v != "-1" && v != "1" && v != "+1" && v != "0") {
			return nil, fmt.Errorf("%q is not FEATURE=-1|0|1 with FEATURE one of %s", kv, strings.Join(rlcc.FeatureNames, ", "))
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(v, "+"))
		out[j] = int8(n)
	}
	return out, nil
}

// ParseFactors reads the rate augmentation factors (Options.AugmentRates):
// "none" (or "") for none, else comma-separated positive numbers other
// than 1, at most 8.
func ParseFactors(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > 8 {
		return nil, fmt.Errorf("%d factors; at most 8", len(parts))
	}
	out := make([]float64, len(parts))
	for i, f := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) || v == 1 {
			return nil, fmt.Errorf("%q is not a positive factor other than 1", f)
		}
		out[i] = v
	}
	return out, nil
}
