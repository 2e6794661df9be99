package dumpi

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/internal/shareddata"
)

// sharedData returns the path of a file in the shared DUMPI folder, or
// skips the test when the shared data are absent (a fresh clone).
func sharedData(t testing.TB, name string) string {
	t.Helper()
	return shareddata.File(t, filepath.Join("mpi/dumpi", name))
}

// asciiCall is one call as dumpi2ascii prints it.
type asciiCall struct {
	line      int
	name      string
	wall, cpu [2]int64 // entering, returning; ns
	thread    int
	args      []asciiArg
}

// asciiArg is one "type name=value" line.
type asciiArg struct {
	typ, name, value string
}

// asciiDump is a parsed dumpi2ascii output.
type asciiDump struct {
	header  map[string]string
	calls   []asciiCall
	counts  map[string][2]int64 // called, ignored
	sizes   map[int]int64
	keyvals int
}

var (
	reCallLine = regexp.MustCompile(`^(\S+) (entering|returning) at walltime (\d+)\.(\d{9}), cputime (\d+)\.(\d{9}) seconds in thread (\d+)\.$`)
	reCount    = regexp.MustCompile(`^(\S+) called (\d+) times and ignored (\d+) times$`)
	reSize     = regexp.MustCompile(`^Datatype (\d+) \((\S+)\) has size (\d+)$`)
	reArg      = regexp.MustCompile(`^(\S+) ([A-Za-z_.0-9]+)(\[\d+\])?=(.*)$`)
)

func secNs(sec, nsec string) int64 {
	s, _ := strconv.ParseInt(sec, 10, 64)
	n, _ := strconv.ParseInt(nsec, 10, 64)
	return s*1e9 + n
}

