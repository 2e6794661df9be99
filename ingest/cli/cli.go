// Package cli is `ccreplay ingest` as a Go call: the command's arguments
// and flags checked (CommandOptions.Validate), the capture read by ingest
// or the application trace (DUMPI, OTF2, Chakra) by runconfig, the report
// printed as text or JSON with its warnings, and the trace written.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/ingest"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/trace"
)

// CommandOptions are the arguments and flags of `ccreplay ingest`.
type CommandOptions struct {
	// File is the capture or application trace to read.
	File string
	// Out is the trace to write (.parquet, .csv or .jsonl; "": none).
	Out string
	// JSON prints the report as JSON instead of text.
	JSON bool
	// HostsFile maps addresses to hosts (ingest.Options.HostsFile).
	HostsFile string
	// Timing is open or closed (ingest.ParseTiming).
	Timing string
	// PPN (ranks per host) and Scale (a factor on compute gaps) apply to
	// application traces.
	PPN   int
	Scale float64

	timing ingest.Timing
}

// Validate checks the flags before any file is read (usage errors).
func (o *CommandOptions) Validate() error {
	var err error
	if o.timing, err = ingest.ParseTiming(o.Timing); err != nil {
		return clierr.Usagef("--timing: %v", err)
	}
	if o.Out != "" {
		switch strings.ToLower(filepath.Ext(o.Out)) {
		case ".parquet", ".csv", ".jsonl":
		default:
			return clierr.Usagef("-o %s: want a .parquet, .csv or .jsonl file", o.Out)
		}
	}
	return nil
}

// ParsedTiming is the Timing Validate parsed.
func (o *CommandOptions) ParsedTiming() ingest.Timing { return o.timing }

// Run reads the file, reports what it holds on s.Out (warnings on s.Err)
// and writes the trace to Out. ctx stops reading a capture (nil: never).
func (o *CommandOptions) Run(ctx context.Context, s iostreams.Streams) error {
	if f := runconfig.AppFormatOf(o.File); f != "" {
		return o.runApp(s, f)
	}
	// The ICRC check costs little and tells whether the capture is sound.
	opt := ingest.Options{Timing: o.timing, HostsFile: o.HostsFile, VerifyICRC: true, Context: ctx}
	tr, rep, err := ingest.Load(o.File, opt)
	if ctx != nil && ctx.Err() != nil {
		return clierr.Interruptedf("ingest: interrupted while reading %s; nothing written", o.File)
	}
	if rep == nil {
		return clierr.Input(err)
	}
	if perr := o.print(s, rep, rep.Warnings); perr != nil {
		return perr
	}
	if err != nil { // no messages: the report above says what the capture held
		return clierr.Input(err)
	}
	return o.writeTrace(s, tr)
}

// runApp ingests an application trace: SST DUMPI (its .meta or any
// rank's .bin), OTF2 (the anchor .otf2) or Chakra (any rank's .et).
func (o *CommandOptions) runApp(s iostreams.Streams, f runconfig.AppFormat) error {
	if err := runconfig.CheckAppFlags(o.PPN, true, o.Scale); err != nil {
		return err
	}
	tr, rep, err := runconfig.LoadApp(o.File, f, runconfig.AppOptions{PPN: o.PPN, ComputeScale: o.Scale})
	if err != nil {
		return clierr.Input(err)
	}
	if err := o.print(s, rep, rep.Warnings()); err != nil {
		return err
	}
	return o.writeTrace(s, tr)
}

// print writes a report to s.Out, as text or JSON, and its warnings (a
// truncated capture, ...) on s.Err.
func (o *CommandOptions) print(s iostreams.Streams, rep interface{ WriteText(io.Writer) error }, warnings []string) error {
	if o.JSON {
		if err := s.PrintJSON(rep); err != nil {
			return errors.New("encoding the report: " + err.Error())
		}
	} else if err := rep.WriteText(s.Out); err != nil {
		return err
	}
	for _, w := range warnings {
		s.Warn(w)
	}
	return nil
}

// writeTrace writes the trace to Out, when given.
func (o *CommandOptions) writeTrace(s iostreams.Streams, tr *trace.Trace) error {
	if o.Out == "" {
		return nil
	}
	if err := trace.WriteFile(o.Out, tr); err != nil {
		return fmt.Errorf("writing the trace: %w", err)
	}
	if !o.JSON {
		fmt.Fprintf(s.Out, "wrote %d messages on %d hosts to %s\n", len(tr.Messages), tr.Hosts, o.Out)
	}
	return nil
}
