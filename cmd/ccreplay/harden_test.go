package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/runfolder"
)

// The regression tests of issue 33's classes 2, 5, 6 and 8 (docs/LIMITS.md):
// every reader bounded, no bad value taken silently, every message naming
// the file, line or key in our words, and the smaller findings.

// sparse makes a file of size bytes that takes no disk space (a hole):
// a reader must refuse it from its size, without reading it.
func sparse(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	testfiles.Sparse(t, p, size)
	return p
}

// zeroLink makes name a symbolic link to /dev/zero, an endless input.
func zeroLink(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	testfiles.ZeroLink(t, p)
	return p
}

// copyTree copies the regular files below src to dst and returns dst.
func copyTree(t *testing.T, src, dst string) string {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// copyWithout copies src to dst without its file rel, for the test to put
// a damaged one in its place, and returns dst.
func copyWithout(t *testing.T, src, dst, rel string) string {
	t.Helper()
	copyTree(t, src, dst)
	if err := os.Remove(filepath.Join(dst, rel)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// mkdirIn makes the folder name inside dir and returns its path.
func mkdirIn(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// smallRun writes a run folder (no packets.parquet unless packets) and
// returns its path.
func smallRun(t *testing.T, dir, name string, packets bool) string {
	t.Helper()
	out := filepath.Join(dir, name)
	level := "none"
	if packets {
		level = "data"
	}
	runCLI(t, "run", "--workload", "incast:n=2,size=64KB", "--packets", level, "--out", out).mustSucceed(t)
	return out
}

// Class 2: every reader refuses a file larger than its kind may be from
// its size, and an endless input (/dev/zero) at its bound or at once when
// the format needs a regular file, in one line, well within a second or
// two.
func TestBoundedReaders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := smallRun(t, dir, "run", false)

	bigSummary := copyWithout(t, run, filepath.Join(dir, "bigsummary"), runfolder.SummaryFile)
	sparse(t, bigSummary, runfolder.SummaryFile, limits.MaxRunJSONBytes+1)
	zeroSummary := copyWithout(t, run, filepath.Join(dir, "zerosummary"), runfolder.SummaryFile)
	zeroLink(t, zeroSummary, runfolder.SummaryFile)

	bigSweep := mkdirIn(t, dir, "bigsweep")
	sparse(t, bigSweep, runfolder.SweepManifestFile, limits.MaxSweepJSONBytes+1)
	zeroSweep := mkdirIn(t, dir, "zerosweep")
	zeroLink(t, zeroSweep, runfolder.SweepManifestFile)

	evt := copyWithout(t, "../../examples/otf2_halo8", filepath.Join(dir, "otf2"), filepath.Join("traces", "3.evt"))
	zeroLink(t, filepath.Join(evt, "traces"), "3.evt")

	w := []string{"--workload", "incast:n=2,size=1KB"}
	runArgs := func(a ...string) []string {
		return append([]string{"run", "--packets", "none", "--out", filepath.Join(dir, "out")}, a...)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"csv over the bound", runArgs("--trace", sparse(t, dir, "big.csv", limits.MaxTextTraceBytes+1)), "more than 64 GiB, the limit of a CSV trace"},
		{"csv endless line", runArgs("--trace", zeroLink(t, dir, "z.csv")), "z.csv:1: the line is longer than 64 MiB"},
		{"jsonl over the bound", runArgs("--trace", sparse(t, dir, "big.jsonl", limits.MaxTextTraceBytes+1)), "the limit of a JSON Lines trace"},
		{"jsonl endless line", runArgs("--trace", zeroLink(t, dir, "z.jsonl")), "z.jsonl:1: the line is longer than 64 MiB"},
		{"parquet over the bound", runArgs("--trace", sparse(t, dir, "big.parquet", limits.MaxTextTraceBytes+1)), "the limit of a Parquet trace"},
		{"parquet device", runArgs("--trace", zeroLink(t, dir, "z.parquet")), "is a character device; a Parquet trace must be a regular file"},
		{"config over the bound", runArgs("--config", sparse(t, dir, "big.yaml", limits.MaxConfigBytes+1)), "more than 1 MiB, the limit of a YAML configuration"},
		{"config endless", runArgs("--config", zeroLink(t, dir, "z.yaml")), "more than 1 MiB, the limit of a YAML configuration"},
		{"otf2 anchor over the bound", runArgs("--trace", sparse(t, dir, "big.otf2", limits.MaxOTF2AnchorBytes+1)), "the limit of an OTF2 anchor file"},
		{"otf2 anchor device", runArgs("--trace", zeroLink(t, dir, "z.otf2")), "an OTF2 anchor file must be a regular file"},
		{"otf2 evt device", runArgs("--trace", filepath.Join(evt, "traces.otf2")), "3.evt: is a character device; an OTF2 file must be a regular file"},
		{"chakra over the bound", runArgs("--trace", sparse(t, dir, "big.0.et", limits.MaxChakraBytes+1)), "the limit of a Chakra .et file"},
		{"chakra device", runArgs("--trace", zeroLink(t, dir, "z.0.et")), "a Chakra .et file must be a regular file"},
		{"policy over the bound", runArgs(append(w, "--cca", "rlcc", "--cca-param", "policy="+sparse(t, dir, "big.json", limits.MaxPolicyBytes+1))...), "the limit of a policy file"},
		{"policy device", runArgs(append(w, "--cca", "rlcc", "--cca-param", "policy="+zeroLink(t, dir, "z.json"))...), "a policy file must be a regular file"},
		{runfolder.SummaryFile + " over the bound", []string{"metrics", bigSummary}, "the limit of a " + runfolder.SummaryFile},
		{runfolder.SummaryFile + " device", []string{"metrics", zeroSummary}, "a " + runfolder.SummaryFile + " must be a regular file"},
		{runfolder.SweepManifestFile + " over the bound (status)", []string{"sweep", "status", bigSweep}, "the limit of a " + runfolder.SweepManifestFile},
		{runfolder.SweepManifestFile + " device (status)", []string{"sweep", "status", zeroSweep}, "a " + runfolder.SweepManifestFile + " must be a regular file"},
		{runfolder.SweepManifestFile + " over the bound (collect)", []string{"sweep", "collect", bigSweep}, "the limit of a " + runfolder.SweepManifestFile},
		{runfolder.SweepManifestFile + " device (collect)", []string{"sweep", "collect", zeroSweep}, "a " + runfolder.SweepManifestFile + " must be a regular file"},
		{"capture over the bound", []string{"ingest", sparse(t, dir, "big.pcap", limits.MaxCaptureBytes+1)}, "the limit of a packet capture"},
		{runfolder.FCTFile + " endless line", []string{"validate", "--ns3-fct", zeroLink(t, dir, runfolder.FCTFile), run}, runfolder.FCTFile + ":1: line longer than 1 MiB"},
		{runfolder.FCTFile + " over the bound", []string{"validate", "--ns3-fct", sparse(t, dir, "big.txt", limits.MaxTableBytes+1), run}, "the limit of an " + runfolder.FCTFile},
	} {
		start := time.Now()
		r := runCLI(t, c.args...)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: took %v", c.name, took)
		}
		if r.code != ExitBadInput || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 3 and one line with %q", c.name, r.code, r.stderr, c.want)
		}
	}
}

