package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A rule constrains the non-test code of the packages matching pkgs (and
// not except). With allow set (even empty), those packages may depend on
// no package of this module but the ones allow matches; every package
// matching deny is forbidden to them. Dependencies are transitive unless
// direct is set, in which case only the packages' own imports count.
//
// Patterns name packages relative to the module ("kernel", "cca/dcqcn"),
// or by full path outside it (anything whose first element has a dot,
// "github.com/spf13/cobra"). "x/..." matches x and every package below it,
// "x/*" only the packages below x, "..." every package of the module.
type rule struct {
	pkgs, except []string
	allow        []string
	deny         []string
	direct       bool
	why          string
}

// none is an allow list that admits nothing of this module.
var none = []string{}

var rules = []rule{
	// The bottom layers.
	{pkgs: []string{"units", "version"}, allow: none,
		why: "units (time, bytes, rates) and version are the leaves every layer may use: they depend on nothing of ours"},
	{pkgs: []string{"limits"}, allow: []string{"units"},
		why: "limits are the documented bounds on inputs; they are stated in units and nothing else"},
	{pkgs: []string{"telemetry"}, allow: []string{"units"},
		why: "the INT hop record sits below both the packet (fabric) and the algorithm boundary (cca), so neither imports the other"},
	{pkgs: []string{"internal/staging"}, allow: none,
		why: "naming and cleaning temporary outputs is file-system plumbing every writer may use: it depends on nothing of ours"},
	{pkgs: []string{"internal/errtest"}, allow: none,
		why: "tests only: the one check of an error against a table's wanted message is a leaf the packages' tests share"},
	{pkgs: []string{"internal/clierr"}, allow: none,
		why: "the typed errors behind the exit codes are a leaf: runconfig, sweep and the CLI share them without importing one another"},
	{pkgs: []string{"internal/procstat"}, allow: none,
		why: "measuring the process (peak memory) for the --stats lines is a leaf every command and reader may use"},
	{pkgs: []string{"internal/iostreams"}, allow: none,
		why: "the streams a command's run writes to are plumbing every package a command drives may take: they depend on nothing of ours"},
	{pkgs: []string{"internal/progress"}, allow: []string{"units"},
		why: "the terminal's status line is plumbing every command and batch may use: it knows what it shows only as text"},
	{pkgs: []string{"internal/membudget"}, deny: []string{"cca/*", "rl/...", "runner", "runconfig", "batch/...", "metrics/...", "plot"}, direct: true,
		why: "the memory check compares the replay's own estimate with a budget: it runs, resolves and measures nothing"},
	{pkgs: []string{"internal/interrupt"}, allow: []string{"internal/clierr"},
		why: "turning signals into a cancelled context is process plumbing under the CLI: it knows only the exit code it ends with"},
	{pkgs: []string{"internal/runstats"}, deny: []string{"cca/*", "rl/...", "runner", "runconfig", "batch/...", "metrics/...", "plot"}, direct: true,
		why: "the --stats line formats a replay's result and the process's memory: it runs and measures nothing else"},
	{pkgs: []string{"internal/shellquote"}, allow: none,
		why: "quoting a word for a POSIX shell is text batch (Slurm scripts) and report (the commands it prints) share without importing one another: it depends on nothing of ours"},
	{pkgs: []string{"internal/splitmix"}, allow: none,
		why: "the one 64-bit mixing function (seeds, hashes) is arithmetic every layer may use: it depends on nothing of ours"},
	{pkgs: []string{"kernel"}, allow: []string{"units", "limits", "internal/splitmix"},
		why: "the event kernel schedules events in time; it knows nothing of what it simulates"},

	// The simulated network.
	{pkgs: []string{"fabric"}, allow: []string{"kernel", "units", "limits", "telemetry", "internal/splitmix"},
		why: "packets and ports are what NICs and switches share; they must not know algorithms, NICs, switches or the replay"},
	{pkgs: []string{"switchmodel"}, allow: []string{"fabric", "kernel", "units", "limits", "telemetry", "internal/splitmix"},
		why: "a switch queues, marks, pauses and stamps INT; congestion control (cca) and the replay wiring are not its business"},
	{pkgs: []string{"nic"}, allow: []string{"cca", "fabric", "kernel", "units", "limits", "telemetry", "internal/splitmix"},
		why: "the NIC drives an algorithm only through the cca.Algorithm interface, never a concrete algorithm, and never the replay"},

	// Congestion control.
	{pkgs: []string{"cca"}, allow: []string{"units", "telemetry"},
		why: "the algorithm boundary is a pure interface plus the registry"},
	{pkgs: []string{"cca/..."}, allow: []string{"cca/...", "internal/keyval", "internal/splitmix", "units", "limits", "telemetry", "rl/nn", "rl/gbt"},
		why: "algorithms are pure state machines: no event queue, clock, packets, NIC, switch, replay or training code"},
	{pkgs: []string{"cca/..."}, deny: []string{"rl/nn/learn", "rl/gbt/fit", "rl/reward", "rl/train", "rl/distill", "rl/dataset", "rl/eval", "rl/scenario", "rl/td3", "rl/fdcctrain", "rl/heldout"},
		why: "the RL-CC runtime evaluates a policy (forward pass, tree prediction, model readers); training stays out of every run"},

	// Workloads, topologies and their importers.
	{pkgs: []string{"trace/..."}, except: []string{"trace/gen/cli"}, allow: []string{"trace/...", "units", "limits", "internal/staging"},
		why: "a workload is data: traces and generators never depend on the simulator (replay, nic, switchmodel, fabric, kernel) or on algorithms"},
	{pkgs: []string{"topology"}, allow: []string{"units", "limits", "internal/splitmix"},
		why: "a topology is data: it never depends on the simulator that runs on it"},
	{pkgs: []string{"ingest/...", "hpccfmt"}, except: []string{"ingest/cli"}, allow: []string{"ingest/...", "trace", "units", "limits", "batch/pool", "internal/staging"},
		why: "importers turn captures and other simulators' files into a trace; they never run the replay"},
	{pkgs: []string{"ingest/cli"}, deny: []string{"replay/...", "runner", "batch", "nic", "switchmodel", "fabric", "kernel", "cca/...", "rl/...", "plot"}, direct: true,
		why: "ccreplay ingest reads a capture (ingest) or an application trace (runconfig's loaders), reports it and writes the trace: it runs nothing"},
	{pkgs: []string{"trace/gen/cli"}, allow: []string{"trace/...", "replay", "internal/clierr", "internal/iostreams"}, direct: true,
		why: "ccreplay gen builds a trace and sizes it against the replay's memory estimate (replay.MemBase, FormatMemory): it runs nothing"},
	{pkgs: []string{"..."}, except: []string{"ingest/..."}, deny: []string{"github.com/google/gopacket/..."}, direct: true,
		why: "every gopacket import lives under ingest"},

	// Outputs and metrics.
	{pkgs: []string{"schema/v1"}, allow: none,
		why: "the output row types are the contract with readers (Arrow, DuckDB, notebooks); they depend on nothing"},
	{pkgs: []string{"schema/v2"}, allow: []string{"schema/v1"},
		why: "the current row types depend only on version 1's, whose unchanged rows they name as aliases"},
	{pkgs: []string{"metrics/..."}, deny: []string{"replay/...", "nic", "switchmodel", "fabric", "kernel", "cca/...", "rl/..."},
		why: "metrics are a pure function of the output rows: they read runs, they never simulate one"},
	{pkgs: []string{"runfolder"}, allow: []string{"schema/...", "output", "internal/staging", "limits", "units"},
		why: "the run-folder contract (file names, manifest, staging, finding and opening folders) sits under every writer and reader; it carries metrics as JSON and knows neither the metric set nor the engine"},
	{pkgs: []string{"metrics/inspect"}, allow: []string{"metrics", "metrics/arrowread", "runfolder", "schema/...", "output", "trace/...", "internal/clierr", "internal/iostreams", "internal/procstat", "internal/staging", "units", "limits"},
		why: "ccreplay metrics reads finished run folders and prints what it recomputes: it never runs, configures or orchestrates a simulation (the OSU report is a function its caller gives)"},
	{pkgs: []string{"fidelity"}, allow: []string{"hpccfmt", "metrics", "metrics/arrowread", "runfolder", "schema/...", "output", "trace", "units", "limits", "internal/clierr", "internal/iostreams", "internal/staging"},
		why: "the cross-check compares finished runs and flow-completion files: it never simulates"},

	// The engine and what sits on top of it.
	{pkgs: []string{"replay/..."}, deny: []string{"cca/*", "rl/...", "plot", "ingest/...", "hpccfmt"},
		why: "the replay runs whatever cca.Spec it is given: it knows no concrete algorithm, no training, plotting or importer"},
	{pkgs: []string{"replay"}, deny: []string{"output", "metrics/...", "runner", "batch/..."}, direct: true,
		why: "the engine writes nothing and summarises nothing: packet rows go to the sink it is given; package runner computes the metrics and writes the run folder (files, manifest); replay names only runfolder.Collapse (CollapseCheck)"},
	{pkgs: []string{"runner"}, deny: []string{"cca/*", "rl/...", "plot", "ingest/...", "hpccfmt", "runconfig", "batch/..."}, direct: true,
		why: "runner writes one resolved scenario's run folder; resolving inputs (runconfig) and running many (batch) sit above it"},
	{pkgs: []string{"runner/cli"}, deny: []string{"cca/*", "rl/...", "sweep", "netcalc/...", "estimate"},
		why: "the run and compare commands as Go calls resolve their inputs through runconfig and build algorithms only through the registry they are given: no concrete algorithm, trainer, sweep or model"},
	{pkgs: []string{"rl/nn", "rl/gbt", "rl/reward"}, allow: none,
		why: "models and rewards are plain math that both the runtime and the trainers build on"},
	{pkgs: []string{"rl/gbt/internal/gbttest"}, allow: []string{"rl/gbt"},
		why: "tests only: the data and model check the tree tests share; no training package, so rl/gbt/fit's tests can import it"},
	{pkgs: []string{"netcalc"}, allow: []string{"units"},
		why: "the network-calculus model is min-plus algebra on curves: it never runs the packet replay it is compared with"},
	{pkgs: []string{"netcalc/scenario"}, deny: []string{"cca/*", "rl/...", "sweep", "reproduce", "batch"},
		why: "netcalc's runs map a workload onto the model and compare it with a replay resolved by runconfig and run by runner: no concrete algorithm, trainer or other orchestration"},
	{pkgs: []string{"netcalc/scenario"}, deny: []string{"ingest/...", "hpccfmt", "replay/...", "nic", "switchmodel", "kernel"}, direct: true,
		why: "inputs are resolved by runconfig and the replay run by runner: the scenario reaches into no importer and no part of the engine but the packets its tap observes (fabric)"},
	{pkgs: []string{"rl/td3"}, allow: []string{"rl/nn", "rl/nn/learn"},
		why: "TD3 is a learning rule on networks: it knows no simulator, algorithm or reward"},

	{pkgs: []string{"estimate"}, deny: []string{"cca/*", "nic", "switchmodel", "fabric", "kernel", "rl/...", "ingest/...", "hpccfmt", "runconfig"}, direct: true,
		why: "the estimate decomposes a run into link simulations that are ordinary replay runs: it reaches into no model and knows no concrete algorithm, so every registered one runs through it unchanged"},

	{pkgs: []string{"estimate/cli"}, deny: []string{"cca/*", "nic", "switchmodel", "fabric", "kernel", "rl/...", "ingest/...", "hpccfmt", "runner", "sweep", "reproduce", "plot"}, direct: true,
		why: "the estimate commands check flag values, resolve the scenario (runconfig), run the estimate and its link folder and print what they return: no concrete algorithm, no part of the engine, no other kind of run"},

	{pkgs: []string{"compare"}, deny: []string{"cca/*", "nic", "switchmodel", "fabric", "kernel", "rl/...", "ingest/...", "hpccfmt", "plot", "sweep", "reproduce", "netcalc"}, direct: true,
		why: "a comparison is resolved run configurations (runconfig) run side by side over the batch executor and tabulated: it builds algorithms only through the setup it is given and reaches into no model"},
	{pkgs: []string{"reproduce"}, deny: []string{"cca/*", "nic", "switchmodel", "fabric", "kernel", "rl/...", "ingest/..."}, direct: true,
		why: "a paper's experiment is run configurations (runconfig) a user could write, replayed and judged: it builds algorithms only through the registry it is given and reaches into no model"},

	// Batches.
	{pkgs: []string{"batch/pool"}, allow: none,
		why: "the one pool runs jobs by index; importers fan out over it without depending on what a run is"},
	{pkgs: []string{"batch"}, allow: []string{"batch/pool", "output", "internal/shellquote", "internal/staging", "schema/...", "runfolder", "limits", "units"},
		why: "the batch executor runs items into run folders and reads their manifests; what an item runs (the replay, a dataset, a link simulation) is the plan builder's business"},

	{pkgs: []string{"reproduce"}, deny: []string{"cca/*", "rl/...", "sweep", "netcalc"},
		why: "reproduce depends on no concrete algorithm and no trainer even through another package, and is not built on sweeps or the network-calculus model"},

	// Orchestration and figures.
	{pkgs: []string{"plot"}, allow: []string{"fidelity", "hpccfmt", "metrics/...", "output", "runfolder", "internal/clierr", "internal/iostreams", "internal/staging", "schema/...", "trace/...", "units", "limits"},
		why: "figures are drawn from finished run folders (and fidelity reports): plot never configures or runs a simulation"},
	{pkgs: []string{"report"}, deny: []string{"replay/...", "runner", "nic", "switchmodel", "fabric", "kernel", "cca/...", "rl/...", "batch/...", "estimate", "runconfig", "netcalc", "ingest/...", "trace/...", "topology"}, direct: true,
		why: "a report reads finished outputs (run folders, comparisons, sweeps, reproductions, estimates) through their readers: it configures, runs and models nothing itself"},
	{pkgs: []string{"runconfig"}, deny: []string{"cca/*", "rl/...", "plot", "metrics/arrowread", "fidelity", "sweep", "reproduce", "netcalc"},
		why: "a run's configuration is resolved against the algorithm registry it is given (never a concrete algorithm); it neither measures, plots nor orchestrates runs"},
	{pkgs: []string{"sweep"}, deny: []string{"replay/...", "nic", "switchmodel", "fabric", "kernel", "cca/*", "rl/...", "reproduce"}, direct: true,
		why: "a sweep is a plan of resolved run configurations (runconfig) and their folders: it runs them through the function it is given and reaches into no model"},
	{pkgs: []string{"rl/train", "rl/distill", "rl/fdcctrain"}, deny: []string{"plot", "sweep", "reproduce", "runconfig", "metrics/arrowread", "fidelity", "ingest/...", "hpccfmt"},
		why: "a trainer runs its own scenarios through the replay and writes its policy folder: no importers, figures, sweeps or CLI configuration"},
	{pkgs: []string{"..."}, except: []string{"rl/...", "cmd/..."}, deny: []string{"rl/train", "rl/distill", "rl/fdcctrain", "rl/td3", "rl/nn/learn", "rl/gbt/fit", "rl/dataset"},
		why: "training code is reached only from the CLI: no run, sweep or reproduction depends on a trainer"},

	{pkgs: []string{"rl/cli"}, deny: []string{"replay/...", "nic", "switchmodel", "fabric", "kernel", "runner", "sweep", "reproduce", "plot"}, direct: true,
		why: "the learning commands check flag values, run the trainers and evaluators and print what they return: they reach into no part of the engine and orchestrate no other kind of run"},

	// The command line.
	{pkgs: []string{"..."}, except: []string{"cmd/..."}, deny: []string{"cmd/..."},
		why: "the CLI is the top of the graph: nothing imports it"},
	{pkgs: []string{"..."}, except: []string{"cmd/..."}, deny: []string{"github.com/spf13/cobra/...", "github.com/spf13/pflag/..."},
		why: "cobra and pflag are the CLI's choice: library packages take options as Go values"},
}

// pkg is what go list reports about one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	Standard   bool
	Module     *struct{ Path string }
}

