package metrics

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// WriteTable prints s for humans: one aligned "label  value unit" line per
// metric (SummaryRows), then the flow-size bucket table. Errors of w are
// ignored (as with fmt.Fprintf); write to a buffer to check them.
func WriteTable(w io.Writer, s Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range SummaryRows(s) {
		fmt.Fprintf(tw, "%s\t%s\n", r.Label, r.Value)
	}
	tw.Flush()

	if len(s.Buckets) == 0 {
		return
	}
	fmt.Fprintln(w)
	WriteBucketTable(w, s.Buckets)
}

// Row is one line of a metrics table: its label and its value with the
// unit, formatted as every ccreplay table prints it.
type Row struct {
	Label, Value string
}

// SummaryRows are the lines WriteTable prints for s, in order, before the
// bucket table: the same labels, numbers and units for every consumer
// (the terminal table, the HTML report).
func SummaryRows(s Summary) []Row {
	var rows []Row
	row := func(label, value string) { rows = append(rows, Row{label, value}) }
	of := func(done, all int64) string { return fmt.Sprintf("%d of %d finished", done, all) }

	row("flows", of(s.FlowsFinished, s.Flows))
	row("messages", of(s.MessagesFinished, s.Messages))
	if s.Collectives > 0 {
		row("collectives", of(s.CollectivesFinished, s.Collectives))
	}
	row("sim duration", units.HumanNs(float64(s.SimDurationNs)))

	stats := func(name string, mean float64, p50, p90, p95, p99, p999, mx int64) {
		row(name+" mean", units.HumanNs(mean))
		for _, p := range []struct {
			label string
			v     int64
		}{{"p50", p50}, {"p90", p90}, {"p95", p95}, {"p99", p99}, {"p99.9", p999}, {"max", mx}} {
			row(name+" "+p.label, units.HumanNs(float64(p.v)))
		}
	}
	stats("FCT", s.FCTMeanNs, s.FCTP50Ns, s.FCTP90Ns, s.FCTP95Ns, s.FCTP99Ns, s.FCTP999Ns, s.FCTMaxNs)
	row("slowdown mean", fmtX(s.SlowdownMean))
	row("slowdown p50", fmtX(s.SlowdownP50))
	row("slowdown p90", fmtX(s.SlowdownP90))
	row("slowdown p95", fmtX(s.SlowdownP95))
	row("slowdown p99", fmtX(s.SlowdownP99))
	row("slowdown p99.9", fmtX(s.SlowdownP999))
	row("slowdown max", fmtX(s.SlowdownMax))
	row("FCT/standalone mean", fmtX(s.SlowdownStandaloneMean))
	row("FCT/standalone p50", fmtX(s.SlowdownStandaloneP50))
	row("FCT/standalone p99", fmtX(s.SlowdownStandaloneP99))
	stats("MCT", s.MCTMeanNs, s.MCTP50Ns, s.MCTP90Ns, s.MCTP95Ns, s.MCTP99Ns, s.MCTP999Ns, s.MCTMaxNs)
	if s.Collectives > 0 {
		stats("CCT", s.CCTMeanNs, s.CCTP50Ns, s.CCTP90Ns, s.CCTP95Ns, s.CCTP99Ns, s.CCTP999Ns, s.CCTMaxNs)
	}

	row("data packets sent", fmt.Sprintf("%d pkts", s.DataPktsSent))
	row("CE-marked arrived", fmt.Sprintf("%d pkts", s.CEPkts))
	row("ECN ratio", fmtPct(s.ECNRatio))
	row("ECN marks (ports)", fmt.Sprintf("%d pkts", s.ECNMarkedPkts))
	row("CNPs", fmt.Sprintf("%d", s.CNPs))
	row("NACKs", fmt.Sprintf("%d", s.Nacks))
	row("timeouts", fmt.Sprintf("%d", s.Timeouts))
	row("retransmitted", units.HumanBytes(float64(s.RetxBytes)))
	row("dropped", fmt.Sprintf("%d pkts, %s", s.DropsPkts, units.HumanBytes(float64(s.DropsBytes))))

	row("goodput (aggregate)", units.HumanBps(s.GoodputBps))
	row("goodput (flow mean)", units.HumanBps(s.GoodputMeanBps))
	if s.GoodputNorm > 0 {
		row("goodput / receiver link", fmt.Sprintf("%.4f", s.GoodputNorm))
	} else {
		row("goodput / receiver link", "n/a (needs one receiver and a finished flow)")
	}
	row("unfair ratio", fmt.Sprintf("%.4f", s.UnfairRatio))
	row("Jain index", fmt.Sprintf("%.4f", s.JainIndex))
	row("min/max rate", fmt.Sprintf("%.4f", s.MinMaxRateRatio))
	if s.ConcurrentWindowNs > 0 {
		row("concurrent window", fmt.Sprintf("%s from %s", units.HumanNs(float64(s.ConcurrentWindowNs)), units.HumanNs(float64(s.ConcurrentWindowStartNs))))
		row("unfair ratio concurrent", fmt.Sprintf("%.4f", s.UnfairRatioConcurrent))
		row("Jain index concurrent", fmt.Sprintf("%.4f", s.JainIndexConcurrent))
		row("min/max rate concurrent", fmt.Sprintf("%.4f", s.MinMaxRateRatioConcurrent))
	} else {
		row("concurrent window", fmt.Sprintf("none (the flows are never all active together for %s)", units.HumanNs(MinConcurrentWindowNs)))
		row("unfair ratio concurrent", "n/a")
	}

	row("switch util max", fmtPct(s.SwitchUtilMax))
	row("switch util mean", fmtPct(s.SwitchUtilMean))
	row("queue avg (worst port)", units.HumanBytes(s.QLenAvgBytes))
	row("queue p99 (worst port)", units.HumanBytes(float64(s.QLenP99Bytes)))
	row("queue max (worst port)", units.HumanBytes(float64(s.QLenMaxBytes)))
	row("PFC paused (all ports)", fmtPct(s.PFCPauseFraction))
	row("PFC paused (worst port)", fmtPct(s.PFCPauseFractionMax))
	row("PFC paused (flow mean)", fmtPct(s.PFCPausedFracMean))
	row("PAUSE frames", fmt.Sprintf("%d", s.PauseFrames))
	return rows
}

