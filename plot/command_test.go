package plot

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// okOptions are the command's defaults.
func okOptions() CommandOptions {
	return CommandOptions{Out: "plots", Formats: []string{"png", "svg"}, Views: Views, Bins: DefaultBins,
		TopPorts: DefaultTopPorts, TopFlows: DefaultTopFlows, Buckets: 10, Pool: "auto"}
}

// Every bad flag is a usage error naming the flag; the defaults pass.
func TestCommandOptionsValidate(t *testing.T) {
	o := okOptions()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range []struct {
		edit func(*CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.Formats = []string{"gif"} }, "--format \"gif\""},
		{func(o *CommandOptions) { o.Formats = nil }, "--format: give"},
		{func(o *CommandOptions) { o.Views = []string{"pie"} }, "--views \"pie\""},
		{func(o *CommandOptions) { o.Views = nil }, "--views: give"},
		{func(o *CommandOptions) { o.Pool = "maybe" }, "--pool \"maybe\""},
		{func(o *CommandOptions) { o.Bins = 0 }, "--bins must be between 1 and 100000, got 0"},
		{func(o *CommandOptions) { o.TopPorts = 100001 }, "--top-ports"},
		{func(o *CommandOptions) { o.TopFlows = -1 }, "--top-flows"},
		{func(o *CommandOptions) { o.Buckets = 0 }, "--buckets"},
	} {
		o := okOptions()
		c.edit(&o)
		err := o.Validate()
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a usage error with %q", o, err, c.want)
		}
	}
}

func TestParseFigureFormats(t *testing.T) {
	for in, want := range map[string][]string{"none": nil, "": nil, "png": {"png"}, "svg": {"svg"},
		"png,svg": {"png", "svg"}, "svg,png": {"png", "svg"}} {
		got, err := ParseFigureFormats(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	var ue *clierr.UsageError
	if _, err := ParseFigureFormats("gif"); !errors.As(err, &ue) {
		t.Errorf("gif: got %v, want a usage error", err)
	}
}