// graph is the module's packages and everything they depend on.
type graph struct {
	module string
	pkgs   map[string]*pkg
	ours   []string // this module's packages, sorted
}

func load(t *testing.T) *graph {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if err := readSources(root); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "list", "-e", "-deps", "-json=ImportPath,Imports,Deps,Standard,Module", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	mod, err := exec.Command(goTool, "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	g := &graph{module: strings.TrimSpace(string(mod)), pkgs: map[string]*pkg{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		g.pkgs[p.ImportPath] = &p
		if p.Module != nil && p.Module.Path == g.module {
			g.ours = append(g.ours, p.ImportPath)
		}
	}
	slices.Sort(g.ours)
	if len(g.ours) < 20 {
		t.Fatalf("go list found %d packages of %s, want the whole module", len(g.ours), g.module)
	}
	return g
}

// moduleRoot is the directory of the go.mod above the test's directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the test directory")
		}
		dir = up
	}
}

// readSources reads every directory of the module and every non-test Go
// file in it. The test learns the imports from a go list subprocess, whose
// reads go test's result cache does not see; reading the sources here
// makes any edit of an import (or a new package) invalidate a cached pass.
func readSources(root string) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module (tests/duckdb)
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") || name == "go.mod" {
			_, err := os.ReadFile(path)
			return err
		}
		return nil
	})
}