// WriteBucketTable prints the flow-size buckets (the HPCC paper's FCT
// slowdown per size bucket: flows sorted by size, buckets of equal count),
// one line per bucket: size range, flows, finished, FCT and slowdown p50,
// p95 and p99.
func WriteBucketTable(w io.Writer, buckets []Bucket) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(BucketHeader, "\t")+"\t")
	for _, cells := range BucketCells(buckets) {
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	tw.Flush()
}

// BucketHeader names the columns of the bucket table (WriteBucketTable,
// BucketCells).
var BucketHeader = []string{"flow size (bytes)", "flows", "finished", "FCT p50", "FCT p95", "FCT p99", "slowdown p50", "p95", "p99"}

// BucketCells are the cells of the bucket table, one line per bucket in
// BucketHeader's order, formatted as WriteBucketTable prints them.
func BucketCells(buckets []Bucket) [][]string {
	out := make([][]string, 0, len(buckets))
	for _, b := range buckets {
		out = append(out, []string{
			fmt.Sprintf("%d-%d", b.SizeMinBytes, b.SizeMaxBytes),
			fmt.Sprintf("%d", b.Flows), fmt.Sprintf("%d", b.FlowsFinished),
			units.HumanNs(float64(b.FCTP50Ns)), units.HumanNs(float64(b.FCTP95Ns)), units.HumanNs(float64(b.FCTP99Ns)),
			fmtX(b.SlowdownP50), fmtX(b.SlowdownP95), fmtX(b.SlowdownP99),
		})
	}
	return out
}

// WritePacketTable prints what packets.parquet gave, as WriteTable does
// for the summary: row counts, the data packets sent, delivered and
// dropped, and the queue delay and depth at switch hops.
func WritePacketTable(w io.Writer, p PacketStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range PacketRows(p) {
		fmt.Fprintf(tw, "%s\t%s\n", r.Label, r.Value)
	}
	tw.Flush()
}

// PacketRows are the lines WritePacketTable prints for p, in order.
func PacketRows(p PacketStats) []Row {
	var rows []Row
	row := func(label, value string) { rows = append(rows, Row{label, value}) }
	row("packet rows", fmt.Sprintf("%d (%s)", p.Rows, countsByKind(p.RowsByKind)))
	row("data packets sent", fmt.Sprintf("%d pkts", p.DataSentPkts))
	row("data packets delivered", fmt.Sprintf("%d pkts, %d CE-marked", p.DataDeliveredPkts, p.CEDeliveredPkts))
	row("dropped (packet log)", fmt.Sprintf("%d pkts, %s (%s)", p.DropsPkts, units.HumanBytes(float64(p.DropsBytes)), countsByKind(p.DropsByKind)))
	d, q := p.SwitchQueueDelayNs, p.SwitchQDepthBytes
	row("switch hops (data)", fmt.Sprintf("%d", d.N))
	row("switch queue delay mean", units.HumanNs(d.Mean))
	for _, x := range []struct {
		label string
		v     int64
	}{{"p50", d.P50}, {"p90", d.P90}, {"p99", d.P99}, {"p99.9", d.P999}, {"max", d.Max}} {
		row("switch queue delay "+x.label, units.HumanNs(float64(x.v)))
	}
	row("queue at enqueue mean", units.HumanBytes(q.Mean))
	row("queue at enqueue p99", units.HumanBytes(float64(q.P99)))
	row("queue at enqueue max", units.HumanBytes(float64(q.Max)))
	return rows
}

// countsByKind formats per-kind counts in schema/v1's kind order, then any
// other kind sorted by name: "DATA 120, ACK 118". "none" when empty.
func countsByKind(m map[string]int64) string {
	var parts []string
	for _, k := range kindOrder(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// kindOrder lists the keys of m: schema/v1's kinds first, in their order,
// then the others sorted.
func kindOrder(m map[string]int64) []string {
	known := []string{v2.KindData, v2.KindAck, v2.KindNack, v2.KindCNP, v2.KindPause, v2.KindResume, v2.KindRTTReq, v2.KindRTTResp}
	var out, other []string
	for _, k := range known {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	for k := range m {
		if !slices.Contains(known, k) {
			other = append(other, k)
		}
	}
	slices.Sort(other)
	return append(out, other...)
}
