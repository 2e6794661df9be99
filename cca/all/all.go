// Package all registers every congestion control algorithm ccreplay ships
// in one registry: the one list of algorithms the CLI, the fuzz targets
// and the tests that cover "every algorithm" share.
package all

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dctcp"
	"github.com/ccreplay/ccreplay/cca/dolce"
	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/cca/hpcc"
	"github.com/ccreplay/ccreplay/cca/linerate"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/cca/swift"
	"github.com/ccreplay/ccreplay/cca/timely"
)

// Registry returns a new registry holding every shipped algorithm.
func Registry() *cca.Registry {
	r := cca.NewRegistry()
	for _, reg := range []func(*cca.Registry){
		dcqcn.Register, dctcp.Register, dolce.Register, fdcc.Register, hpcc.Register,
		linerate.Register, rlcc.Register, swift.Register, timely.Register,
	} {
		reg(r)
	}
	return r
}