// full turns a pattern into a full import path pattern.
func (g *graph) full(pattern string) string {
	first, _, _ := strings.Cut(pattern, "/")
	switch {
	case pattern == "...":
		return g.module + "/..."
	case strings.Contains(first, "."):
		return pattern
	default:
		return g.module + "/" + pattern
	}
}

// match reports whether import path p matches the pattern.
func (g *graph) match(pattern, p string) bool {
	pat := g.full(pattern)
	if base, ok := strings.CutSuffix(pat, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	if base, ok := strings.CutSuffix(pat, "/*"); ok {
		return strings.HasPrefix(p, base+"/")
	}
	return p == pat
}

func (g *graph) matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if g.match(pat, p) {
			return true
		}
	}
	return false
}

func (g *graph) ourPkg(p string) bool {
	q := g.pkgs[p]
	return q != nil && q.Module != nil && q.Module.Path == g.module
}

// short strips the module path for messages.
func (g *graph) short(p string) string {
	if s, ok := strings.CutPrefix(p, g.module+"/"); ok {
		return s
	}
	return p
}

// chain is the shortest import chain from one package to another, for
// the message of a transitive violation: "a -> b -> c".
func (g *graph) chain(from, to string) string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var path []string
			for q := to; q != ""; q = prev[q] {
				path = append(path, g.short(q))
			}
			slices.Reverse(path)
			return strings.Join(path, " -> ")
		}
		if q := g.pkgs[p]; q != nil {
			for _, im := range q.Imports {
				if _, seen := prev[im]; !seen {
					prev[im] = p
					queue = append(queue, im)
				}
			}
		}
	}
	return g.short(from) + " -> ... -> " + g.short(to)
}

