// Command benchscale measures what a replay costs as it grows: the
// whole-process wall time and peak memory of `ccreplay run` against the
// number of hosts, the offered load and the simulated window of flow
// arrivals, each point a websearch CDF workload under DCQCN on an
// HPCC-style fat-tree (16 hosts per ToR, 100G hosts, 400G fabric). It
// writes scale.csv, scale.md and two figures: wall time against
// packet-hops (a straight line of slope 1 on log-log axes means the cost
// is linear in the work) and peak memory against simulated time.
//
//	go run ./scripts/benchscale [-bin ./ccreplay] [-grid full|quick] [-o scale-out] [-runs N] [-only hosts|load|duration]
//
// Each point runs BIN as a child process with --stats and --packets none
// into a fresh temporary folder, removed afterwards; the wall time is taken
// around the child, the peak RSS from its rusage, the packet and event
// counts from its "stats: " line and the flows and end time from its
// summary.json. With -runs N the wall time and peak RSS are medians over N
// runs (the counts are the same in every run: the seed is fixed).
package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runfolder"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// point is one configuration of the grid.
type point struct {
	series   string // "hosts", "load" or "duration"
	hosts    int
	topology string
	load     float64
	duration string // the workload's duration= value, e.g. "1ms"
	threads  int    // the run's --threads
}

// durationMs is the arrival window in ms.
func (p point) durationMs() float64 {
	d, err := time.ParseDuration(p.duration)
	if err != nil {
		return 0 // the grid only holds valid durations
	}
	return float64(d) / 1e6
}

func (p point) workload() string {
	return fmt.Sprintf("cdf:dist=websearch,hosts=%d,bw=100G,load=%s,duration=%s",
		p.hosts, strconv.FormatFloat(p.load, 'g', -1, 64), p.duration)
}

// String names the point in progress and error lines.
func (p point) String() string {
	return fmt.Sprintf("%s series: %d hosts (%s), load %g, window %s", p.series, p.hosts, p.topology, p.load, p.duration)
}

// args is the child's command line after the binary; out is its folder.
func (p point) args(out string) []string {
	return []string{"run", "--workload", p.workload(), "--topology", p.topology,
		"--cca", "dcqcn", "--packets", "none", "--threads", strconv.Itoa(max(p.threads, 1)), "--stats", "--out", out}
}

// fatTree is the HPCC fat-tree family's topology for h hosts: one ToR of
// 16 hosts for 16, else h/64 pods of 4 ToRs of 16 hosts.
func fatTree(h int) string {
	if h == 16 {
		return "fattree:pods=1,tors=1"
	}
	return fmt.Sprintf("fattree:pods=%d", h/64)
}

// seriesNames are the grid's series, in order.
var seriesNames = []string{"hosts", "load", "duration"}

// grid is the list of points of a grid ("full" or "quick").
func grid(name string) ([]point, error) {
	var hosts []int
	var loads []float64
	var durs []string
	var fixed int // hosts of the load and duration series
	switch name {
	case "full":
		hosts = []int{16, 128, 320, 1024, 4096}
		loads = []float64{0.1, 0.3, 0.5, 0.7, 0.9}
		durs = []string{"1ms", "2ms", "4ms", "8ms", "16ms"}
		fixed = 320
	case "quick":
		hosts = []int{16, 128}
		loads = []float64{0.1, 0.3}
		durs = []string{"200us", "400us"}
		fixed = 16
	default:
		return nil, fmt.Errorf("unknown grid %q (want full or quick)", name)
	}
	var ps []point
	for _, h := range hosts {
		ps = append(ps, point{"hosts", h, fatTree(h), 0.3, "1ms", 1})
	}
	for _, l := range loads {
		ps = append(ps, point{"load", fixed, fatTree(fixed), l, "1ms", 1})
	}
	for _, d := range durs {
		ps = append(ps, point{"duration", fixed, fatTree(fixed), 0.3, d, 1})
	}
	return ps, nil
}

// stats are the figures of the child's "stats: " line.
type stats struct {
	dataPackets, events, packetHops, flowsHeld int64
}

