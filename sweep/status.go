package sweep

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
)

// State is where a point stands, read from the sweep's folder alone.
type State string

const (
	// Done: the point's folder holds a complete run of the point's hash.
	Done State = "done"
	// Failed: the point's last attempt failed (.sweep/failed/INDEX.json).
	Failed State = "failed"
	// Running: a process is running the point (.sweep/running/INDEX.json;
	// on this host, only while that process lives).
	Running State = "running"
	// Pending: none of the above.
	Pending State = "pending"
)

// PointState is one point's state.
type PointState struct {
	Point
	State State `json:"state"`
	// Error is a failed point's error.
	Error string `json:"error,omitempty"`
	// Where is the host and process of a running point.
	Where string `json:"where,omitempty"`
}

// pointState reads the state of point p in root.
func pointState(root string, p *Point) (PointState, error) {
	s := PointState{Point: *p, State: Pending}
	dir := filepath.Join(root, filepath.FromSlash(p.Dir))
	var rec pointRecord
	if readJSON(filepath.Join(dir, PointFile), &rec) == nil && rec.Hash == p.Hash {
		if _, err := runfolder.ReadManifest(dir); err == nil {
			s.State = Done
			return s, nil
		}
	}
	var mk marker
	if readJSON(markerPath(root, "running", p.Index), &mk) == nil && mk.Hash == p.Hash && alive(mk) {
		s.State, s.Where = Running, fmt.Sprintf("%s pid %d", mk.Host, mk.PID)
		return s, nil
	}
	if readJSON(markerPath(root, "failed", p.Index), &mk) == nil && mk.Hash == p.Hash {
		s.State, s.Error = Failed, mk.Error
	}
	return s, nil
}

// alive says whether a running marker's process may still run: on this
// host, whether the process exists; on another host we cannot tell and
// trust the marker.
func alive(mk marker) bool {
	host, _ := os.Hostname()
	if mk.Host != host || mk.PID <= 0 {
		return true
	}
	return processExists(mk.PID)
}

// states reads every point's state.
func (pl *Plan) states(root string) ([]PointState, error) {
	return States(root, pl.Points)
}

// States reads the state of each of pts in root.
func States(root string, pts []Point) ([]PointState, error) {
	out := make([]PointState, len(pts))
	for i := range pts {
		s, err := pointState(root, &pts[i])
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// Tally counts states.
func Tally(states []PointState) Counts {
	c := Counts{Total: len(states)}
	for _, s := range states {
		switch s.State {
		case Done:
			c.Done++
		case Failed:
			c.Failed++
		case Running:
			c.Running++
		default:
			c.Pending++
		}
	}
	return c
}

// WriteStatus prints the counts and, below them, the points not done
// (failed first, with their error), at most limit of them (0 = all).
func WriteStatus(w io.Writer, root string, states []PointState, limit int) {
	c := Tally(states)
	fmt.Fprintf(w, "sweep %s: %d points: %d done, %d failed, %d running, %d pending\n", root, c.Total, c.Done, c.Failed, c.Running, c.Pending)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	shown := 0
	for _, want := range []State{Failed, Running, Pending} {
		for _, s := range states {
			if s.State != want {
				continue
			}
			if limit > 0 && shown == limit {
				fmt.Fprintf(tw, "...\t(%d more not done)\n", c.Total-c.Done-shown)
				tw.Flush()
				return
			}
			detail := s.Error
			if s.State == Running {
				detail = s.Where
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", s.Index, s.State, s.Dir, oneLine(detail))
			shown++
		}
	}
	tw.Flush()
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