// check returns one message per violation of r.
func (g *graph) check(r rule) []string {
	var msgs []string
	for _, p := range g.ours {
		if !g.matchAny(r.pkgs, p) || g.matchAny(r.except, p) {
			continue
		}
		deps := g.pkgs[p].Deps
		if r.direct {
			deps = g.pkgs[p].Imports
		}
		for _, d := range deps {
			var bad bool
			switch {
			case g.matchAny(r.deny, d):
				bad = true
			case r.allow != nil && g.ourPkg(d) && !g.matchAny(r.allow, d):
				bad = true
			}
			if !bad {
				continue
			}
			verb := "imports"
			how := ""
			if !slices.Contains(g.pkgs[p].Imports, d) {
				verb = "depends on"
				how = " (" + g.chain(p, d) + ")"
			}
			msgs = append(msgs, fmt.Sprintf("%s %s %s%s", g.short(p), verb, g.short(d), how))
		}
	}
	return msgs
}

// TestImportDirections checks every rule of the table.
func TestImportDirections(t *testing.T) {
	g := load(t)
	for i, r := range rules {
		for _, m := range g.check(r) {
			t.Errorf("rule %d (%s): %s\n\twhy the rule exists: %s", i+1, strings.Join(r.pkgs, ", "), m, r.why)
		}
	}
}

