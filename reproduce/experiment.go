package reproduce

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// Scale is how large an experiment is run.
type Scale string

const (
	// Small is the default: the paper's setup shrunk (fewer hosts, flows,
	// iterations or simulated time, each experiment says which) so that
	// it runs on a laptop in minutes.
	Small Scale = "small"
	// Full is the paper's own setup, as far as the paper states it.
	Full Scale = "full"
)

// ParseScale reads "small" or "full".
func ParseScale(s string) (Scale, error) {
	switch Scale(strings.TrimSpace(s)) {
	case Small:
		return Small, nil
	case Full:
		return Full, nil
	}
	return "", fmt.Errorf("unknown scale %q (want small or full)", s)
}

// Run is one simulation of an experiment.
type Run struct {
	// Label names the run inside the experiment's output folder, as a
	// relative path of hive-style partitions, e.g. "n=16/cca=dcqcn-hpcc".
	Label string
	// Config is everything the run takes, as a run.yaml gives it; Execute
	// writes it to OUT/configs/ so that `ccreplay run --config` reruns it.
	Config runconfig.File
}

// Outcome is what one run produced, as the claims read it: the run's
// metrics and the spans of its collectives, a digest that does not grow
// with the run's flows or messages. It holds no row of the run (Execute
// keeps every run's Outcome until all are judged: issue 33, finding 4);
// a measure that needs rows reads them back from the run folder (Dir),
// one run at a time (fromRun).
type Outcome struct {
	Run Run
	// Dir is the run's folder (inside the staged output while Execute
	// runs, the final place afterwards).
	Dir string
	// Done says the run finished and Summary and Spans are set.
	Done bool
	// Summary is the run's metrics (its summary.json's).
	Summary metrics.Summary
	// Spans are the run's collectives, by collective id: the first release
	// and the last finish of their messages (gen.AddSpan, folded as the
	// message rows pass), what the OSU report is made of (runner.OSUReport).
	// Empty when no message belongs to a collective.
	Spans map[int64]gen.Span

	// derived holds what measures computed from the run's files, by kind,
	// so that claims sharing a scan of packets.parquet read it once.
	derived map[string]any
}

// Outcomes are an experiment's runs by label.
type Outcomes map[string]*Outcome

// summary returns the summary of the run labelled label.
func (o Outcomes) summary(label string) (*metrics.Summary, error) {
	oc, ok := o[label]
	if !ok || !oc.Done {
		return nil, fmt.Errorf("no run %q", label)
	}
	return &oc.Summary, nil
}

// Kind says what a claim's number is and so how it is judged.
type Kind int

const (
	// Quantity is a measured value (a goodput, a mean FCT, a queue):
	// reproduced when ours / paper lies in [1/Factor, Factor].
	Quantity Kind = iota
	// Change is a relative difference between two setups, (B - A) / A (for
	// example -0.68 for "68 % lower"): reproduced when it has the paper's
	// sign and |ours| / |paper| lies in [1/Factor, Factor]; the same sign
	// alone is "same direction". A change smaller than NoChange in size
	// has no direction.
	Change
)

// NoChange is the size below which a Change has no direction (1 %).
const NoChange = 0.01

// Claim is one number a paper reports, with how ccreplay measures it.
type Claim struct {
	// ID is short and unique in the experiment, e.g. "n=16/dcqcn/goodput".
	ID string
	// What says in words what the number is.
	What string
	// Paper is the paper's value, in Unit.
	Paper float64
	// Unit is the unit of Paper and of what Measure returns: "" (a plain
	// number), "us", "%" (a Change is a fraction, printed as %), "B".
	Unit string
	// Kind and Factor decide the verdict (see Kind). Factor >= 1.
	Kind   Kind
	Factor float64
	// Measure computes ccreplay's value from the runs, in Unit.
	Measure func(Outcomes) (float64, error)
	// Note, when not empty, is what is known about a difference: its
	// cause, with the evidence (shown in the report and the docs).
	Note string
}

// Verdict is the result of judging one claim.
type Verdict string

