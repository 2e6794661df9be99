package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// buildCcreplay builds the ccreplay binary into a temporary folder.
func buildCcreplay(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ccreplay")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/ccreplay/ccreplay/cmd/ccreplay")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building ccreplay: %v\n%s", err, out)
	}
	return bin
}

// readCSV reads scale.csv as a header and rows of name → value.
func readCSV(t *testing.T, path string) ([]string, []map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: %v (%d records)", path, err, len(recs))
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return recs[0], rows
}

func num(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("row %v: %s: %v", row, col, err)
	}
	return v
}

// The quick grid end to end with a freshly built binary: six points,
// counts that make sense, every output file.
func TestQuickGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ccreplay and runs it eight times")
	}
	bin := buildCcreplay(t)
	out := filepath.Join(t.TempDir(), "nested", "out") // created by the program
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-bin", bin, "-grid", "quick", "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr.String())
	}
	header, rows := readCSV(t, filepath.Join(out, "scale.csv"))
	if !slices.Equal(header, csvHeader) || strings.Join(header, ",") != "series,hosts,topology,load,duration_ms,flows,"+
		"peak_flows_held,data_packets,packet_hops,events,sim_end_ms,wall_s,peak_rss_mib,ns_per_packet_hop,events_per_data_packet" {
		t.Errorf("header %q", header)
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6", len(rows))
	}
	var series []string
	hops := map[string]float64{} // duration series: duration_ms → packet-hops
	for _, r := range rows {
		series = append(series, r["series"])
		h, w, d := num(t, r, "packet_hops"), num(t, r, "wall_s"), num(t, r, "data_packets")
		if h <= 0 || w <= 0 || d <= 0 || num(t, r, "flows") <= 0 {
			t.Errorf("row %v: want positive packet-hops, wall, data packets and flows", r)
		}
		if held := num(t, r, "peak_flows_held"); held <= 0 || held > num(t, r, "flows") {
			t.Errorf("row %v: peak flows held outside 1..flows", r)
		}
		// Every data packet crosses at least two links (host to switch,
		// switch to host), and ACKs count as well.
		if h < 2*d {
			t.Errorf("row %v: %g packet-hops < 2 × %g data packets", r, h, d)
		}
		if r["series"] == "duration" {
			hops[r["duration_ms"]] = h
		}
	}
	if want := []string{"hosts", "hosts", "load", "load", "duration", "duration"}; !slices.Equal(series, want) {
		t.Errorf("series %q, want %q", series, want)
	}
	if len(hops) != 2 || !(hops["0.4"] > hops["0.2"]) {
		t.Errorf("duration series packet-hops %v: want 400us > 200us", hops)
	}
	if rows[1]["topology"] != "fattree:pods=2" || rows[1]["hosts"] != "128" || rows[0]["topology"] != "fattree:pods=1,tors=1" {
		t.Errorf("hosts series topologies %q, %q", rows[0]["topology"], rows[1]["topology"])
	}
	for _, f := range []string{"scale.md", "scale_wall.png", "scale_wall.svg", "scale_memory.png", "scale_memory.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "scale.md"))
	lines := strings.Split(string(md), "\n")
	if !strings.Contains(lines[0], "-grid quick") || !strings.HasPrefix(lines[2], "| series |") || len(lines) < 3+2+6 {
		t.Errorf("scale.md:\n%s", md)
	}
	// stdout is the table, a row per point.
	if n := strings.Count(stdout.String(), "\n| "); n != 6 || !strings.HasPrefix(stdout.String(), "| series |") {
		t.Errorf("stdout has %d table rows, want the header and 6:\n%s", n, stdout.String())
	}
	// No temporary left in the output folder.
	ents, _ := os.ReadDir(out)
	if len(ents) != 6 {
		t.Errorf("%d entries in the output folder, want 6", len(ents))
	}

	// One series, two runs per point.
	out2 := t.TempDir()
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"-bin", bin, "-grid", "quick", "-o", out2, "-only", "duration", "-runs", "2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-only duration: exit %d\n%s", code, stderr.String())
	}
	if _, rows := readCSV(t, filepath.Join(out2, "scale.csv")); len(rows) != 2 || rows[0]["series"] != "duration" {
		t.Errorf("-only duration: rows %v", rows)
	}
	if !strings.Contains(stderr.String(), "run 2/2") {
		t.Errorf("-runs 2: no second run in the progress:\n%s", stderr.String())
	}
}

