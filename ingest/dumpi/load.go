package dumpi

import (
	"context"
	"fmt"
	"runtime"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/trace"
)

// Options and the entry points: Load, LoadFiles.

// DefaultEagerLimit is Options.EagerLimit's default, bytes.
const DefaultEagerLimit = 64 << 10

// Options tunes how a DUMPI trace becomes a ccreplay trace.
type Options struct {
	// PPN is the number of ranks per host, placed in blocks: rank r runs
	// on host r / PPN. 0 means 1.
	PPN int
	// Hosts places the ranks explicitly: rank r runs on host Hosts[r].
	// When set it needs one entry per rank, each >= 0, and PPN is
	// ignored.
	Hosts []int32
	// EagerLimit is the largest send, bytes, that completes as soon as it
	// is handed to MPI (the eager protocol): a rank waiting for such a
	// send does not wait for its delivery. Larger sends, and synchronous
	// ones (MPI_Ssend, MPI_Issend), complete when delivered. 0 means
	// DefaultEagerLimit; a negative value makes every send complete on
	// delivery.
	EagerLimit int64
}

// Load reads a DUMPI trace set, given its .meta file or any rank's .bin
// file (the others are found by the .meta's fileprefix and numprocs, or,
// without a .meta, as the consecutive prefix-NNNN.bin files from 0000),
// and turns it into a trace: point-to-point sends and decomposed
// collectives as messages between the ranks' hosts, each rank's program
// order and compute time as dependencies, gaps and synchronization
// points. See the package comment for the rules. Decoding errors are
// *DecodeError and name the file and record.
func Load(path string, opt Options) (*trace.Trace, *Report, error) {
	files, _, err := traceFiles(path)
	if err != nil {
		return nil, nil, err
	}
	return LoadFiles(files, opt)
}

// LoadFiles is Load for an explicit list of trace files, one per rank in
// rank order.
func LoadFiles(files []string, opt Options) (*trace.Trace, *Report, error) {
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("dumpi: no trace files")
	}
	logs := make([]*rankLog, len(files))
	var hdr Header
	// Every rank is read (keep going), so that the error shown is the
	// lowest rank's whatever the scheduling.
	err := pool.Run(context.Background(), len(files), pool.Options{Parallel: runtime.GOMAXPROCS(0), KeepGoing: true}, func(_ context.Context, r int) error {
		f, err := Open(files[r])
		if err != nil {
			return err
		}
		defer f.Close()
		if r == 0 {
			hdr = f.Header
		}
		logs[r], err = extract(f, r)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	tr, rep, err := build(logs, opt)
	if err != nil {
		return nil, nil, err
	}
	rep.Files = files
	rep.Version = fmt.Sprintf("%d.%d.%d", hdr.Version[0], hdr.Version[1], hdr.Version[2])
	rep.Hostname = hdr.Hostname
	rep.StartTime = hdr.StartTime
	return tr, rep, nil
}

// placement maps ranks to hosts.
func placement(n int, opt Options) (hosts []int32, nHosts, ppn int, err error) {
	hosts = make([]int32, n)
	if opt.Hosts != nil {
		if len(opt.Hosts) != n {
			return nil, 0, 0, fmt.Errorf("dumpi: %d host placements for %d ranks", len(opt.Hosts), n)
		}
		per := map[int32]int{}
		for r, h := range opt.Hosts {
			if h < 0 {
				return nil, 0, 0, fmt.Errorf("dumpi: rank %d placed on host %d", r, h)
			}
			hosts[r] = h
			per[h]++
			ppn = max(ppn, per[h])
			nHosts = max(nHosts, int(h)+1)
		}
		return hosts, nHosts, ppn, nil
	}
	ppn = max(opt.PPN, 1)
	for r := range hosts {
		hosts[r] = int32(r / ppn)
	}
	return hosts, (n + ppn - 1) / ppn, ppn, nil
}