// Class 5: values the readers used to take silently (rounded, wrapped,
// ignored) are refused in one line naming the file, line or key.
func TestBadValuesRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, content string) string { return writeFile(t, dir, name, content) }
	wl := "workload: incast:n=2,size=1KB\n"
	cfg := writeScenario(t, "1")
	stop0 := filepath.Join(filepath.Dir(cfg), "stop0.txt")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(stop0, []byte(strings.Replace(string(b), "SIMULATOR_STOP_TIME 4.00", "SIMULATOR_STOP_TIME 0", 1)), 0o644)

	runArgs := runArgsInto(dir)
	w := []string{"--workload", "incast:n=2,size=1KB"}
	checkBadCases(t, []badCase{
		{"yaml seed beyond uint64", runArgs("--config", file("s1.yaml", wl+"seed: 18446744073709551616\n")), ExitBadInput,
			`s1.yaml:2: seed: "18446744073709551616" is out of range (want 0 .. 18446744073709551615)`},
		{"yaml seed not whole", runArgs("--config", file("s2.yaml", wl+"seed: 1.5\n")), ExitBadInput, `s2.yaml:2: seed: "1.5" is not a non-negative integer`},
		{"yaml mtu not whole", runArgs("--config", file("s3.yaml", wl+"nic: {mtu_payload: 1.5}\n")), ExitBadInput, `nic.mtu_payload: size "1.5" is not a whole number of bytes`},
		{"yaml second document", runArgs("--config", file("s4.yaml", wl+"---\nseed: 3\n")), ExitBadInput, "s4.yaml:2: a second YAML document"},
		{"ppn 0 for OTF2", runArgs("--trace", "../../examples/otf2_halo8/traces.otf2", "--ppn", "0"), ExitUsage, "--ppn 0: want the MPI ranks per host, an integer >= 1"},
		{"ppn -3 for OTF2", runArgs("--trace", "../../examples/otf2_halo8/traces.otf2", "--ppn", "-3"), ExitUsage, "--ppn -3"},
		{"compute scale -1 for a generated workload", runArgs(append(w, "--compute-scale", "-1")...), ExitUsage, "--compute-scale -1: want a factor on compute gaps"},
		{"empty jsonl", runArgs("--trace", file("e.jsonl", "")), ExitBadInput, "e.jsonl: the trace has no messages"},
		{"header-only csv", runArgs("--trace", file("h.csv", traceHeader+"\n")), ExitBadInput, "h.csv: the trace has no messages"},
		{"hpcc stop time 0", runArgs("--hpcc-config", stop0), ExitBadInput, "stop0.txt:12: SIMULATOR_STOP_TIME: 0 stops the simulator before anything happens"},
	})
}

