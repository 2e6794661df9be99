package ccatest

import (
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
)

// Choice is a key a random configuration sets and the values it picks
// from.
type Choice struct {
	Key    string
	Values []string
}

// Pick is the Choice of one of values for key.
func Pick(key string, values ...string) Choice { return Choice{Key: key, Values: values} }

// RandomSpecs builds runs random configurations with build and hands each
// to check with its run number and overrides. A run draws from rng one
// value of every choice, in order, then one of presets (none drawn when
// presets is empty: the default preset); check goes on drawing its events
// from the same rng. A configuration build rejects fails the test.
func RandomSpecs(t *testing.T, rng *rand.Rand, runs int, build cca.Builder, presets []string, choices []Choice,
	check func(run int, s cca.Spec, params map[string]string)) {
	t.Helper()
	pick := func(vals []string) string { return vals[rng.IntN(len(vals))] }
	for run := range runs {
		params := make(map[string]string, len(choices))
		for _, c := range choices {
			params[c.Key] = pick(c.Values)
		}
		preset := ""
		if len(presets) > 0 {
			preset = pick(presets)
		}
		s, err := build(preset, params)
		if err != nil {
			t.Fatal(err)
		}
		check(run, s, params)
	}
}
