package batch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/runfolder"
)

// State is where an item of a tracked plan stands, read from the folder
// alone.
type State string

const (
	// Done: the item's folder holds a complete run of the item's hash.
	Done State = "done"
	// Failed: the item's last attempt failed (a failed marker).
	Failed State = "failed"
	// Running: a process is running the item (a running marker; on this
	// host, only while that process lives).
	Running State = "running"
	// Pending: none of the above.
	Pending State = "pending"
)

// ItemState is one item's state.
type ItemState struct {
	State State
	// Error is a failed item's error.
	Error string
	// Where is the host and process of a running item.
	Where string
}

// itemState reads the state of item i of pl in root.
func itemState(root string, pl *Plan, i int) ItemState {
	it := &pl.Items[i]
	s := ItemState{State: Pending}
	dir := itemPath(root, it)
	var rec struct {
		Hash string `json:"hash"`
	}
	if readJSON(filepath.Join(dir, RecordFile), &rec) == nil && rec.Hash == it.Hash {
		if _, err := runfolder.Open(dir); err == nil {
			if err := checkParquet(dir); err != nil {
				// A damaged run: not done, whatever its summary says.
				s.State, s.Error = Failed, err.Error()
				return s
			}
			s.State = Done
			return s
		}
	}
	if pl.State == "" {
		return s
	}
	var mk marker
	if readJSON(markerPath(root, pl.State, "running", it.markerKey(i)), &mk) == nil && mk.Hash == it.Hash && alive(mk) {
		s.State, s.Where = Running, fmt.Sprintf("%s pid %d", mk.Host, mk.PID)
		return s
	}
	if readJSON(markerPath(root, pl.State, "failed", it.markerKey(i)), &mk) == nil && mk.Hash == it.Hash {
		s.State, s.Error = Failed, mk.Error
	}
	return s
}

// checkParquet checks, cheaply, that the tables of a complete run folder
// (flows, messages, ports, packets: those present) are Parquet files:
// each begins and ends with the PAR1 magic and its footer length fits.
// It reads 12 bytes of each, so that status stays fast on large sweeps;
// the readers check the rest.
func checkParquet(dir string) error {
	for _, t := range []struct {
		name string
		max  int64
	}{
		{runfolder.FlowsFile, limits.MaxRunParquetBytes},
		{runfolder.MessagesFile, limits.MaxRunParquetBytes},
		{runfolder.PortsFile, limits.MaxRunParquetBytes},
		{runfolder.PacketsFile, limits.MaxPacketsParquetBytes},
	} {
		// NB: through limits.Open: a named pipe is refused at once (a
		// plain open would wait for a writer), as is a file past the
		// bound its readers have.
		in, err := limits.Open(filepath.Join(dir, t.name), "a run's "+t.name, t.max, true)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var fe *limits.FileError
		if errors.As(err, &fe) {
			return fmt.Errorf("%s: %s", t.name, fe.Msg)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", t.name, err)
		}
		err = parquetFrame(in.File, in.Size)
		in.Close()
		if err != nil {
			return fmt.Errorf("%s: not a Parquet file (%v)", t.name, err)
		}
	}
	return nil
}

// parquetFrame checks the Parquet framing of f, a regular file of size
// bytes: "PAR1", ..., footer, its 4-byte length, "PAR1".
func parquetFrame(f *os.File, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes, fewer than a Parquet file's 12 bytes of framing", size)
	}
	var head [4]byte
	var tail [8]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return err
	}
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(head[:]) != "PAR1" || string(tail[4:]) != "PAR1" {
		return errors.New("no PAR1 magic")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d does not fit the file's %d bytes", n, size)
	}
	return nil
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

// States reads every item's state in root.
func States(root string, pl *Plan) []ItemState {
	out := make([]ItemState, len(pl.Items))
	for i := range pl.Items {
		out[i] = itemState(root, pl, i)
	}
	return out
}

// Tally counts states.
func Tally(states []ItemState) Counts {
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

// WriteStatus prints the counts (the plan called what, e.g. "sweep") and,
// below them, the items not done (failed first, with their error), at
// most limit of them (0 = all).
func WriteStatus(w io.Writer, what, root string, pl *Plan, states []ItemState, limit int) {
	c := Tally(states)
	fmt.Fprintf(w, "%s %s: %d points: %d done, %d failed, %d running, %d pending\n", what, root, c.Total, c.Done, c.Failed, c.Running, c.Pending)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	shown := 0
	for _, want := range []State{Failed, Running, Pending} {
		for i, s := range states {
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
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i, s.State, pl.Items[i].Dir, strings.ReplaceAll(detail, "\n", " "))
			shown++
		}
	}
	tw.Flush()
}
