package cca

import (
	"fmt"
	"strings"
)

// Help lists every registered algorithm with its one-line description,
// under a heading, for the --cca flag's help: a new algorithm shows there
// without anyone editing a help text.
func (r *Registry) Help() string {
	var b strings.Builder
	b.WriteString("Algorithms (--cca NAME[:PRESET], --cca-param KEY=VALUE):\n")
	for _, n := range r.Names() {
		fmt.Fprintf(&b, "  %-10s %s\n", n, r.Doc(n))
	}
	return b.String()
}