const (
	// Reproduces: same direction and magnitude within the claim's factor.
	Reproduces Verdict = "reproduces"
	// SameDirection: a Change with the paper's sign, magnitude outside
	// the factor.
	SameDirection Verdict = "same direction"
	// Differs: outside the factor (Quantity) or the wrong or no direction
	// (Change).
	Differs Verdict = "differs"
)

// Judge applies the claim's rule to ccreplay's value.
func (c *Claim) Judge(ours float64) Verdict {
	if math.IsNaN(ours) || math.IsInf(ours, 0) {
		return Differs
	}
	within := func(a, b float64) bool {
		if a == 0 || b == 0 {
			return a == b
		}
		r := a / b
		return r >= 1/c.Factor && r <= c.Factor
	}
	switch c.Kind {
	case Change:
		if math.Abs(ours) < NoChange || math.Signbit(ours) != math.Signbit(c.Paper) {
			return Differs
		}
		if within(math.Abs(ours), math.Abs(c.Paper)) {
			return Reproduces
		}
		return SameDirection
	default:
		if within(ours, c.Paper) {
			return Reproduces
		}
		return Differs
	}
}

// Rule describes the claim's rule in words, for reports.
func (c *Claim) Rule() string {
	f := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", c.Factor), "0"), ".")
	if c.Kind == Change {
		return "same sign, size within x" + f
	}
	return "within x" + f
}

// Experiment is one table or figure of a paper.
type Experiment struct {
	// Name is what `ccreplay reproduce NAME` takes, e.g. "fdcc-table6.2".
	Name string
	// Paper names the paper and the table or figure, e.g. "FDCC (Zhang
	// 2023), Table 6.2".
	Paper string
	// Title says what the experiment shows, in one line.
	Title string
	// Setup describes the paper's setup, how ccreplay maps it, what the
	// paper leaves open and what each scale shrinks.
	Setup string
	// Runs lists the simulations at a scale.
	Runs func(Scale) []Run
	// Claims lists the paper's numbers checked at a scale.
	Claims func(Scale) []Claim
}

// registry holds every experiment, in the order --list shows them.
var registry []*Experiment

// register adds e; names are unique.
func register(e *Experiment) {
	for _, x := range registry {
		if x.Name == e.Name {
			panic("reproduce: experiment " + e.Name + " registered twice")
		}
	}
	registry = append(registry, e)
}

// All returns every experiment, sorted by name.
func All() []*Experiment {
	all := slices.Clone(registry)
	slices.SortFunc(all, func(a, b *Experiment) int { return strings.Compare(a.Name, b.Name) })
	return all
}

// Lookup returns the experiment called name.
func Lookup(name string) (*Experiment, error) {
	for _, e := range registry {
		if e.Name == name {
			return e, nil
		}
	}
	var names []string
	for _, e := range All() {
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("unknown experiment %q (known: %s; `ccreplay reproduce --list` describes them)", name, strings.Join(names, ", "))
}

// ListEntry is one experiment of `ccreplay reproduce --list`.
type ListEntry struct {
	Name  string `json:"name"`
	Paper string `json:"paper"`
	Title string `json:"title"`
	// Runs are its simulations at each scale (count).
	Runs struct {
		Small int `json:"small"`
		Full  int `json:"full"`
	} `json:"runs"`
}

// List is every experiment, in All's order.
func List() []ListEntry {
	var out []ListEntry
	for _, e := range All() {
		en := ListEntry{Name: e.Name, Paper: e.Paper, Title: e.Title}
		en.Runs.Small, en.Runs.Full = len(e.Runs(Small)), len(e.Runs(Full))
		out = append(out, en)
	}
	return out
}

// WriteList prints the experiments as a table: name, paper, simulations
// at the small and full scale, what it reproduces.
func WriteList(w io.Writer, list []ListEntry) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPAPER\tRUNS (small/full)\tWHAT")
	for _, en := range list {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\n", en.Name, en.Paper, en.Runs.Small, en.Runs.Full, en.Title)
	}
	return tw.Flush()
}
