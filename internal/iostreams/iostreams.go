// Package iostreams is what a command's run function writes to, as the
// command-line layer hands it to the package the command drives: standard
// output, standard error and whether that is a terminal (progress lines
// and notes meant for a person are shown only there), and the one layout
// commands print JSON in.
package iostreams

import (
	"encoding/json"
	"fmt"
	"io"
)

// Streams are a command's output streams.
type Streams struct {
	// Out receives the command's result (tables, JSON).
	Out io.Writer
	// Err receives warnings, notes and progress.
	Err io.Writer
	// ErrIsTerminal says whether Err is a terminal: progress and notes
	// for a person are written only then, never into logs or pipes.
	ErrIsTerminal bool
}

// PrintJSON writes v to Out indented by two spaces, with a final newline.
func (s Streams) PrintJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(s.Out, string(b))
	return err
}

// Warn writes one "warning: ..." line to Err.
func (s Streams) Warn(msg string) {
	fmt.Fprintf(s.Err, "warning: %s\n", msg)
}
