package otf2

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The tests check the reader against the reference implementation: the
// archives are written by the reference library (through its Python
// bindings, python3-otf2) or by the project's own writer
// (internal/otf2write), and every event this package decodes is compared
// with what the reference library's otf2-print tool prints for the same
// archive. Both tools come from Debian packages (python3-otf2,
// otf2-tools); the tests that need them skip with a message without.

const python = "/usr/bin/python3"

// needPython skips the test unless /usr/bin/python3 can import the OTF2
// bindings.
func needPython(t *testing.T) {
	t.Helper()
	if err := exec.Command(python, "-c", "import otf2").Run(); err != nil {
		t.Skipf("%s cannot import otf2 (install the Debian package python3-otf2): %v", python, err)
	}
}

// needPrint skips the test unless otf2-print is installed.
func needPrint(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("otf2-print")
	if err != nil {
		t.Skip("otf2-print not found (install the Debian package otf2-tools)")
	}
	return p
}

// pyArchive runs a Python script with the reference writer; the script
// gets the archive directory as sys.argv[1]. It returns the anchor file.
func pyArchive(t *testing.T, script string) string {
	t.Helper()
	needPython(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "w.py")
	if err := os.WriteFile(src, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	arch := filepath.Join(dir, "archive")
	out, err := exec.Command(python, src, arch).CombinedOutput()
	if err != nil {
		t.Fatalf("python writer: %v\n%s", err, out)
	}
	return filepath.Join(arch, "traces.otf2")
}

// printed is one event line of otf2-print: name, location, time and
// attributes.
type printed struct {
	name  string
	loc   uint64
	time  uint64
	attrs string
}

var printLine = regexp.MustCompile(`^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$`)

// otf2Print returns otf2-print's events of an archive, per location in
// the order printed (the reference global reader merges the locations by
// time, keeping each location's order).
func otf2Print(t *testing.T, anchor string) map[uint64][]printed {
	t.Helper()
	bin := needPrint(t)
	out, err := exec.Command(bin, anchor).Output()
	if err != nil {
		t.Fatalf("otf2-print %s: %v", anchor, err)
	}
	res := map[uint64][]printed{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	events := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-----") {
			events = true
			continue
		}
		m := printLine.FindStringSubmatch(line)
		if !events || m == nil {
			continue
		}
		var p printed
		p.name, p.attrs = m[1], m[4]
		fmt.Sscan(m[2], &p.loc)
		fmt.Sscan(m[3], &p.time)
		res[p.loc] = append(res[p.loc], p)
	}
	return res
}

// printName is the name otf2-print gives an event type: "MpiIsend" ->
// "MPI_ISEND".
func printName(t EventType) string {
	var b strings.Builder
	for i, r := range t.String() {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// expectAttrs returns the fragments otf2-print's attribute text must
// contain for an event this package interprets, or nil.
func expectAttrs(e *Event) []string {
	comm := fmt.Sprintf("<%d>", e.Comm)
	switch e.Type {
	case EvEnter, EvLeave:
		return []string{fmt.Sprintf("<%d>", e.Region)}
	case EvMpiSend, EvMpiIsend:
		out := []string{fmt.Sprintf("Receiver: %d ", e.Peer), "Communicator: ", comm, fmt.Sprintf("Tag: %d,", e.Tag), fmt.Sprintf("Length: %d", e.Bytes)}
		if e.Type == EvMpiIsend {
			out = append(out, fmt.Sprintf("Request: %d", e.Request))
		}
		return out
	case EvMpiRecv, EvMpiIrecv:
		out := []string{fmt.Sprintf("Sender: %d ", e.Peer), comm, fmt.Sprintf("Tag: %d,", e.Tag), fmt.Sprintf("Length: %d", e.Bytes)}
		if e.Type == EvMpiIrecv {
			out = append(out, fmt.Sprintf("Request: %d", e.Request))
		}
		return out
	case EvMpiIsendComplete, EvMpiIrecvRequest, EvMpiRequestTest, EvMpiRequestCancelled:
		return []string{fmt.Sprintf("Request: %d", e.Request)}
	case EvMpiCollectiveEnd:
		root := "Root: NONE,"
		if e.Root != NoParent {
			root = fmt.Sprintf("Root: %d ", e.Root)
		}
		return []string{"Operation: " + e.Op.String() + ",", comm, root,
			fmt.Sprintf("Sent: %d,", e.Sent), fmt.Sprintf("Received: %d", e.Received)}
	}
	return nil
}

// compareWithPrint reads every location of an archive and compares each
// event with otf2-print's line: name, location, time (after clock
// correction), and the attributes this package interprets. It returns
// the number of events compared.
func compareWithPrint(t *testing.T, anchor string) int {
	t.Helper()
	want := otf2Print(t, anchor)
	a, err := Open(anchor)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range a.Defs.Locations {
		var got []Event
		if _, err := a.Events(l.ID, func(e *Event) error { got = append(got, *e); return nil }); err != nil {
			t.Fatal(err)
		}
		w := want[l.ID]
		if len(got) != len(w) {
			t.Errorf("location %d: %d events, otf2-print has %d", l.ID, len(got), len(w))
		}
		for i := range min(len(got), len(w)) {
			e, p := &got[i], &w[i]
			if printName(e.Type) != p.name || e.Time != p.time {
				t.Errorf("location %d event %d: %s at %d, otf2-print: %s at %d", l.ID, i, printName(e.Type), e.Time, p.name, p.time)
				continue
			}
			for _, frag := range expectAttrs(e) {
				if !strings.Contains(p.attrs, frag) {
					t.Errorf("location %d event %d %s: otf2-print %q lacks %q", l.ID, i, p.name, p.attrs, frag)
				}
			}
			n++
		}
	}
	return n
}

// lookPrint finds otf2-print.
func lookPrint() (string, error) { return exec.LookPath("otf2-print") }
