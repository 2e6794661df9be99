package scenario

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"strconv"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// aggregateFlow is the flow_id of the aggregate's rows in curves.
const aggregateFlow = -1

// ncCurveRow and ncEventRow are the rows of curves.parquet and
// events.parquet (schema/v2).
type (
	ncCurveRow = v2.NetcalcCurveRow
	ncEventRow = v2.NetcalcEventRow
)

// CurveColumns and EventColumns are the columns of curves and events, in
// file order (the CSV headers).
var (
	CurveColumns = []string{"t_ns", "flow_id", "epoch", "a_bytes", "ahat_bytes", "d_bytes", "d_lo_bytes",
		"d_hi_bytes", "backlog_bytes", "rate_bps", "window_bytes", "rtt_ns", "paused"}
	EventColumns = []string{"t_ns", "flow_id", "kind", "before", "after", "unit"}
)

// at returns s[k], or -1 for a series the CC does not have.
func at(s []float64, k int) float64 {
	if s == nil {
		return -1
	}
	return s[k]
}

// anyPaused reports whether PFC pauses some flow at recorded step k.
func anyPaused(res *netcalc.Result, k int) bool {
	for i := range res.Flows {
		if res.Flows[i].Paused[k] {
			return true
		}
	}
	return false
}

// curveRows flattens a Result: per sample, the aggregate then each flow.
func curveRows(res *netcalc.Result) []ncCurveRow {
	n := len(res.Aggregate.Backlog)
	rows := make([]ncCurveRow, 0, n*(len(res.Flows)+1))
	ag := &res.Aggregate
	for k := range n {
		t := nsOf(res.T(k))
		d := ag.D.V[k]
		rows = append(rows, ncCurveRow{TNs: t, FlowID: aggregateFlow, Epoch: -1, ABytes: ag.A.V[k], AhatBytes: ag.Ahat.V[k],
			DBytes: d, DLoBytes: d, DHiBytes: d, BacklogBytes: ag.Backlog[k], RateBps: at(ag.Rate, k),
			WindowBytes: -1, RTTNs: -1, Paused: anyPaused(res, k)})
		for i := range res.Flows {
			f := &res.Flows[i]
			rows = append(rows, ncCurveRow{TNs: t, FlowID: int64(i), Epoch: f.Epoch[k], ABytes: f.A.V[k],
				AhatBytes: f.Ahat.V[k], DBytes: f.D.V[k], DLoBytes: f.DLo.V[k], DHiBytes: f.DHi.V[k],
				BacklogBytes: f.Backlog[k], RateBps: at(f.Rate, k), WindowBytes: at(f.Window, k),
				RTTNs: nsOf(f.RTT[k]), Paused: f.Paused[k]})
		}
	}
	return rows
}

func eventRows(res *netcalc.Result) []ncEventRow {
	rows := make([]ncEventRow, len(res.Events))
	for i, e := range res.Events {
		unit := "bytes"
		if e.IsRate {
			unit = "bps"
		}
		rows[i] = ncEventRow{TNs: nsOf(e.T), FlowID: int64(e.Flow), Kind: string(e.Kind), Before: e.Before, After: e.After, Unit: unit}
	}
	return rows
}

// writeModelFiles writes curves and events into dir as format (parquet or
// csv) and returns the file names.
func writeModelFiles(dir, format string, res *netcalc.Result) ([]string, error) {
	curves, events := curveRows(res), eventRows(res)
	names := []string{runfolder.CurvesName + "." + format, runfolder.EventsName + "." + format}
	if format == "parquet" {
		if err := output.WriteRows(filepath.Join(dir, names[0]), curves); err != nil {
			return nil, err
		}
		return names, output.WriteRows(filepath.Join(dir, names[1]), events)
	}
	if err := output.WriteFileAtomic(filepath.Join(dir, names[0]), curvesCSV(curves)); err != nil {
		return nil, err
	}
	return names, output.WriteFileAtomic(filepath.Join(dir, names[1]), eventsCSV(events))
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
func fmtI(v int64) string   { return strconv.FormatInt(v, 10) }

func curvesCSV(rows []ncCurveRow) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(CurveColumns)
	for _, r := range rows {
		w.Write([]string{fmtI(r.TNs), fmtI(r.FlowID), fmtI(int64(r.Epoch)), fmtF(r.ABytes), fmtF(r.AhatBytes), fmtF(r.DBytes),
			fmtF(r.DLoBytes), fmtF(r.DHiBytes), fmtF(r.BacklogBytes), fmtF(r.RateBps), fmtF(r.WindowBytes), fmtI(r.RTTNs),
			strconv.FormatBool(r.Paused)})
	}
	w.Flush()
	return b.Bytes()
}

func eventsCSV(rows []ncEventRow) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(EventColumns)
	for _, r := range rows {
		w.Write([]string{fmtI(r.TNs), fmtI(r.FlowID), r.Kind, fmtF(r.Before), fmtF(r.After), r.Unit})
	}
	w.Flush()
	return b.Bytes()
}