// A binary that cannot run: non-zero exit and one error line naming the
// first point, no outputs.
func TestBadBinary(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"-bin", filepath.Join(out, "no-such-ccreplay"), "-grid", "quick", "-o", out}, &stdout, &stderr)
	if code == 0 {
		t.Fatal("exit 0 with a missing binary")
	}
	var errs []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, "error") {
			errs = append(errs, l)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "hosts series: 16 hosts (fattree:pods=1,tors=1), load 0.3, window 1ms") {
		t.Errorf("error lines %q, want one naming the first point\nstderr:\n%s", errs, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "scale.csv")); err == nil {
		t.Error("scale.csv written after a failure")
	}
}

// A child that fails: its stderr is passed on before the error line.
func TestFailingChild(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'fake: bad topology' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-bin", bin, "-grid", "quick", "-only", "load", "-o", dir}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	s := stderr.String()
	i, j := strings.Index(s, "fake: bad topology"), strings.Index(s, "error: point load series: 16 hosts")
	if i < 0 || j < i || !strings.Contains(s[j:], "exit status 3") {
		t.Errorf("stderr:\n%s", s)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-grid", "huge"},
		{"-only", "seeds"},
		{"-runs", "0"},
		{"-grid", "quick", "extra"},
		{"-no-such-flag"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append(args, "-o", t.TempDir()), &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	run([]string{"-grid", "huge"}, &bytes.Buffer{}, &stderr)
	if !strings.Contains(stderr.String(), `unknown grid "huge"`) {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestParseStats(t *testing.T) {
	line := "stats: wall 0.457 s, 356691 data packets, 780104 data pkts/s, 4153385 events, 9083697 events/s, " +
		"peak RSS 54.5 MiB, 1234567 packet-hops, 12.3 ns per packet-hop, at most 42 flows held"
	s, err := parseStats([]byte("ccreplay run: something\n" + line + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s != (stats{dataPackets: 356691, events: 4153385, packetHops: 1234567, flowsHeld: 42}) {
		t.Errorf("stats %+v", s)
	}
	if _, err := parseStats([]byte("no stats here\n")); err == nil {
		t.Error("no stats line: no error")
	}
	old := "stats: wall 0.457 s, 356691 data packets, 780104 data pkts/s, 4153385 events, 9083697 events/s, peak RSS 54.5 MiB\n"
	if _, err := parseStats([]byte(old)); err == nil || !strings.Contains(err.Error(), "packet-hops") {
		t.Errorf("stats without packet-hops: err = %v", err)
	}
}

func TestGridAndHelpers(t *testing.T) {
	full, err := grid("full")
	if err != nil || len(full) != 15 {
		t.Fatalf("full grid: %d points, %v", len(full), err)
	}
	var topos []string
	for _, p := range full[:5] {
		topos = append(topos, p.topology)
	}
	if want := []string{"fattree:pods=1,tors=1", "fattree:pods=2", "fattree:pods=5", "fattree:pods=16", "fattree:pods=64"}; !slices.Equal(topos, want) {
		t.Errorf("hosts series topologies %q", topos)
	}
	if w := full[14].workload(); w != "cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=16ms" {
		t.Errorf("workload %q", w)
	}
	if d := (point{duration: "200us"}).durationMs(); d != 0.2 {
		t.Errorf("200us = %g ms", d)
	}
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %g", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median %g", m)
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
