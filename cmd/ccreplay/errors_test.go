package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// checkOneErrorLine fails unless the invocation exited with code and wrote
// exactly one line, starting "ccreplay: ", to stderr and nothing to stdout.
func checkOneErrorLine(t *testing.T, r cliResult, code int) string {
	t.Helper()
	if r.code != code {
		t.Errorf("exit code %d, want %d\nstderr: %s", r.code, code, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "ccreplay: ") || !strings.HasSuffix(r.stderr, "\n") ||
		strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr is not one line starting \"ccreplay: \": %q", r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout not empty on error: %q", r.stdout)
	}
	return strings.TrimSuffix(r.stderr, "\n")
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	fix := t.TempDir()
	csv := func(name string, rows ...string) string { return writeFile(t, fix, name, csvTrace(rows...)) }
	file := func(name, content string) string { return writeFile(t, fix, name, content) }

	negTrace := csv("neg.csv", "1,0,1,1000,0,1,-1,,0", "2,1,2,-5,0,2,-1,,0")
	shortRow := csv("short.csv", "1,0,1,1000,0,1,-1,,0", "2,1,2,5,0,2,-1")
	longRow := csv("long.csv", "1,0,1,1000,0,1,-1,,0,9")
	nonNumeric := csv("nonnum.csv", "1,0,1,abc,0,1,-1,,0")
	cycle := csv("cycle.csv", "1,0,1,1000,0,1,-1,2,0", "2,1,0,1000,0,2,-1,1,0")
	badDep := csv("baddep.csv", "1,0,1,1000,0,1,-1,99,0")
	txt := file("trace.txt", csvTrace("1,0,1,1000,0,1,-1,,0"))
	badJSONL := file("bad.jsonl", "{\"id\": 1, \"src\": 0,\n")
	missing := filepath.Join(fix, "missing.csv")
	okTrace := csv("ok.csv", "1,0,1,1000,0,1,-1,,0")

	unknownKey := file("unknown.yaml", "workload: "+smallWorkload+"\nswitch:\n  bogus: 1\n")
	unknownTop := file("unknowntop.yaml", "workload: "+smallWorkload+"\nworkers: 3\n")
	badBuffer := file("badbuffer.yaml", "workload: "+smallWorkload+"\nswitch: {buffer: lots}\n")
	badSeed := file("badseed.yaml", "workload: "+smallWorkload+"\nseed: abc\n")
	kmaxBelow := file("kmax.yaml", "workload: "+smallWorkload+"\nswitch:\n  ecn: {kmin: 100KB, kmax: 5KB}\n")
	badPrio := file("prio.yaml", "workload: "+smallWorkload+"\nnic: {data_prio: 9}\n")
	badRTO := file("rto.yaml", "workload: "+smallWorkload+"\nnic: {rto: soon}\n")
	syntax := file("syntax.yaml", "workload: [\n")
	twoErrors := file("two.yaml", "workload: "+smallWorkload+"\nfoo: 1\nbar: 2\n")
	missingCfg := filepath.Join(fix, "missing.yaml")
	badCCAInFile := file("cca.yaml", "workload: "+smallWorkload+"\ncca_params: {nope: 1}\n")

	w := []string{"--workload", smallWorkload}
	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of the message
	}{
		// topology
		{"unknown topology kind", append(w, "--topology", "bogus:x=1"), ExitBadInput, []string{"topology", `"bogus"`}},
		{"unknown topology key", append(w, "--topology", "star:bogus=1"), ExitBadInput, []string{"star", `unknown key "bogus"`}},
		{"bad topology value", append(w, "--topology", "star:hosts=many"), ExitBadInput, []string{"topology", "many"}},
		{"topology too small", append(w, "--topology", "star:hosts=2"), ExitBadInput, []string{"2 hosts", "needs 5"}},
		{"missing hpcc topology file", append(w, "--topology", "hpcc:"+filepath.Join(fix, "nope.txt")), ExitBadInput, []string{"nope.txt"}},

		// traces
		{"negative size in trace", []string{"--trace", negTrace}, ExitBadInput, []string{negTrace + ":3:", "bytes", "-5"}},
		{"short row", []string{"--trace", shortRow}, ExitBadInput, []string{shortRow + ":3:", "7 fields, want 9"}},
		{"long row", []string{"--trace", longRow}, ExitBadInput, []string{longRow + ":2:", "10 fields, want 9"}},
		{"non-numeric field", []string{"--trace", nonNumeric}, ExitBadInput, []string{nonNumeric + ":2:", `"abc"`}},
		{"dependency cycle", []string{"--trace", cycle}, ExitBadInput, []string{cycle, "cycle"}},
		{"unknown dependency", []string{"--trace", badDep}, ExitBadInput, []string{badDep, "99"}},
		{"missing trace", []string{"--trace", missing}, ExitBadInput, []string{missing}},
		{"unknown extension", []string{"--trace", txt}, ExitBadInput, []string{txt, `".txt"`}},
		{"malformed jsonl", []string{"--trace", badJSONL}, ExitBadInput, []string{badJSONL}},

		// workload generator
		{"incast n=0", []string{"--workload", "incast:n=0"}, ExitBadInput, []string{"workload", "incast", "n="}},
		{"unknown generator", []string{"--workload", "shuffle:n=4"}, ExitBadInput, []string{"workload", "shuffle"}},
		{"bad generator size", []string{"--workload", "incast:n=2,size=big"}, ExitBadInput, []string{"workload", "big"}},

		// algorithm
		{"unknown cca", append(w, "--cca", "nope"), ExitBadInput, []string{`"nope"`, "dcqcn", "linerate"}},
		{"unknown preset", append(w, "--cca", "dcqcn:nope"), ExitBadInput, []string{`preset "nope"`, "zhu2015"}},
		{"unknown cca param", append(w, "--cca-param", "nope=1"), ExitBadInput, []string{`parameter "nope"`, "ai_rate"}},
		{"bad cca param value", append(w, "--cca-param", "ai_rate=-5Mbps"), ExitBadInput, []string{"ai_rate", "-5Mbps"}},
		{"cca param of another algorithm", append(w, "--cca", "linerate", "--cca-param", "ai_rate=5Mbps"), ExitBadInput, []string{"ai_rate"}},
		{"cca-param without =", append(w, "--cca-param", "ai_rate"), ExitUsage, []string{`"ai_rate"`, "KEY=VALUE"}},
		{"cca-param empty key", append(w, "--cca-param", "=5"), ExitUsage, []string{"KEY=VALUE"}},

		// command line
		{"both trace and workload", append(w, "--trace", okTrace), ExitUsage, []string{"--trace", "--workload"}},
		{"neither trace nor workload", nil, ExitUsage, []string{"--trace", "--workload"}},
		{"bad packets level", append(w, "--packets", "lots"), ExitUsage, []string{`"lots"`, "none"}},
		{"unknown flag", append(w, "--bogus"), ExitUsage, []string{"unknown flag: --bogus"}},
		{"flag without value", append(w, "--seed"), ExitUsage, []string{"--seed"}},
		{"negative seed", append(w, "--seed", "-1"), ExitUsage, []string{"--seed"}},
		{"positional argument", append(w, "extra"), ExitUsage, []string{`"extra"`}},
		{"bad max-time", append(w, "--max-time", "abc"), ExitUsage, []string{"--max-time", "abc"}},
		{"bad check period", append(w, "--check", "often"), ExitUsage, []string{"--check", "often"}},

		// configuration file
		{"config unknown key", []string{"--config", unknownKey}, ExitBadInput, []string{unknownKey + ":3:", "bogus"}},
		{"config unknown top-level key", []string{"--config", unknownTop}, ExitBadInput, []string{unknownTop + ":2:", "workers"}},
		{"config two errors", []string{"--config", twoErrors}, ExitBadInput, []string{twoErrors + ":2:", "foo"}},
		{"config bad size", []string{"--config", badBuffer}, ExitBadInput, []string{badBuffer, "switch.buffer", `"lots"`}},
		{"config bad seed", []string{"--config", badSeed}, ExitBadInput, []string{badSeed + ":2:", "abc"}},
		{"config kmax below kmin", []string{"--config", kmaxBelow}, ExitBadInput, []string{kmaxBelow, "kmin", "kmax"}},
		{"config data_prio out of range", []string{"--config", badPrio}, ExitBadInput, []string{badPrio, "data_prio"}},
		{"config bad duration", []string{"--config", badRTO}, ExitBadInput, []string{badRTO, "nic.rto", "soon"}},
		{"config syntax error", []string{"--config", syntax}, ExitBadInput, []string{syntax}},
		{"config missing", []string{"--config", missingCfg}, ExitBadInput, []string{missingCfg}},
		{"config unknown cca param", []string{"--config", badCCAInFile}, ExitBadInput, []string{`"nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"run", "--out", out}, tt.args...)
			msg := checkOneErrorLine(t, runCLI(t, args...), tt.code)
			for _, want := range tt.want {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			// Every case fails before the replay: nothing may look finished.
			for _, n := range dirNames(t, out) {
				if strings.HasSuffix(n, ".parquet") || n == runfolder.SummaryFile {
					t.Errorf("failed run left %s in the out dir", n)
				}
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	msg := checkOneErrorLine(t, runCLI(t, "replay"), ExitUsage)
	if !strings.Contains(msg, `unknown command "replay"`) {
		t.Errorf("message %q", msg)
	}
	checkOneErrorLine(t, runCLI(t, "--bogus"), ExitUsage)
	checkOneErrorLine(t, runCLI(t, "version", "--bogus"), ExitUsage)
}

// TestRunOutputNotWritable: an out path that cannot be a folder is a
// command-line mistake (exit 2) reported in one line before anything runs.
func TestRunOutputNotWritable(t *testing.T) {
	t.Parallel()
	f := writeFile(t, t.TempDir(), "afile", "x")
	msg := checkOneErrorLine(t, runCLI(t, "run", "--workload", smallWorkload, "--out", f), ExitUsage)
	if !strings.Contains(msg, "afile") {
		t.Errorf("message %q does not name the path", msg)
	}
	if b, _ := os.ReadFile(f); string(b) != "x" {
		t.Errorf("the file in the way was changed")
	}
}

// TestRunFailureKeepsPreviousRun: a failing second run into a finished run
// folder must not damage the files already there.
func TestRunFailureKeepsPreviousRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runCLI(t, "run", "--workload", smallWorkload, "--out", dir).mustSucceed(t)
	before, err := os.ReadFile(filepath.Join(dir, runfolder.FlowsFile))
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, t.TempDir(), "bad.csv", csvTrace("1,0,1,-1,0,1,-1,,0"))
	checkOneErrorLine(t, runCLI(t, "run", "--trace", bad, "--out", dir), ExitBadInput)
	after, err := os.ReadFile(filepath.Join(dir, runfolder.FlowsFile))
	if err != nil || string(before) != string(after) {
		t.Errorf(runfolder.FlowsFile+" changed by a failed run (err %v)", err)
	}
	checkNoTempFiles(t, dir)
}

// TestConfigUnknownKeyMessage: the message for an unknown key names the
// file, the line, the key and the section as a user writes it, not Go
// type names.
func TestConfigUnknownKeyMessage(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	tests := []struct {
		yaml, want string
	}{
		{"workload: x\nswitch:\n  bogus: 1\n", ":3: "},
		{"workload: x\nswitch:\n  ecn: {kmin: 5KB, bogus: 1}\n", ":3: "},
		{"workload: x\nnic:\n  pfc: true\n", ":3: "},
		{"workload: x\nworkers: 3\n", ":2: "},
	}
	goType := regexp.MustCompile(`struct \{|YAML\b|fileConfig|main\.|\*bool`)
	var leaks []string
	for i, tt := range tests {
		p := writeFile(t, tmp, "c"+string(rune('0'+i))+".yaml", tt.yaml)
		msg := checkOneErrorLine(t, runCLI(t, "run", "--config", p, "--out", filepath.Join(tmp, "out")), ExitBadInput)
		if !strings.Contains(msg, p+tt.want) {
			t.Errorf("message %q does not name %s%s", msg, p, tt.want)
		}
		if goType.MatchString(msg) {
			leaks = append(leaks, msg)
		}
	}
	if len(leaks) > 0 {
		t.Fatalf("unknown-key messages show Go type names instead of the YAML section:\n%s", strings.Join(leaks, "\n"))
	}
}

// TestConfigValueErrorsAreBadInput: a bad value that comes from the config
// file is bad input (exit 3) reported against the file, not a command-line
// error blaming a flag the user never gave.
func TestConfigValueErrorsAreBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, yaml, key string
	}{
		{"packets", "workload: " + smallWorkload + "\npackets: lots\n", "packets"},
		{"max_time", "workload: " + smallWorkload + "\nmax_time: soon\n", "max_time"},
		{"trace and workload", "workload: " + smallWorkload + "\ntrace: x.csv\n", "trace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			p := writeFile(t, tmp, "run.yaml", tt.yaml)
			r := runCLI(t, "run", "--config", p, "--out", filepath.Join(tmp, "out"))
			if r.code == ExitUsage {
				t.Fatalf("config file value reported as a command-line error (exit 2): %s", strings.TrimSpace(r.stderr))
			}
			msg := checkOneErrorLine(t, r, ExitBadInput)
			if !strings.Contains(msg, p) || !strings.Contains(msg, tt.key) {
				t.Errorf("message %q does not name the file and key %q", msg, tt.key)
			}
		})
	}
}
