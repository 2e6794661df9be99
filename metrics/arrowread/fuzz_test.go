package arrowread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// fileReaders are the readers of a run folder's Parquet files, each with
// the file it reads, that file's kind as its errors name it and its bound.
var fileReaders = []struct {
	name, what string
	max        int64
	read       func(string) error
}{
	{runfolder.FlowsFile, "a run's " + runfolder.FlowsFile, limits.MaxRunParquetBytes, func(p string) error { _, err := ReadFlows(p); return err }},
	{runfolder.MessagesFile, "a run's " + runfolder.MessagesFile, limits.MaxRunParquetBytes, func(p string) error { _, err := ReadMessages(p); return err }},
	{runfolder.PortsFile, "a run's " + runfolder.PortsFile, limits.MaxRunParquetBytes, func(p string) error { _, err := ReadPorts(p); return err }},
	{runfolder.LinksFile, "an estimate's " + runfolder.LinksFile, limits.MaxRunParquetBytes, func(p string) error { _, err := ReadLinks(p); return err }},
	{runfolder.ComparisonFile, "a comparison's " + runfolder.ComparisonFile, limits.MaxRunParquetBytes, func(p string) error { _, err := ReadComparison(p); return err }},
	{runfolder.PacketsFile, "a run's " + runfolder.PacketsFile, limits.MaxPacketsParquetBytes, func(p string) error {
		return ScanPackets(p, func(*v2.PacketRow) error { return nil })
	}},
	{runfolder.PacketsFile, "a run's " + runfolder.PacketsFile, limits.MaxPacketsParquetBytes, func(p string) error { _, err := ScanPacketStats(p); return err }},
	{runfolder.PacketsFile, "a run's " + runfolder.PacketsFile, limits.MaxPacketsParquetBytes, func(p string) error { _, err := NumRows(p); return err }},
}

// FuzzReadRunParquet feeds arbitrary bytes to every reader of fileReaders
// (flows, messages, ports, links, comparison and packets, the last by
// ScanPackets, and by ScanPacketStats and NumRows as metrics does): each returns rows or a
// one-line error naming the file, and none panics (arrow's panics on a
// damaged footer or page are errors).
func FuzzReadRunParquet(f *testing.F) {
	dir := f.TempDir()
	seed := func(name string, write func(string) error) {
		for _, b := range testfiles.WrittenSeeds(f, filepath.Join(dir, name), write) {
			f.Add(b)
		}
	}
	seed(runfolder.FlowsFile, func(p string) error { return output.WriteRows(p, randomRows[v2.FlowRow](20, 1)) })
	seed(runfolder.MessagesFile, func(p string) error { return output.WriteRows(p, randomRows[v2.MessageRow](20, 2)) })
	seed(runfolder.PortsFile, func(p string) error { return output.WriteRows(p, randomRows[v2.PortRow](20, 3)) })
	seed(runfolder.PacketsFile, func(p string) error {
		return output.WriteRows(p, []v2.PacketRow{simPacket(0), simPacket(1), simPacket(2)})
	})
	f.Add([]byte{})
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "run.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, r := range fileReaders {
			if err := r.read(path); err != nil && (!strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n")) {
				t.Errorf("%s reader: error %q: want one line naming the file", r.name, err)
			}
		}
	})
}
