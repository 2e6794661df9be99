package fidelity

import (
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// FCTFile is the name of the fct.txt a run folder may hold (ccreplay run
// writes it for HPCC scenarios; the simulator's run folders have it).
const FCTFile = runfolder.FCTFile

// ErrNoFlows is returned by Load for a side without a finished flow.
var ErrNoFlows = errors.New("no finished flow")

// Load reads one side from path: an fct.txt file (hpccfmt.ReadFCT: the
// simulator's layout, or the research fork's with a flow id first); or a
// folder holding fct.txt (a ccreplay run of an HPCC scenario, or a
// simulator run folder); or else a complete ccreplay run folder, whose
// rows FromRun builds from messages.parquet and flows.parquet. label
// names the side in tables. Errors name the file (and the line, for a
// malformed fct.txt line).
func Load(path, label string) (Side, error) {
	s := Side{Label: label, Path: path}
	st, err := os.Stat(path)
	if err != nil {
		return s, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	file := path
	if st.IsDir() {
		file = filepath.Join(path, FCTFile)
		if fst, err := os.Stat(file); err != nil || !fst.Mode().IsRegular() {
			return loadRun(s)
		}
		s.Source = "the run folder's " + FCTFile
	} else {
		s.Source = runfolder.FCTFile + " file"
	}
	f, err := limits.Open(file, "an "+runfolder.FCTFile, limits.MaxTableBytes, false)
	if err != nil {
		var fe *limits.FileError
		if errors.As(err, &fe) {
			return s, err
		}
		return s, fmt.Errorf("%s: %w", file, errors.Unwrap(err))
	}
	defer f.Close()
	if s.Rows, err = hpccfmt.ReadFCT(f.Reader, file); err != nil {
		return s, err
	}
	if len(s.Rows) == 0 {
		return s, fmt.Errorf("%s: %w (an empty "+runfolder.FCTFile+")", file, ErrNoFlows)
	}
	return s, nil
}

// loadRun reads a complete ccreplay run folder's messages and flows.
func loadRun(s Side) (Side, error) {
	dir := s.Path
	rf, err := runfolder.Open(dir)
	if err != nil {
		return s, fmt.Errorf("%s: neither %s nor a ccreplay run folder: %w", dir, FCTFile, err)
	}
	run, err := arrowread.ReadRun(rf)
	if err != nil {
		return s, err
	}
	man := rf.Manifest
	rows, note := FromRun(run.Messages, run.Flows, man.Config.MTUPayloadBytes, man.Config.HeaderBytes)
	if len(rows) == 0 {
		return s, fmt.Errorf("%s: %w with sender_done_ns in %s (a ccreplay.v1 run has none)", dir, ErrNoFlows, runfolder.MessagesFile)
	}
	s.Rows = rows
	s.Source = fmt.Sprintf("%s and %s (no %s in the folder): FCT = sender_done_ns - release_ns per message, node ids = ccreplay host ids, source ports numbered per host pair from %d in message order, dport %d%s",
		runfolder.MessagesFile, runfolder.FlowsFile, FCTFile, hpccfmt.FirstSPort, hpccfmt.DefaultDPort, note)
	return s, nil
}

// FromRun builds fct.txt rows from a run's messages and flows, the way
// ccreplay run --fct-txt does: one row per message whose completion
// reached its sender (sender_done_ns >= 0), in message order; FCT =
// sender_done_ns - release_ns; start = release_ns; node ids = ccreplay
// host ids; source ports per (src, dst) pair from hpccfmt.FirstSPort in
// message order (the simulator's rule), dport hpccfmt.DefaultDPort. The
// standalone FCT is the flow's standalone_fct_ns when the flow carries
// one message; for a flow of several, its transmission term is replaced
// by the message's (payload and header bytes per packet, from the run's
// summary.json; the returned note says when they were unknown and the
// flow's value was kept).
func FromRun(msgs []v2.MessageRow, flows []v2.FlowRow, payload, header int64) (rows []hpccfmt.FCTRow, note string) {
	byID := make(map[int64]*v2.FlowRow, len(flows))
	for i := range flows {
		byID[flows[i].FlowID] = &flows[i]
	}
	type pair struct{ src, dst int32 }
	next := map[pair]int{}
	approx := 0
	for _, m := range msgs {
		k := pair{m.Src, m.Dst}
		sport, ok := next[k]
		if !ok {
			sport = hpccfmt.FirstSPort
		}
		next[k] = (sport + 1) % 65536
		f := byID[m.FlowID]
		if m.SenderDoneNs < 0 || f == nil {
			continue
		}
		sa := f.StandaloneNs
		if f.Messages > 1 {
			if payload > 0 && header >= 0 && f.BottleneckBps > 0 {
				sa += txNs(m.SizeBytes, payload, header, f.BottleneckBps) - txNs(f.SizeBytes, payload, header, f.BottleneckBps)
			} else {
				approx++
			}
		}
		rows = append(rows, hpccfmt.FCTRow{
			ID: -1, Src: int(m.Src), Dst: int(m.Dst), SPort: sport, DPort: hpccfmt.DefaultDPort,
			Size: m.SizeBytes, StartNs: m.ReleaseNs, FCTNs: m.SenderDoneNs - m.ReleaseNs, StandaloneNs: max(sa, 0),
		})
	}
	if approx > 0 {
		note = fmt.Sprintf("; %d messages of multi-message flows keep their flow's standalone FCT (payload and header sizes unknown)", approx)
	}
	return rows, note
}

// txNs is the standalone FCT's transmission term, (size + packets *
// header) * 8 / rate in whole nanoseconds, truncated
// (topology.NS3StandaloneFCT).
func txNs(size, payload, header, bps int64) int64 {
	pkts := max((size+payload-1)/payload, 1) // topology.NumPackets: 1 for an empty message
	total := uint64(max(size, 0) + pkts*header)
	hi, lo := bits.Mul64(total, 8_000_000_000)
	if hi >= uint64(bps) {
		return 0
	}
	q, _ := bits.Div64(hi, lo, uint64(bps))
	return int64(q)
}
