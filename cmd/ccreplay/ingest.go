package main

import (
	"context"

	"github.com/spf13/cobra"

	ingestcli "github.com/ccreplay/ccreplay/ingest/cli"
)

// ingestOptions are the arguments and flags of `ccreplay ingest`.
type ingestOptions struct {
	f   *Factory
	ctx context.Context // the command's: Ctrl-C stops reading a capture
	ingestcli.CommandOptions
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
			if err := o.Validate(); err != nil {
				return err
			}
			return runOr(runF, ingestRun, o)
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

// ingestRun reads the file, reports what it holds and writes the trace.
func ingestRun(o *ingestOptions) error { return o.Run(o.ctx, o.f.ioStreams()) }