// Class 5: plot refuses a run whose packets.parquet cannot be read, as
// metrics does, instead of leaving the queue and rate views out.
func TestPlotRefusesUnreadablePackets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := smallRun(t, dir, "run", true)
	p := filepath.Join(run, runfolder.PacketsFile)
	os.Remove(p)
	os.Mkdir(p, 0o755)
	r := runCLI(t, "plot", run, "--out", filepath.Join(dir, "figs"))
	if got := checkOneErrorLine(t, r, ExitBadInput); !strings.Contains(got, runfolder.PacketsFile+": not a regular file") {
		t.Errorf("plot: %q", got)
	}
	m := runCLI(t, "metrics", run)
	checkOneErrorLine(t, m, ExitBadInput)
}

// Class 5: sweep status and collect do not count a point whose
// flows.parquet is damaged as done.
func TestSweepDamagedPointNotDone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sw := filepath.Join(dir, "sw")
	runCLI(t, "sweep", "--workload", "incast:n=2,size=16KB", "--seeds", "1..2", "--out", sw, "-j", "1").mustSucceed(t)
	if err := os.WriteFile(filepath.Join(sw, "seed=2", runfolder.FlowsFile), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := runCLI(t, "sweep", "status", sw)
	if !strings.Contains(st.stdout, "2 points: 1 done, 1 failed") || !strings.Contains(st.stdout, runfolder.FlowsFile+": not a Parquet file") {
		t.Errorf("status: exit %d\n%s%s", st.code, st.stdout, st.stderr)
	}
	c := runCLI(t, "sweep", "collect", sw, "--json")
	if !strings.Contains(c.stdout, `"done": 1`) {
		t.Errorf("collect: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
}

// lateHalfTimeMax sets the ts_sec of the second half of a little-endian
// pcap's records to 0xFFFFFFFF (136 years after the first packet).
func lateHalfTimeMax(t *testing.T, b []byte) []byte {
	t.Helper()
	if binary.LittleEndian.Uint32(b) != 0xa1b23c4d && binary.LittleEndian.Uint32(b) != 0xa1b2c3d4 {
		t.Fatalf("not a little-endian pcap")
	}
	var recs []int
	for off := 24; off+16 <= len(b); off += 16 + int(binary.LittleEndian.Uint32(b[off+8:])) {
		recs = append(recs, off)
	}
	out := append([]byte(nil), b...)
	for _, off := range recs[len(recs)/2:] {
		binary.LittleEndian.PutUint32(out[off:], 0xFFFFFFFF)
	}
	return out
}

// Class 6: each message says, in one line and in our words, which file,
// line, key or flag is wrong and how: no strconv, encoding/json, bufio or
// "internal error" text, no "no such file" for a folder.
func TestMessagesNameWhatAndWhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := smallRun(t, dir, "run", false)
	damaged := copyTree(t, run, filepath.Join(dir, "damaged"))
	writeFile(t, damaged, runfolder.SummaryFile, `{"schema_version": 5}`)
	sw := mkdirIn(t, dir, "sw")
	writeFile(t, sw, runfolder.SweepManifestFile, `{"kind": "sweep", "points": {}}`)

	pcap, err := os.ReadFile("../../examples/alltoall_roce.pcap")
	if err != nil {
		t.Fatal(err)
	}
	farPcap := writeFile(t, dir, "far.pcap", string(lateHalfTimeMax(t, pcap)))

	cfg := writeScenario(t, "1")
	cfgDir := filepath.Dir(cfg)
	b, _ := os.ReadFile(cfg)
	os.Mkdir(filepath.Join(cfgDir, "flows"), 0o755)
	folderFlows := writeFile(t, cfgDir, "folderflows.txt", strings.Replace(string(b), "FLOW_FILE mix/flow.txt", "FLOW_FILE flows", 1))
	farStop := writeFile(t, cfgDir, "farstop.txt", strings.Replace(string(b), "SIMULATOR_STOP_TIME 4.00", "SIMULATOR_STOP_TIME 1e300", 1))

	runArgs := runArgsInto(dir)
	w := []string{"--workload", "incast:n=2,size=1KB"}
	checkBadCases(t, []badCase{
		{"negative seed", runArgs(append(w, "--seed", "-1")...), ExitUsage, `--seed: "-1" is not a whole number >= 0`},
		{"threads not a number", runArgs(append(w, "--threads", "abc")...), ExitUsage, `--threads: "abc" is not an integer`},
		{"damaged " + runfolder.SummaryFile, []string{"metrics", damaged}, ExitBadInput, runfolder.SummaryFile + `: not a run manifest: key "schema_version": a JSON number where a string is wanted`},
		{"damaged " + runfolder.SweepManifestFile, []string{"sweep", "status", sw}, ExitBadInput, runfolder.SweepManifestFile + `: key "points": a JSON object where a list is wanted`},
		{runfolder.FCTFile + " of one endless line", []string{"validate", "--ns3-fct", zeroLink(t, dir, runfolder.FCTFile), run}, ExitBadInput, runfolder.FCTFile + ":1: line longer than 1 MiB"},
		{"capture time far beyond the first packet", runArgs("--trace", farPcap), ExitBadInput, "is stamped 2.591e+09 s after the capture's first packet, beyond the limit of 1e+06 s"},
		{"hpcc FLOW_FILE a folder", runArgs("--hpcc-config", folderFlows), ExitBadInput, "flows: is a folder; an HPCC flow file must be a regular file"},
		{"hpcc stop time beyond the clock", runArgs("--hpcc-config", farStop), ExitBadInput, `farstop.txt:12: SIMULATOR_STOP_TIME: "1e300" is out of range (want seconds from 0 to 9000000)`},
	}, "strconv.", "json: cannot", "invalid character", "bufio.", "internal error", "no such file")
}

// runArgsInto makes the arguments of a run into dir/out without a packet
// log, followed by a.
func runArgsInto(dir string) func(a ...string) []string {
	return func(a ...string) []string {
		return append([]string{"run", "--packets", "none", "--out", filepath.Join(dir, "out")}, a...)
	}
}

// badCase is one bad invocation: its arguments, the exit code it must end
// with and a part of the one error line it must print.
type badCase struct {
	name string
	args []string
	code int
	want string
}

// checkBadCases runs each case and checks its exit code and its one error
// line, which must not hold any of the words of raw (a library's text).
func checkBadCases(t *testing.T, cases []badCase, raw ...string) {
	t.Helper()
	for _, c := range cases {
		got := checkOneErrorLine(t, runCLI(t, c.args...), c.code)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		for _, r := range raw {
			if strings.Contains(got, r) {
				t.Errorf("%s: %q says %q", c.name, got, r)
			}
		}
	}
}

// Class 6 and 8: an --out that is a symbolic link writes the run where
// the link points and keeps the link: a dangling link gets its folder
// created, and --force replaces the run at the target, not the link.
func TestOutSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	if err := os.Symlink(filepath.Join("runs", "a"), link); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--workload", "incast:n=2,size=1KB", "--packets", "none", "--out", link}
	runCLI(t, args...).mustSucceed(t)
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("--out is no longer a link: %v", err)
	}
	if s := readSummary(t, filepath.Join(dir, "runs", "a")); s.Seed != 1 {
		t.Errorf("seed %d at the link's target", s.Seed)
	}
	checkOneErrorLine(t, runCLI(t, args...), ExitUsage) // a previous run, no --force
	runCLI(t, append(args, "--force", "--seed", "7")...).mustSucceed(t)
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("--force replaced the link: %v", err)
	}
	if s := readSummary(t, filepath.Join(dir, "runs", "a")); s.Seed != 7 {
		t.Errorf("after --force the target holds seed %d, want 7", s.Seed)
	}
	checkNoTempFiles(t, filepath.Join(dir, "runs"))
}

