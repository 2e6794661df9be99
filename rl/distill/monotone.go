package distill

import (
	"fmt"
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