var (
	reDataPackets = regexp.MustCompile(`(\d+) data packets,`)
	reEvents      = regexp.MustCompile(`(\d+) events,`)
	reHops        = regexp.MustCompile(`(\d+) packet-hops`)
	reHeld        = regexp.MustCompile(`at most (\d+) flows held`)
)

// parseStats finds the line starting with "stats: " in the child's stderr
// and reads its counts.
func parseStats(stderr []byte) (stats, error) {
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "stats: ") {
			continue
		}
		var s stats
		for _, f := range []struct {
			re   *regexp.Regexp
			name string
			v    *int64
		}{{reDataPackets, "data packets", &s.dataPackets}, {reEvents, "events", &s.events}, {reHops, "packet-hops", &s.packetHops},
			{reHeld, "flows held", &s.flowsHeld}} {
			m := f.re.FindStringSubmatch(line)
			if m == nil {
				return stats{}, fmt.Errorf("no %s in the stats line %q (is the binary older than this script?)", f.name, line)
			}
			v, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				return stats{}, fmt.Errorf("%s in the stats line %q: %v", f.name, line, err)
			}
			*f.v = v
		}
		return s, nil
	}
	return stats{}, errors.New(`no "stats: " line on the child's stderr`)
}

// summary is the part of summary.json the benchmark reads.
type summary struct {
	SimEndNs int64 `json:"sim_end_ns"`
	Metrics  struct {
		Flows *float64 `json:"flows"`
	} `json:"metrics"`
}

func readSummary(dir string) (flows, simEndNs int64, err error) {
	b, err := os.ReadFile(filepath.Join(dir, runfolder.SummaryFile))
	if err != nil {
		return 0, 0, err
	}
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		return 0, 0, fmt.Errorf(runfolder.SummaryFile+": %v", err)
	}
	if s.Metrics.Flows == nil {
		return 0, 0, errors.New(runfolder.SummaryFile + " has no metrics.flows")
	}
	return int64(*s.Metrics.Flows), s.SimEndNs, nil
}

// result is one point's measurement.
type result struct {
	point
	flows, dataPackets, packetHops, events, simEndNs int64
	flowsHeld                                        int64   // the most flows whose state the run held at once
	wallS, rssMiB                                    float64 // medians; rssMiB 0 = unknown
}

func (r result) nsPerHop() float64 {
	if r.packetHops <= 0 {
		return 0
	}
	return r.wallS * 1e9 / float64(r.packetHops)
}

func (r result) eventsPerDataPacket() float64 {
	if r.dataPackets <= 0 {
		return 0
	}
	return float64(r.events) / float64(r.dataPackets)
}

// runError is a failed child: its stderr and what went wrong.
type runError struct {
	stderr []byte
	err    error
}

func (e *runError) Error() string { return e.err.Error() }

// runOnce runs the child for p once into a fresh temporary folder.
func runOnce(bin string, p point) (r result, err error) {
	tmp, err := os.MkdirTemp("", "benchscale-*")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(tmp)
	var errBuf bytes.Buffer
	cmd := exec.Command(bin, p.args(tmp)...)
	cmd.Stderr = &errBuf // stdout (the metrics table) goes to /dev/null
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return r, &runError{errBuf.Bytes(), err}
	}
	st, err := parseStats(errBuf.Bytes())
	if err != nil {
		return r, &runError{errBuf.Bytes(), err}
	}
	flows, simEnd, err := readSummary(tmp)
	if err != nil {
		return r, &runError{errBuf.Bytes(), err}
	}
	return result{point: p, flows: flows, dataPackets: st.dataPackets, packetHops: st.packetHops,
		flowsHeld: st.flowsHeld, events: st.events, simEndNs: simEnd, wallS: wall.Seconds(),
		rssMiB: float64(maxRSSKiB(cmd.ProcessState)) / 1024}, nil
}

