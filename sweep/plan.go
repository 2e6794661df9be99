package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/version"
)

// File names of a sweep's folder.
const (
	// ManifestFile is the sweep's manifest at its root.
	ManifestFile = runfolder.SweepManifestFile
	// TableFile is the one-row-per-point table collect writes.
	TableFile = runfolder.SweepTableFile
	// PointFile is written into each point's run folder: the point's
	// index, hash and configuration.
	PointFile = batch.RecordFile
	// StateDir holds the markers of running and failed points and the
	// Slurm scripts; hidden, so readers of the runs skip it.
	StateDir = ".sweep"
)

// ManifestKind is the "kind" of sweep.json.
const ManifestKind = "sweep"

// Manifest is sweep.json: what the sweep is and every point with the hash
// of its configuration. `sweep point` and `sweep status` work from it
// alone.
type Manifest struct {
	SchemaVersion string `json:"schema_version"`
	Kind          string `json:"kind"`
	Tool          string `json:"tool"`
	// PointKind is what each point runs (run, dataset or estimate).
	PointKind Kind `json:"point_kind"`
	// Spec is the sweep as a specification file (`sweep --spec` reads it).
	Spec string `json:"spec"`
	// Axes and Zip are the specification's.
	Axes []Axis     `json:"axes"`
	Zip  [][]string `json:"zip,omitempty"`
	// Points in index order.
	Points []Point `json:"points"`
}

// Plan is a sweep expanded: its points with their hashes.
type Plan struct {
	Spec   *Spec
	Points []Point
}

// NewPlan expands sp and hashes every point. A point's hash is the SHA-256
// of ccreplay's version, the point's kind, its configuration with every
// key as the run will read it, and the contents of the files it names (a
// trace, an hpcc: topology): equal hashes mean the same run, so a folder
// holding a complete run of the same hash is not run again.
func NewPlan(sp *Spec) (*Plan, error) {
	pts, err := sp.Points()
	if err != nil {
		return nil, inputErrorf("%s: %v", sp.Name, err)
	}
	files := map[string]string{} // path -> content hash, read once
	for i := range pts {
		p := &pts[i]
		h := sha256.New()
		fmt.Fprintf(h, "ccreplay sweep point\nversion %s\nkind %s\n", version.Version, sp.Kind)
		if sp.Kind == KindDataset {
			d, err := json.Marshal(sp.Dataset)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(h, "dataset %s\n", d)
		}
		b, err := json.Marshal(p.file)
		if err != nil {
			return nil, err
		}
		h.Write(b)
		for _, name := range namedFiles(p.file) {
			sum, ok := files[name]
			if !ok {
				sum = fileHash(name)
				files[name] = sum
			}
			fmt.Fprintf(h, "\nfile %s %s", name, sum)
		}
		p.Hash = hex.EncodeToString(h.Sum(nil))
	}
	return &Plan{Spec: sp, Points: pts}, nil
}

// namedFiles are the files a point's configuration reads.
func namedFiles(f *runconfig.File) []string {
	var out []string
	if f.Trace != "" {
		out = append(out, f.Trace)
	}
	if p, ok := strings.CutPrefix(f.Topology, "hpcc:"); ok && p != "" {
		out = append(out, p)
	}
	return out
}

