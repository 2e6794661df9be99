package topology

import "strings"

// FlagHelp is SpecHelp under the --topology flag's heading.
func FlagHelp() string {
	return "Topologies (--topology): " + strings.TrimPrefix(SpecHelp(), "topology spec: ")
}