func median(vs []float64) float64 {
	vs = slices.Clone(vs)
	sort.Float64s(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

// measure runs p n times: the counts of the first run, the median wall
// time and peak RSS.
func measure(bin string, p point, n int, progress func(i int)) (result, error) {
	var first result
	var walls, rsss []float64
	for i := range n {
		progress(i)
		r, err := runOnce(bin, p)
		if err != nil {
			return result{}, err
		}
		if i == 0 {
			first = r
		}
		walls, rsss = append(walls, r.wallS), append(rsss, r.rssMiB)
	}
	first.wallS, first.rssMiB = median(walls), median(rsss)
	return first, nil
}

var csvHeader = []string{"series", "hosts", "topology", "load", "duration_ms", "flows", "peak_flows_held", "data_packets", "packet_hops",
	"events", "sim_end_ms", "wall_s", "peak_rss_mib", "ns_per_packet_hop", "events_per_data_packet"}

func ftoa(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

func csvRow(r result) []string {
	return []string{r.series, strconv.Itoa(r.hosts), r.topology, strconv.FormatFloat(r.load, 'g', -1, 64),
		strconv.FormatFloat(r.durationMs(), 'g', -1, 64), strconv.FormatInt(r.flows, 10), strconv.FormatInt(r.flowsHeld, 10),
		strconv.FormatInt(r.dataPackets, 10), strconv.FormatInt(r.packetHops, 10), strconv.FormatInt(r.events, 10),
		ftoa(float64(r.simEndNs)/1e6, 6), ftoa(r.wallS, 4), ftoa(r.rssMiB, 1), ftoa(r.nsPerHop(), 1),
		ftoa(r.eventsPerDataPacket(), 2)}
}

func scaleCSV(rs []result) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(csvHeader); err != nil {
		return nil, err
	}
	for _, r := range rs {
		if err := w.Write(csvRow(r)); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// Markdown table, human units.
var mdHeader = "| series | hosts | topology | load | window | flows | flows held at most | data packets | packet-hops | events | sim end | wall | peak RSS | ns/packet-hop | events/data packet |\n" +
	"|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"

// thousands writes n with comma separators: 1,234,567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// humanTime writes a duration given in seconds as s, ms or us.
func humanTime(s float64) string {
	switch {
	case s >= 1:
		return ftoa(s, 2) + " s"
	case s >= 1e-3:
		return strconv.FormatFloat(s*1e3, 'g', 4, 64) + " ms"
	default:
		return strconv.FormatFloat(s*1e6, 'g', 4, 64) + " us"
	}
}

func mdRow(r result) string {
	rss := "unknown"
	if r.rssMiB > 0 {
		rss = ftoa(r.rssMiB, 1) + " MiB"
	}
	return fmt.Sprintf("| %s | %d | %s | %g | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		r.series, r.hosts, "`"+r.topology+"`", r.load, humanTime(r.durationMs()/1e3), thousands(r.flows), thousands(r.flowsHeld),
		thousands(r.dataPackets), thousands(r.packetHops), thousands(r.events), humanTime(float64(r.simEndNs)/1e9),
		humanTime(r.wallS), rss, ftoa(r.nsPerHop(), 1), ftoa(r.eventsPerDataPacket(), 2))
}

// quoteArgs writes a command line, quoting the arguments that need it.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'`$\\|&;<>()*?[]{}~#") {
			q[i] = strconv.Quote(a)
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

// run is the whole program: the exit code is 0 on success, 1 when a point
// or an output fails, 2 on a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchscale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("bin", "./ccreplay", "the ccreplay binary")
	gridName := fs.String("grid", "full", "grid of points: full or quick")
	outDir := fs.String("o", "scale-out", "output folder, created if missing")
	runs := fs.Int("runs", 1, "runs per point; wall time and peak RSS are medians")
	only := fs.String("only", "", "run one series only: hosts, load or duration")
	threads := fs.Int("threads", 1, "each run's --threads (1: one partition, as in docs/PERFORMANCE.md's table)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "benchscale: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return usage("unexpected arguments %q", fs.Args())
	}
	points, err := grid(*gridName)
	if err != nil {
		return usage("%v", err)
	}
	if *runs < 1 {
		return usage("-runs must be at least 1, not %d", *runs)
	}
	if *threads < 1 {
		return usage("-threads must be at least 1, not %d", *threads)
	}
	for i := range points {
		points[i].threads = *threads
	}
	if *only != "" {
		if !slices.Contains(seriesNames, *only) {
			return usage("unknown series %q for -only (want hosts, load or duration)", *only)
		}
		points = slices.DeleteFunc(points, func(p point) bool { return p.series != *only })
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "benchscale: error: %v\n", err)
		return 1
	}

	cmdLine := fmt.Sprintf("Measured by `benchscale %s` (grid %s, %d run(s) per point, medians; binary %s): each point is "+
		"`ccreplay %s` in a fresh folder; wall is whole-process time, peak RSS the child's maxrss.\n",
		quoteArgs(args), *gridName, *runs, *bin, quoteArgs(childTemplate))
	md := cmdLine + "\n" + mdHeader
	fmt.Fprint(stdout, mdHeader)

	var results []result
	for i, p := range points {
		start := time.Now()
		r, err := measure(*bin, p, *runs, func(k int) {
			fmt.Fprintf(stderr, "benchscale: [%d/%d] %s: run %d/%d\n", i+1, len(points), p, k+1, *runs)
		})
		if err != nil {
			var re *runError
			if errors.As(err, &re) && len(re.stderr) > 0 {
				stderr.Write(re.stderr)
				if !bytes.HasSuffix(re.stderr, []byte("\n")) {
					fmt.Fprintln(stderr)
				}
			}
			fmt.Fprintf(stderr, "benchscale: error: point %s: %v\n", p, err)
			return 1
		}
		fmt.Fprintf(stderr, "benchscale: [%d/%d] done in %.1f s: %s packet-hops, wall %s, %.1f ns per packet-hop\n",
			i+1, len(points), time.Since(start).Seconds(), thousands(r.packetHops), humanTime(r.wallS), r.nsPerHop())
		results = append(results, r)
		row := mdRow(r)
		md += row
		fmt.Fprint(stdout, row)
	}

	csvBytes, err := scaleCSV(results)
	if err == nil {
		err = output.WriteFileAtomic(filepath.Join(*outDir, "scale.csv"), csvBytes)
	}
	if err == nil {
		err = output.WriteFileAtomic(filepath.Join(*outDir, "scale.md"), []byte(md))
	}
	if err != nil {
		fmt.Fprintf(stderr, "benchscale: error: %v\n", err)
		return 1
	}
	if err := figures(*outDir, results, stderr); err != nil {
		fmt.Fprintf(stderr, "benchscale: error: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "benchscale: wrote %s\n", *outDir)
	return 0
}

// childTemplate is the child's command line after the binary, with
// placeholders, for scale.md.
var childTemplate = []string{"run", "--workload", "cdf:dist=websearch,hosts=H,bw=100G,load=L,duration=D", "--topology", "TOPO",
	"--cca", "dcqcn", "--packets", "none", "--threads", "N", "--stats", "--out", "TMPDIR"}

// figures draws the wall-time and memory figures; a skipped view is
// reported, not an error.
func figures(dir string, rs []result, stderr io.Writer) error {
	pts := make([]plot.ScalePoint, len(rs))
	for i, r := range rs {
		pts[i] = plot.ScalePoint{Series: r.series, Hosts: r.hosts, Load: r.load, DurationMs: r.durationMs(),
			Flows: r.flows, PacketHops: r.packetHops, WallS: r.wallS, PeakRSSMiB: r.rssMiB}
	}
	for _, build := range []func([]plot.ScalePoint) (plot.Figure, error){plot.ScaleWall, plot.ScaleMemory} {
		fig, err := build(pts)
		var sk *plot.Skipped
		if errors.As(err, &sk) {
			fmt.Fprintf(stderr, "benchscale: %v\n", err)
			continue
		}
		if err != nil {
			return err
		}
		for _, n := range fig.Notes {
			fmt.Fprintf(stderr, "benchscale: %s\n", n)
		}
		if _, err := plot.WriteFigure(dir, fig, []string{"png", "svg"}); err != nil {
			return err
		}
	}
	return nil
}
