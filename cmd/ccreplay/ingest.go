package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runconfig"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/ingest"
	"github.com/ccreplay/ccreplay/trace"
)

// ingestOptions are the arguments and flags of `ccreplay ingest`.
type ingestOptions struct {
	f   *Factory
	ctx context.Context // the command's: Ctrl-C stops reading a capture

	File      string
	Out       string
	JSON      bool
	HostsFile string
	Timing    string
	PPN       int
	Scale     float64

	timing ingest.Timing
}

const ingestExamples = `  # what is in a capture: packets by kind, QPs, messages, ECN marks, CNPs, NAKs
  ccreplay ingest examples/alltoall_roce.pcap

  # write the trace, each QP's messages chained (replay under another algorithm)
  ccreplay ingest examples/alltoall_roce.pcap -o app.parquet --timing closed

  # choose the hosts: one "address host" pair per line
  ccreplay ingest examples/alltoall_roce.pcap --hosts examples/hosts.txt -o app.csv --json

  # an OTF2 archive (8 ranks, 4 per node) and a Chakra trace set (8 ranks), as traces
  ccreplay ingest examples/otf2_halo8/traces.otf2 --ppn 4 -o halo.parquet
  ccreplay ingest examples/chakra_allreduce8/workload.0.et --compute-scale 0.5 --json`

// NewCmdIngest is `ccreplay ingest`; runF, when not nil, is called with
// the parsed options instead of running (tests).
func NewCmdIngest(f *Factory, runF func(*ingestOptions) error) *cobra.Command {
	o := &ingestOptions{f: f}
	c := &cobra.Command{
		Use:   "ingest FILE [-o trace.parquet] [--json] [--hosts FILE] [--timing open|closed]",
		Short: "Turn a packet capture, MPI trace (DUMPI, OTF2) or Chakra execution trace into a trace and report what it holds",
		Long: `Reads a pcap or pcapng capture (optionally gzip-compressed): Ethernet with or
without VLAN tags, Linux cooked or raw IP; IPv4 and IPv6. RoCEv2 packets (UDP
destination port 4791) are assembled per queue pair into SEND, RDMA WRITE and
RDMA READ messages, retransmissions recognised by PSN; other TCP/UDP traffic
forms flows by 5-tuple, which become messages when the capture has no RoCEv2
message. Prints packets by kind, QPs, messages, bytes, CE marks, CNPs, NAKs,
retransmissions and skipped packets, and writes the trace with -o (.parquet,
.csv or .jsonl).

Hosts are numbered in the order their IP addresses first appear, or taken from
--hosts (lines "address host"; several addresses may share a host).
Timing: open releases every message at its captured time; closed chains each
QP's messages (each waits for the previous one plus the captured gap), so a
capture taken under one congestion control replays fairly under another.

A capture cut short is read up to the damaged packet, with a warning.

Application traces become messages with the application's dependencies and
compute gaps (a message waits for what precedes it on its rank), ranks placed
ppn per host, gaps scaled by --compute-scale:
  SST DUMPI      the .meta file or any rank's .bin
  OTF2 (Score-P) the anchor file (traces.otf2) of an archive: MPI point-to-point,
                 collectives, regions for compute gaps (docs/OTF2.md)
  Chakra ET      any rank's prefix.N.et; its siblings are found by number: compute,
                 send/recv and collective nodes with data and control
                 dependencies (docs/CHAKRA.md)
The report gives ranks, messages, bytes per collective kind, the time span and
every event kind skipped.`,
		Example: ingestExamples,
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			o.ctx = cmd.Context()
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return ingestRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&o.Out, "out", "o", "", "write the trace here (.parquet, .csv or .jsonl)")
	fl.BoolVar(&o.JSON, "json", false, "print the report as JSON instead of text")
	fl.StringVar(&o.HostsFile, "hosts", "", "map addresses to hosts: one \"address host\" pair per line")
	fl.StringVar(&o.Timing, "timing", "open", "message release: open (captured times) or closed (per-QP dependencies)")
	fl.IntVar(&o.PPN, "ppn", 1, "MPI and Chakra traces: processes (ranks) per node, placed in blocks of ppn per host")
	fl.Float64Var(&o.Scale, "compute-scale", 1, "MPI and Chakra traces: multiply every compute gap by this")
	return c
}

// validate checks the flags before any file is read.
func (o *ingestOptions) validate() error {
	var err error
	if o.timing, err = ingest.ParseTiming(o.Timing); err != nil {
		return usageErrorf("--timing: %v", err)
	}
	if o.Out != "" {
		switch strings.ToLower(filepath.Ext(o.Out)) {
		case ".parquet", ".csv", ".jsonl":
		default:
			return usageErrorf("-o %s: want a .parquet, .csv or .jsonl file", o.Out)
		}
	}
	return nil
}

// ingestRun reads the file, reports what it holds and writes the trace.
func ingestRun(o *ingestOptions) error {
	if f := runconfig.AppFormatOf(o.File); f != "" {
		return o.runApp(f)
	}
	// The ICRC check costs little and tells whether the capture is sound.
	opt := ingest.Options{Timing: o.timing, HostsFile: o.HostsFile, VerifyICRC: true, Context: o.ctx}
	tr, rep, err := ingest.Load(o.File, opt)
	if o.ctx != nil && o.ctx.Err() != nil {
		return interrupted("ingest: interrupted while reading %s; nothing written", o.File)
	}
	if rep == nil {
		return clierr.Input(err)
	}
	if perr := o.print(rep, rep.Warnings); perr != nil {
		return perr
	}
	if err != nil { // no messages: the report above says what the capture held
		return clierr.Input(err)
	}
	return o.writeTrace(tr)
}

// writeTrace writes the trace to -o, when given.
func (o *ingestOptions) writeTrace(tr *trace.Trace) error {
	if o.Out == "" {
		return nil
	}
	if err := trace.WriteFile(o.Out, tr); err != nil {
		return fmt.Errorf("writing the trace: %w", err)
	}
	if !o.JSON {
		fmt.Fprintf(o.f.Out, "wrote %d messages on %d hosts to %s\n", len(tr.Messages), tr.Hosts, o.Out)
	}
	return nil
}

// print writes a report to stdout, as text or JSON, and its warnings
// (a truncated capture, ...) on stderr.
func (o *ingestOptions) print(rep interface{ WriteText(io.Writer) error }, warnings []string) error {
	if o.JSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return errors.New("encoding the report: " + err.Error())
		}
		fmt.Fprintln(o.f.Out, string(b))
	} else if err := rep.WriteText(o.f.Out); err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(o.f.Err, "warning: "+w)
	}
	return nil
}

// runApp ingests an application trace: SST DUMPI (its .meta or any
// rank's .bin), OTF2 (the anchor .otf2) or Chakra (any rank's .et).
func (o *ingestOptions) runApp(f runconfig.AppFormat) error {
	if err := runconfig.CheckAppFlags(o.PPN, true, o.Scale); err != nil {
		return err
	}
	tr, rep, err := runconfig.LoadApp(o.File, f, runconfig.AppOptions{PPN: o.PPN, ComputeScale: o.Scale})
	if err != nil {
		return clierr.Input(err)
	}
	if o.JSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return errors.New("encoding the report: " + err.Error())
		}
		fmt.Fprintln(o.f.Out, string(b))
	} else if err := rep.WriteText(o.f.Out); err != nil {
		return err
	}
	for _, w := range rep.Warnings() {
		fmt.Fprintln(o.f.Err, "warning: "+w)
	}
	return o.writeTrace(tr)
}