// Class 8: the smaller findings.
func TestSmallerFindings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")

	// An error line quotes a short prefix of a huge field, not all of it.
	huge := writeFile(t, dir, "huge.csv", csvTrace("0,0,1,"+strings.Repeat("9x", 5<<20)+",0,-1,-1,,0"))
	r := runCLI(t, "run", "--trace", huge, "--packets", "none", "--out", out)
	if got := checkOneErrorLine(t, r, ExitBadInput); len(got) > 400 || !strings.Contains(got, `huge.csv:2: bytes "9x9x`) || !strings.Contains(got, "(10485760 bytes)") {
		t.Errorf("huge field: %d bytes: %.300q", len(got), got)
	}

	// A YAML of many keys is refused from its size, quickly.
	var many strings.Builder
	many.WriteString("workload: incast:n=2,size=1KB\ncca_params:\n")
	for i := 0; many.Len() <= int(limits.MaxConfigBytes); i++ {
		many.WriteString("  k" + strings.Repeat("0", 8) + string(rune('a'+i%26)) + ": 1\n")
	}
	start := time.Now()
	r = runCLI(t, "run", "--config", writeFile(t, dir, "many.yaml", many.String()), "--packets", "none", "--out", out)
	if got := checkOneErrorLine(t, r, ExitBadInput); !strings.Contains(got, "the limit of a YAML configuration") || time.Since(start) > 5*time.Second {
		t.Errorf("many keys: %q after %v", got, time.Since(start))
	}

	// delay=0 is zero, as 0us is.
	runCLI(t, "run", "--workload", "incast:n=2,size=1KB", "--topology", "star:hosts=3,delay=0", "--packets", "none", "--out", filepath.Join(dir, "d0")).mustSucceed(t)

	// --out '' is a bad command line.
	r = runCLI(t, "run", "--workload", "incast:n=2,size=1KB", "--out", "")
	if got := checkOneErrorLine(t, r, ExitUsage); !strings.Contains(got, "--out: empty folder name") {
		t.Errorf("--out '': %q", got)
	}

	// ingest: the report on stdout, the truncation warning on stderr.
	data, err := os.ReadFile(exampleCapture)
	if err != nil {
		t.Fatal(err)
	}
	cut := writeFile(t, dir, "cut.pcap", string(data[:len(data)-10]))
	r = runIngest(t, cut)
	r.mustSucceed(t)
	if strings.Contains(r.stdout, "warning") || !strings.HasPrefix(r.stderr, "warning: the capture is truncated or damaged at packet 458") {
		t.Errorf("ingest: stdout %q\nstderr %q", r.stdout, r.stderr)
	}
}

// exitCase is an invocation that must fail: its arguments, the exit code
// it must end with and a part of the one error line it must print.
type exitCase struct {
	args []string
	code int
	want string
}

// checkExits checks each case as checkBadCases does, named by its
// arguments.
func checkExits(t *testing.T, cases []exitCase) {
	t.Helper()
	named := make([]badCase, len(cases))
	for i, c := range cases {
		named[i] = badCase{fmt.Sprint(c.args), c.args, c.code, c.want}
	}
	checkBadCases(t, named)
}
