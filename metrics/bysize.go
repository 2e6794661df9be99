package metrics

import (
	"cmp"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
	"text/tabwriter"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// MaxSizeRows is the most rows BySize gives: a run with more distinct
// message sizes has them grouped into log-spaced ranges.
const MaxSizeRows = 20

// SizeTable is a run's message completion time per message size, the way
// OSU micro-benchmarks report latency per message size (osu_alltoall's
// "Avg Latency(us)" per size, paper 000): one row per distinct size_bytes
// of messages.parquet, or, with more than MaxSizeRows distinct sizes, one
// row per log-spaced size range.
//
// The rows depend only on the workload (every message, finished or not),
// so runs of one trace under different algorithms have the same rows.
type SizeTable struct {
	// DistinctSizes is the number of distinct message sizes.
	DistinctSizes int `json:"distinct_sizes"`
	// Octaves is 0 when every row is one size; otherwise the sizes were
	// grouped, and a row holds the sizes s with
	// floor(log2(s) / Octaves) equal (ranges [2^(k*Octaves),
	// 2^((k+1)*Octaves)) bytes; size 0 alone), Octaves the smallest that
	// gives at most MaxSizeRows rows.
	Octaves int       `json:"octaves"`
	Rows    []SizeRow `json:"rows"`
}

// SizeRow is one message size (or size range) of a SizeTable. MCTs are over
// its finished messages (mct_ns = finish_ns - release_ns, nearest-rank
// percentiles as everywhere in this package).
type SizeRow struct {
	SizeMinBytes     int64   `json:"size_min_bytes"` // smallest message size in the row
	SizeMaxBytes     int64   `json:"size_max_bytes"` // largest message size in the row
	Messages         int64   `json:"messages"`
	MessagesFinished int64   `json:"messages_finished"`
	MCTMeanNs        float64 `json:"mct_mean_ns"`
	MCTP50Ns         int64   `json:"mct_p50_ns"`
	MCTP99Ns         int64   `json:"mct_p99_ns"`
	// Collectives (collective_id >= 0) whose largest message falls in the
	// row (for a collective of one message size, as an MPI_Alltoall, that
	// size), and the mean completion time of the finished ones: last
	// finish_ns - first release_ns of its messages, as Summary's CCT.
	Collectives         int64   `json:"collectives"`
	CollectivesFinished int64   `json:"collectives_finished"`
	CCTMeanNs           float64 `json:"cct_mean_ns"`
}

// BySize computes the SizeTable of a run's messages (empty without
// messages). The inputs are not modified.
func BySize(msgs []v2.MessageRow) SizeTable {
	var t SizeTable
	if len(msgs) == 0 {
		return t
	}
	sizes := make([]int64, len(msgs))
	for i := range msgs {
		sizes[i] = msgs[i].SizeBytes
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	t.DistinctSizes = len(sizes)
	if len(sizes) > MaxSizeRows {
		for t.Octaves = 1; countRanges(sizes, t.Octaves) > MaxSizeRows; t.Octaves++ {
		}
	}
	// Row keys in ascending size order; key(s) is monotone in s.
	var keys []int
	for _, s := range sizes {
		if k := sizeKey(s, t.Octaves); len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
		}
	}
	row := func(s int64) int {
		i, _ := slices.BinarySearch(keys, sizeKey(s, t.Octaves))
		return i
	}
	t.Rows = make([]SizeRow, len(keys))
	mcts := make([][]int64, len(keys))
	for i := range t.Rows {
		t.Rows[i].SizeMinBytes = -1
	}
	for i := range msgs {
		m := &msgs[i]
		j := row(m.SizeBytes)
		r := &t.Rows[j]
		if r.SizeMinBytes < 0 {
			r.SizeMinBytes = m.SizeBytes
		}
		r.SizeMinBytes, r.SizeMaxBytes = min(r.SizeMinBytes, m.SizeBytes), max(r.SizeMaxBytes, m.SizeBytes)
		r.Messages++
		if finished(m.FinishNs) {
			mcts[j] = append(mcts[j], m.MCTNs)
		}
	}
	for j := range t.Rows {
		st := summary(mcts[j])
		r := &t.Rows[j]
		r.MessagesFinished = int64(len(mcts[j]))
		r.MCTMeanNs, r.MCTP50Ns, r.MCTP99Ns = st.mean, st.p50, st.p99
	}
	for _, c := range collectiveSpans(msgs) {
		r := &t.Rows[row(c.size)]
		r.Collectives++
		if c.done {
			r.CollectivesFinished++
			r.CCTMeanNs += float64(c.finish - c.start) // a sum until divided below
		}
	}
	for j := range t.Rows {
		r := &t.Rows[j]
		r.CCTMeanNs = ratio(r.CCTMeanNs, float64(r.CollectivesFinished))
	}
	return t
}

// sizeKey is the row key of size s: s itself with octaves 0, else its
// log2 range (-1 for sizes <= 0).
func sizeKey(s int64, octaves int) int {
	if octaves == 0 {
		return int(s)
	}
	if s <= 0 {
		return -1
	}
	return (bits.Len64(uint64(s)) - 1) / octaves
}

// countRanges is the number of distinct keys of the sorted sizes.
func countRanges(sorted []int64, octaves int) int {
	n, last := 0, 0
	for i, s := range sorted {
		if k := sizeKey(s, octaves); i == 0 || k != last {
			n, last = n+1, k
		}
	}
	return n
}

// collSpan is one collective: its first release, last finish, largest
// message and whether all its messages finished.
type collSpan struct {
	id, start, finish, size int64
	done                    bool
}

// collectiveSpans lists the collectives (collective_id >= 0) of msgs by id.
func collectiveSpans(msgs []v2.MessageRow) []collSpan {
	idx := map[int64]int{}
	var out []collSpan
	for i := range msgs {
		m := &msgs[i]
		if m.CollectiveID < 0 {
			continue
		}
		j, ok := idx[m.CollectiveID]
		if !ok {
			j = len(out)
			idx[m.CollectiveID] = j
			out = append(out, collSpan{id: m.CollectiveID, start: m.ReleaseNs, finish: m.FinishNs, size: m.SizeBytes, done: true})
		}
		c := &out[j]
		c.start, c.finish, c.size = min(c.start, m.ReleaseNs), max(c.finish, m.FinishNs), max(c.size, m.SizeBytes)
		c.done = c.done && finished(m.FinishNs)
	}
	// NB: the map only groups; the order is by id.
	slices.SortFunc(out, func(a, b collSpan) int { return cmp.Compare(a.id, b.id) })
	return out
}

// Caption says what the rows of t are: one per size, or how they were
// grouped.
func (t SizeTable) Caption() string {
	if t.Octaves == 0 {
		return fmt.Sprintf("message completion time per message size (%d sizes)", t.DistinctSizes)
	}
	return fmt.Sprintf("message completion time per message size: %d distinct sizes, grouped into %d log-spaced ranges (a factor of %d in size each)",
		t.DistinctSizes, len(t.Rows), int64(1)<<t.Octaves)
}

// SizeLabel names row r: "4096" for one size, "4096-8000" for a range
// (the smallest and largest message size in it).
func (r SizeRow) SizeLabel() string {
	if r.SizeMinBytes == r.SizeMaxBytes {
		return fmt.Sprint(r.SizeMinBytes)
	}
	return fmt.Sprintf("%d-%d", r.SizeMinBytes, r.SizeMaxBytes)
}

// WriteSizeTable prints t, one line per row (SizeCells) under its caption.
// Nothing for an empty table.
func WriteSizeTable(w io.Writer, t SizeTable) {
	if len(t.Rows) == 0 {
		return
	}
	fmt.Fprintln(w, t.Caption())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header, rows := SizeCells(t)
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
}

// SizeCells are the header and the cells of t as WriteSizeTable prints
// them: size, messages, finished, MCT mean, p50 and p99 and, when the run
// has collectives, their count and mean completion time per size.
func SizeCells(t SizeTable) (header []string, rows [][]string) {
	colls := false
	for _, r := range t.Rows {
		colls = colls || r.Collectives > 0
	}
	header = []string{"size (bytes)", "messages", "finished", "MCT mean", "MCT p50", "MCT p99"}
	if colls {
		header = append(header, "collectives", "CCT mean")
	}
	for _, r := range t.Rows {
		row := []string{r.SizeLabel(), fmt.Sprint(r.Messages), fmt.Sprint(r.MessagesFinished),
			units.HumanNs(r.MCTMeanNs), units.HumanNs(float64(r.MCTP50Ns)), units.HumanNs(float64(r.MCTP99Ns))}
		if colls {
			cct := "n/a"
			if r.CollectivesFinished > 0 {
				cct = units.HumanNs(r.CCTMeanNs)
			}
			row = append(row, fmt.Sprint(r.Collectives), cct)
		}
		rows = append(rows, row)
	}
	return header, rows
}