// TestRulesNameRealPackages: every pattern of this module in the table
// matches a package, so a move or rename cannot leave a rule checking
// nothing.
func TestRulesNameRealPackages(t *testing.T) {
	g := load(t)
	for i, r := range rules {
		for _, list := range [][]string{r.pkgs, r.except, r.allow, r.deny} {
			for _, pat := range list {
				if !strings.HasPrefix(g.full(pat), g.module) {
					continue // a third-party package: the module may not use it at all
				}
				if !slices.ContainsFunc(g.ours, func(p string) bool { return g.match(pat, p) }) {
					t.Errorf("rule %d (%s): pattern %q matches no package of %s", i+1, r.why, pat, g.module)
				}
			}
		}
	}
}

// TestRuleCheckerCatchesViolations runs the checker on a made-up graph, so
// that a bug in it cannot make TestImportDirections pass vacuously.
func TestRuleCheckerCatchesViolations(t *testing.T) {
	const m = "example.com/mod"
	ours := &struct{ Path string }{m}
	g := &graph{module: m, pkgs: map[string]*pkg{}}
	add := func(path string, imports ...string) {
		p := &pkg{ImportPath: path, Module: ours}
		if !strings.HasPrefix(path, m) {
			p.Module = nil
		}
		p.Imports = imports
		g.pkgs[path] = p
		if p.Module != nil {
			g.ours = append(g.ours, path)
		}
	}
	add(m + "/units")
	add(m+"/kernel", m+"/units")
	add(m+"/fabric", m+"/kernel", m+"/cca")
	add(m+"/cca", m+"/units", "github.com/spf13/cobra")
	add("github.com/spf13/cobra")
	// Deps: the transitive closure.
	for _, p := range g.pkgs {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(q string) {
			for _, im := range g.pkgs[q].Imports {
				if !seen[im] {
					seen[im] = true
					walk(im)
				}
			}
		}
		walk(p.ImportPath)
		for d := range seen {
			p.Deps = append(p.Deps, d)
		}
		slices.Sort(p.Deps)
	}
	got := g.check(rule{pkgs: []string{"fabric"}, allow: []string{"kernel", "units"}})
	if !slices.Equal(got, []string{"fabric imports cca"}) {
		t.Errorf("allow list: %q", got)
	}
	got = g.check(rule{pkgs: []string{"..."}, except: []string{"cca"}, deny: []string{"github.com/spf13/cobra/..."}})
	if !slices.Equal(got, []string{"fabric depends on github.com/spf13/cobra (fabric -> cca -> github.com/spf13/cobra)"}) {
		t.Errorf("deny, transitive: %q", got)
	}
	got = g.check(rule{pkgs: []string{"..."}, except: []string{"cca"}, deny: []string{"github.com/spf13/cobra/..."}, direct: true})
	if len(got) != 0 {
		t.Errorf("deny, direct: %q", got)
	}
	if !g.match("cca/*", m+"/cca/x/y") || g.match("cca/*", m+"/cca") || !g.match("cca/...", m+"/cca") || g.match("cca/...", m+"/ccax") {
		t.Error("pattern matching")
	}
}
