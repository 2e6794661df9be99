package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// The command's own flags: --pfc on|off and --figure are checked here,
// the rest pass into the Request as given.
func TestCommandOptionsRequest(t *testing.T) {
	o := CommandOptions{Workload: "incast:n=2,size=1MB", CCA: "vegas", CCAParams: []string{"w0=3000"}, PFC: "on",
		Dt: "50ns", Horizon: "1ms", Record: "1us", Out: "x", Format: "csv", Figure: "png,svg", Seed: 7}
	var warned []string
	req, err := o.Request(func(w string) { warned = append(warned, w) })
	if err != nil || !req.PFC || req.CC != "vegas" || req.Seed != 7 || len(req.Figures) != 2 || req.Params[0] != "w0=3000" || req.Format != "csv" {
		t.Fatalf("request %+v, %v", req, err)
	}
	req.Warn("w")
	if len(warned) != 1 {
		t.Error("Warn is not the function given")
	}
	for _, c := range []struct{ pfc, figure, want string }{{"maybe", "png", "--pfc \"maybe\""}, {"off", "gif", "--figure"}} {
		o.PFC, o.Figure = c.pfc, c.figure
		_, err := o.Request(nil)
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--pfc %s --figure %s: %v, want a usage error with %q", c.pfc, c.figure, err, c.want)
		}
	}
}
