// Package policyparam is the "policy" parameter of the learned algorithms
// (cca/rlcc, cca/fdcc): a configuration holds its policy and where it came
// from, "default" for the algorithm's embedded policy or the name it was
// loaded by.
package policyparam

import (
	"cmp"
	"strings"

	"github.com/ccreplay/ccreplay/internal/keyval"
)

// Default is the path a configuration records for the embedded policy.
const Default = "default"

// Param is the "policy" key of a table of C: accepts says what it takes
// (the docs' bounds), doc what it is; slot reaches a configuration's
// policy and path, load loads any value but "default" (see set). It
// prints the path, "default" when none is recorded.
func Param[C, P any](accepts, doc string, slot func(*C) (**P, *string), load func(string) (*P, error)) *keyval.Param[C] {
	return keyval.Custom("policy", "file", accepts,
		func(c *C, v string) error {
			p, path := slot(c)
			return set(p, path, v, load)
		},
		func(c *C) string {
			_, path := slot(c)
			return cmp.Or(*path, Default)
		}).
		Default(Default).
		Doc(doc)
}

// set is the parameter's setter: "" and "default" leave the policy to
// Fill (nil, path "default"); any other value is loaded with load and
// recorded as the path.
func set[P any](policy **P, path *string, v string, load func(string) (*P, error)) error {
	v = strings.TrimSpace(v)
	if v == "" || v == Default {
		*policy, *path = nil, Default
		return nil
	}
	p, err := load(v)
	if err != nil {
		return err
	}
	*policy, *path = p, v
	return nil
}

// Fill loads the embedded policy with def when none is set.
func Fill[P any](policy **P, path *string, def func() (*P, error)) error {
	if *policy != nil {
		return nil
	}
	p, err := def()
	if err != nil {
		return err
	}
	*policy, *path = p, Default
	return nil
}
