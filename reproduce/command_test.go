package reproduce

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
)

// Bad flags are usage errors before anything runs; the default output
// folder is reproduce-NAME-SCALE.
func TestCommandOptions(t *testing.T) {
	for _, c := range []struct {
		o    CommandOptions
		want string
	}{
		{CommandOptions{Name: "nosuch", Scale: "small", Parallel: 1}, "unknown experiment"},
		{CommandOptions{Name: "fdcc-table6.2", Scale: "huge", Parallel: 1}, "--scale"},
		{CommandOptions{Name: "fdcc-table6.2", Scale: "small", Parallel: 0}, "--parallel must be >= 1, got 0"},
		{CommandOptions{Name: "fdcc-table6.2", Scale: "small", Parallel: 1, Figures: "gif"}, "--figure"},
	} {
		err := c.o.Run(t.Context(), iostreams.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a usage error with %q", c.o, err, c.want)
		}
	}
	o := CommandOptions{Name: "fdcc-table6.2", Scale: "full", Parallel: 2, Figures: "svg", Out: "ignored"}
	e, opt, err := o.options()
	if err != nil || e.Name != "fdcc-table6.2" || opt.Out != "reproduce-fdcc-table6.2-full" || o.Out != opt.Out ||
		opt.Parallel != 2 || len(opt.Figures) != 1 || opt.Progress != nil {
		t.Errorf("options: %v %+v", err, opt)
	}
	var out bytes.Buffer
	if err := (&CommandOptions{List: true}).Run(t.Context(), iostreams.Streams{Out: &out}); err != nil || !strings.Contains(out.String(), "fdcc-table6.2") {
		t.Errorf("--list: %v\n%s", err, out.String())
	}
}