// fileHash is the hex SHA-256 of a file's bytes, "missing" when there is
// none, or "unreadable" when it cannot be read or is not a regular file
// within limits.MaxHashedFileBytes (a named pipe is not waited on). The
// point then fails when it runs, and runs again once the file is there,
// its hash changed.
func fileHash(path string) string {
	in, err := limits.Open(path, "a hashed input file", limits.MaxHashedFileBytes, true)
	if errors.Is(err, fs.ErrNotExist) {
		return "missing"
	}
	if err != nil {
		return "unreadable"
	}
	defer in.Close()
	h := sha256.New()
	if _, err := io.Copy(h, in.Reader); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Manifest is the plan as sweep.json holds it.
func (pl *Plan) Manifest() (*Manifest, error) {
	y, err := pl.Spec.YAML()
	if err != nil {
		return nil, err
	}
	return &Manifest{
		SchemaVersion: runfolder.Version, Kind: ManifestKind, Tool: "ccreplay " + version.Version,
		PointKind: pl.Spec.Kind, Spec: string(y), Axes: pl.Spec.Axes, Zip: pl.Spec.Zip, Points: pl.Points,
	}, nil
}

// Prepare makes root a sweep folder for the plan: root may not exist, be
// empty or hold a sweep (of this or another specification: its points
// whose hash matches are kept, the others run again); anything else is
// refused. It writes sweep.json atomically and returns the manifest.
func (pl *Plan) Prepare(root string) (*Manifest, error) {
	switch what, err := runfolder.Inspect(root); {
	case err != nil:
		return nil, refusedf("--out %s: %v", root, err)
	case what.Kind == "" || what.Kind == runfolder.KindEmpty:
	case what.Kind == runfolder.KindForeign:
		if _, err := os.Stat(filepath.Join(root, ManifestFile)); err != nil {
			return nil, refusedf("--out %s: folder is not empty and not a ccreplay sweep (it holds %q); give a new or empty folder", root, what.Example)
		}
	default:
		return nil, refusedf("--out %s: holds a %s, not a sweep; give another folder", root, what.Describe())
	}
	if _, err := os.Stat(filepath.Join(root, ManifestFile)); err == nil {
		if _, err := ReadManifest(root); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Join(root, StateDir), 0o755); err != nil {
		return nil, err
	}
	m, err := pl.Manifest()
	if err != nil {
		return nil, err
	}
	if err := output.WriteJSONAtomic(filepath.Join(root, ManifestFile), m); err != nil {
		return nil, err
	}
	return m, nil
}

// ReadManifest reads root's sweep.json.
func ReadManifest(root string) (*Manifest, error) {
	b, err := limits.ReadFile(filepath.Join(root, ManifestFile), "a "+runfolder.SweepManifestFile, limits.MaxSweepJSONBytes, true)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, inputErrorf("%s: not a sweep folder (no %s)", root, ManifestFile)
	}
	if err != nil {
		return nil, inputErrorf("%v", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, inputErrorf("%s: %s", filepath.Join(root, ManifestFile), limits.JSONError(err))
	}
	if m.Kind != ManifestKind || !strings.HasPrefix(m.SchemaVersion, "ccreplay.") {
		return nil, inputErrorf("%s: not a ccreplay sweep manifest", filepath.Join(root, ManifestFile))
	}
	for i, p := range m.Points {
		if p.Index != i || p.Dir == "" || strings.Contains(p.Dir, "..") || filepath.IsAbs(p.Dir) {
			return nil, inputErrorf("%s: point %d: bad index or folder %q", filepath.Join(root, ManifestFile), i, p.Dir)
		}
	}
	return &m, nil
}

// PlanOf re-expands a manifest's specification, checking that it gives
// the manifest's points (the same folders and hashes): what `sweep point`
// runs is what the sweep planned, or it refuses (a different ccreplay
// version, a trace changed since).
func PlanOf(root string, m *Manifest) (*Plan, error) {
	sp, err := ParseSpec(filepath.Join(root, ManifestFile)+" spec", []byte(m.Spec))
	if err != nil {
		return nil, err
	}
	pl, err := NewPlan(sp)
	if err != nil {
		return nil, err
	}
	if len(pl.Points) != len(m.Points) {
		return nil, inputErrorf("%s: the specification gives %d points, the manifest lists %d", root, len(pl.Points), len(m.Points))
	}
	for i := range pl.Points {
		if pl.Points[i].Dir != m.Points[i].Dir {
			return nil, inputErrorf("%s: point %d: the specification gives folder %s, the manifest %s", root, i, pl.Points[i].Dir, m.Points[i].Dir)
		}
	}
	return pl, nil
}
