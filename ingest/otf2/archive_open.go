package otf2

import (
	"fmt"
	"path/filepath"
	"strconv"
)

// Archive is an opened OTF2 archive: its anchor file and global
// definitions. Events are read per location with Events.
type Archive struct {
	Anchor *Anchor
	Defs   *Defs
	// dir holds the per-location files.
	dir string
	// read reads a file (readFile, or an in-memory archive in tests).
	read func(string) ([]byte, error)
}

// Open reads an archive's anchor file (path) and global definitions.
func Open(path string) (*Archive, error) { return openWith(path, readFile) }

func openWith(path string, read func(string) ([]byte, error)) (*Archive, error) {
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	a, err := parseAnchor(path, data)
	if err != nil {
		return nil, err
	}
	defPath, dir := archivePaths(path)
	data, err = read(defPath)
	if err != nil {
		return nil, fmt.Errorf("otf2: global definitions: %w", err)
	}
	d, err := parseGlobalDefs(defPath, data, a.DefChunkSize)
	if err != nil {
		return nil, err
	}
	return &Archive{Anchor: a, Defs: d, dir: dir, read: read}, nil
}

// LocationFiles returns the paths of location loc's local definition and
// event files.
func (a *Archive) LocationFiles(loc uint64) (def, evt string) {
	base := filepath.Join(a.dir, strconv.FormatUint(loc, 10))
	return base + ".def", base + ".evt"
}

// Events reads location loc's events in file order and calls fn for each,
// with times corrected by the location's clock offsets and ids mapped by
// its mapping tables, as the reference reader delivers them. It returns
// false when the location has no event file. fn's Event is reused between
// calls.
func (a *Archive) Events(loc uint64, fn func(*Event) error) (bool, error) {
	has, _, err := a.readLocation(loc, fn)
	return has, err
}

// readLocation is Events that also returns the number of clock offsets
// of the location.
func (a *Archive) readLocation(loc uint64, fn func(*Event) error) (bool, int, error) {
	defPath, evtPath := a.LocationFiles(loc)
	var ld *localDefs
	if data, err := a.read(defPath); err == nil {
		if ld, err = parseLocalDefs(defPath, data, a.Anchor.DefChunkSize); err != nil {
			return true, 0, err
		}
	} else if !missing(err) {
		return false, 0, err
	}
	n := 0
	if ld != nil {
		n = len(ld.offsets)
	}
	data, err := a.read(evtPath)
	if err != nil {
		if missing(err) {
			return false, n, nil
		}
		return false, n, err
	}
	return true, n, readEvents(evtPath, data, a.Anchor.EventChunkSize, ld, fn)
}
