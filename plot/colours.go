package plot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// AlgorithmColours gives each of names (algorithm specs, as summary.json's
// cca has them) its colour index as LoadRuns does: the names sorted by
// their family's place in the fixed algorithm order, then by name, and
// numbered from 0. A caller drawing several figures of different run sets
// (a report of runs and a sweep) uses it to keep one colour per algorithm
// throughout.
func AlgorithmColours(names []string) map[string]int {
	u := slices.Clone(names)
	slices.SortFunc(u, func(a, b string) int {
		return cmp.Or(cmp.Compare(algorithmRank(a), algorithmRank(b)), strings.Compare(a, b))
	})
	u = slices.Compact(u)
	m := make(map[string]int, len(u))
	for i, n := range u {
		m[n] = i
	}
	return m
}

// ColourHex is the colour of index i as "#rrggbb": the palette Render
// draws with (Okabe-Ito, colour-blind safe), black for a negative index.
func ColourHex(i int) string {
	if i < 0 {
		return "#000000"
	}
	c := palette[i%len(palette)]
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// PaletteSize is the number of distinct colours; indexes repeat after it.
func PaletteSize() int { return len(palette) }