// parseASCII reads a dumpi2ascii dump.
func parseASCII(t *testing.T, path string) *asciiDump {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := &asciiDump{header: map[string]string{}, counts: map[string][2]int64{}, sizes: map[int]int64{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cur *asciiCall
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if m := reCallLine.FindStringSubmatch(s); m != nil {
			th, _ := strconv.Atoi(m[7])
			if m[2] == "entering" {
				if cur != nil {
					t.Fatalf("%s:%d: %s enters before %s returned", path, line, m[1], cur.name)
				}
				cur = &asciiCall{line: line, name: m[1], thread: th}
				cur.wall[0], cur.cpu[0] = secNs(m[3], m[4]), secNs(m[5], m[6])
				continue
			}
			if cur == nil || cur.name != m[1] || cur.thread != th {
				t.Fatalf("%s:%d: unexpected return of %s", path, line, m[1])
			}
			cur.wall[1], cur.cpu[1] = secNs(m[3], m[4]), secNs(m[5], m[6])
			d.calls = append(d.calls, *cur)
			cur = nil
			continue
		}
		if cur != nil {
			m := reArg.FindStringSubmatch(s)
			if m == nil {
				t.Fatalf("%s:%d: cannot parse argument line %q", path, line, s)
			}
			cur.args = append(cur.args, asciiArg{typ: m[1], name: m[2], value: m[4]})
			continue
		}
		if m := reCount.FindStringSubmatch(s); m != nil {
			c, _ := strconv.ParseInt(m[2], 10, 64)
			i, _ := strconv.ParseInt(m[3], 10, 64)
			d.counts[m[1]] = [2]int64{c, i}
			continue
		}
		if m := reSize.FindStringSubmatch(s); m != nil {
			k, _ := strconv.Atoi(m[1])
			v, _ := strconv.ParseInt(m[3], 10, 64)
			d.sizes[k] = v
			continue
		}
		if v, ok := strings.CutPrefix(s, "Total keyvals: "); ok {
			d.keyvals, _ = strconv.Atoi(v)
			continue
		}
		if k, v, ok := strings.Cut(s, "="); ok && len(d.calls) == 0 {
			d.header[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return d
}

// handleName strips dumpi2ascii's " (MPI_INT)" decoration off a handle.
var handleName = regexp.MustCompile(` \([^()]*\)$`)

// normalize puts an argument value printed by dumpi2ascii in the form
// formatField gives the decoded field.
func normalize(a asciiArg, f *Field) string {
	v := handleName.ReplaceAllString(a.value, "")
	// A single request prints as "[2]".
	if f != nil && f.Kind == KindInt && strings.HasPrefix(v, "[") && !strings.Contains(v, ",") {
		v = strings.Trim(v, "[]")
	}
	return v
}

// formatField prints a decoded field the way dumpi2ascii does.
func formatField(f *Field) string {
	switch f.Kind {
	case KindStatuses:
		if f.Statuses == nil {
			return "<IGNORED>"
		}
		parts := make([]string, len(f.Statuses))
		for i, s := range f.Statuses {
			parts[i] = fmt.Sprintf("{bytes=%d, cancelled=%d, source=%d, tag=%d, error=%d}", s.Bytes, s.Cancelled, s.Source, s.Tag, s.Error)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case KindInts, KindDatatypes, KindHandles, KindEnums, KindInts2:
		parts := make([]string, len(f.Ints))
		for i, v := range f.Ints {
			parts[i] = strconv.FormatInt(v, 10)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case KindString:
		return f.Strs[0]
	case KindStrings, KindStrings2:
		parts := make([]string, len(f.Strs))
		for i, s := range f.Strs {
			parts[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return strconv.FormatInt(f.Int, 10)
}

// compareRecord checks one decoded record against the dump's call and
// returns what differs.
func compareRecord(r *Record, c *asciiCall) []string {
	var diffs []string
	bad := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	if r.Func.String() != c.name {
		bad("call %s, want %s", r.Func, c.name)
		return diffs
	}
	if r.Wall.Start != c.wall[0] || r.Wall.Stop != c.wall[1] {
		bad("wall %d..%d, want %d..%d", r.Wall.Start, r.Wall.Stop, c.wall[0], c.wall[1])
	}
	if r.CPU.Start != c.cpu[0] || r.CPU.Stop != c.cpu[1] {
		bad("cpu %d..%d, want %d..%d", r.CPU.Start, r.CPU.Stop, c.cpu[0], c.cpu[1])
	}
	if int(r.Thread) != c.thread {
		bad("thread %d, want %d", r.Thread, c.thread)
	}
	seen := map[string]bool{}
	for _, a := range c.args {
		if a.name == "argc" { // printed from argv's length
			if f := r.Field("argv"); f == nil || strconv.Itoa(len(f.Strs)) != a.value {
				bad("argc %s does not match argv", a.value)
			}
			continue
		}
		f := r.Field(a.name)
		if f == nil || !f.Present {
			bad("argument %s=%s not decoded", a.name, a.value)
			continue
		}
		seen[a.name] = true
		if got, want := formatField(f), normalize(a, f); got != want {
			bad("%s = %s, want %s", a.name, got, want)
		}
	}
	for i := range r.Fields {
		if f := &r.Fields[i]; f.Present && !seen[f.Name] {
			bad("decoded argument %s=%s that dumpi2ascii does not print", f.Name, formatField(f))
		}
	}
	return diffs
}

// TestSharedDataLockstep walks every shared .bin in lockstep with the
// dumpi2ascii dump made from it: every call, its arguments and its wall
// and CPU times, then the footer's call counts, the datatype sizes and the
// header.
func TestSharedDataLockstep(t *testing.T) {
	dir := sharedData(t, "")
	bins, err := filepath.Glob(filepath.Join(dir, "*.bin"))
	if err != nil || len(bins) != 11 {
		t.Fatalf("want the 11 shared .bin files, found %d (%v)", len(bins), err)
	}
	for _, bin := range bins {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			d := parseASCII(t, strings.TrimSuffix(bin, ".bin")+".dumpi2ascii.txt")
			f, err := Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n := 0
			err = f.Records(func(r *Record) error {
				if n >= len(d.calls) {
					return fmt.Errorf("record %d (%v) beyond the dump's %d calls", n, r.Func, len(d.calls))
				}
				if diffs := compareRecord(r, &d.calls[n]); len(diffs) > 0 {
					return fmt.Errorf("record %d (dump line %d): %s", n, d.calls[n].line, strings.Join(diffs, "; "))
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != len(d.calls) {
				t.Fatalf("decoded %d records, the dump has %d calls", n, len(d.calls))
			}
			if len(d.counts) != NumFunctions+1 {
				t.Fatalf("dump has %d call counts, want %d", len(d.counts), NumFunctions+1)
			}
			perFunc := map[string]int64{}
			for _, c := range d.calls {
				perFunc[c.name]++
			}
			for name, c := range d.counts {
				id, ok := FuncByName(name)
				if name == "MPI_ALL_FUNCTIONS" {
					id, ok = fnAllFunctions, true
				}
				if !ok {
					t.Fatalf("dump counts unknown function %s", name)
				}
				if int64(f.Calls[id]) != c[0] || int64(f.Ignored[id]) != c[1] {
					t.Errorf("%s: footer says %d calls, %d ignored; dump %d, %d", name, f.Calls[id], f.Ignored[id], c[0], c[1])
				}
				if id != fnAllFunctions && perFunc[name] != c[0]-c[1] {
					t.Errorf("%s: %d records, footer counts %d calls (%d ignored)", name, perFunc[name], c[0], c[1])
				}
			}
			// Only some dumps print the datatype sizes.
			if len(d.sizes) > 0 && len(d.sizes) != len(f.TypeSizes) {
				t.Errorf("%d datatype sizes, dump has %d", len(f.TypeSizes), len(d.sizes))
			}
			for k, v := range d.sizes {
				if k >= len(f.TypeSizes) || int64(f.TypeSizes[k]) != v {
					t.Errorf("datatype %d: size mismatch, dump says %d", k, v)
				}
			}
			h := f.Header
			want := map[string]string{
				"version":  fmt.Sprintf("%d.%d.%d", h.Version[0], h.Version[1], h.Version[2]),
				"hostname": h.Hostname, "username": h.Username,
				"meshdim":  strconv.Itoa(len(h.MeshCoords)),
				"meshsize": formatField(&Field{Kind: KindInts, Ints: widen(h.MeshSize)}),
				"meshcrd":  formatField(&Field{Kind: KindInts, Ints: widen(h.MeshCoords)}),
			}
			for k, v := range want {
				if d.header[k] != v {
					t.Errorf("header %s = %q, dump says %q", k, v, d.header[k])
				}
			}
			if len(f.Keyvals) != d.keyvals {
				t.Errorf("%d keyvals, dump says %d", len(f.Keyvals), d.keyvals)
			}
		})
	}
}

func widen(v []int32) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}
