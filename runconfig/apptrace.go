package runconfig

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/ingest/chakra"
	"github.com/ccreplay/ccreplay/ingest/dumpi"
	"github.com/ccreplay/ccreplay/ingest/otf2"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// AppFormat names an application trace format: the MPI and AI-training
// traces that become messages with dependencies and compute gaps.
type AppFormat string

const (
	// FormatDUMPI is an SST DUMPI trace (.meta, or a rank's .bin).
	FormatDUMPI AppFormat = "dumpi"
	// FormatOTF2 is an OTF2 (Score-P) archive, given by its anchor .otf2.
	FormatOTF2 AppFormat = "otf2"
	// FormatChakra is a Chakra execution trace set (prefix.N.et, one per
	// rank).
	FormatChakra AppFormat = "chakra"
)

// AppFormatOf tells an application trace by its name (and an OTF2 anchor
// by its header); "" for anything else.
func AppFormatOf(path string) AppFormat {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".meta", ".bin":
		return FormatDUMPI
	case ".otf2":
		return FormatOTF2
	case ".et":
		return FormatChakra
	}
	if otf2.IsOTF2(path) {
		return FormatOTF2
	}
	return ""
}

// AppReport is what an application trace's reader found: printed by
// `ccreplay ingest`, its warnings carried into the run.
type AppReport interface {
	WriteText(w io.Writer) error
	Warnings() []string
}

// AppOptions place ranks and scale compute.
type AppOptions struct {
	// PPN is the MPI processes (ranks) per node: rank r runs on host r/PPN.
	PPN int
	// ComputeScale multiplies every compute gap (0 means 1): 0.5 models
	// compute twice as fast, so the network weighs more.
	ComputeScale float64
}

// LoadApp reads an application trace of the given format.
func LoadApp(path string, f AppFormat, opt AppOptions) (*trace.Trace, AppReport, error) {
	if opt.ComputeScale < 0 || math.IsNaN(opt.ComputeScale) || math.IsInf(opt.ComputeScale, 0) {
		return nil, nil, fmt.Errorf("compute scale %v: want a number >= 0", opt.ComputeScale)
	}
	switch f {
	case FormatDUMPI:
		tr, rep, err := dumpi.Load(path, dumpi.Options{PPN: opt.PPN})
		if err != nil {
			return nil, nil, err
		}
		if err := scaleGaps(tr, opt.ComputeScale); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", path, err)
		}
		return tr, rep, nil
	case FormatOTF2:
		tr, rep, err := otf2.Load(path, otf2.Options{PPN: opt.PPN, ComputeScale: opt.ComputeScale})
		if err != nil {
			return nil, nil, err
		}
		return tr, rep, nil
	case FormatChakra:
		tr, rep, err := chakra.Load(path, chakra.Options{PPN: opt.PPN, ComputeScale: opt.ComputeScale})
		if err != nil {
			return nil, nil, err
		}
		return tr, rep, nil
	}
	return nil, nil, fmt.Errorf("%s: not an application trace", path)
}

// scaleGaps multiplies every compute gap of tr by s (0 and 1 leave them).
func scaleGaps(tr *trace.Trace, s float64) error {
	if s == 0 || s == 1 {
		return nil
	}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		g := float64(m.Gap) * s
		if g > float64(limits.MaxTime) {
			return fmt.Errorf("message %d: compute gap %v scaled by %v is beyond %s", m.ID, m.Gap, s, limits.Describe(limits.MaxTime))
		}
		m.Gap = units.Time(math.Round(g))
	}
	return nil
}

// CheckAppFlags checks --ppn and --compute-scale, which a run takes for
// any workload (a generated one ignores them): ppn must be at least 1
// (0 stands for "not given" only when the flag was not given) and the
// scale a finite number >= 0. Errors are *clierr.UsageError values.
func CheckAppFlags(ppn int, ppnGiven bool, scale float64) error {
	if ppn < 0 || (ppnGiven && ppn < 1) {
		return flagErrorf("--ppn %d: want the MPI ranks per host, an integer >= 1", ppn)
	}
	if scale < 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return flagErrorf("--compute-scale %v: want a factor on compute gaps, a finite number >= 0", scale)
	}
	return nil
}
