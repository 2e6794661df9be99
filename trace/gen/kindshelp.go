package gen

import (
	"fmt"
	"strings"
)

// KindsHelp lists every generator with the first part of its description
// (up to " ("), under a heading, for the --workload flag's help: a new
// generator shows there without anyone editing a help text.
func KindsHelp() string {
	var b strings.Builder
	b.WriteString("Workloads (--workload KIND:key=value,...; `ccreplay gen --help` lists every key):\n")
	for _, k := range Kinds() {
		doc, _, _ := strings.Cut(k.Doc, " (")
		fmt.Fprintf(&b, "  %-13s %s\n", k.Name, doc)
	}
	return b.String()
}
