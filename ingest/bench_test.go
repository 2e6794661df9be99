package ingest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/internal/examplegen"
)

// benchCapture is a generated capture of about 2 million packets, written
// once per test binary run and removed by TestMain.
var benchCapture struct {
	once    sync.Once
	dir     string
	path    string
	packets int64
	err     error
}

// bench2M is an 8-host all-to-all of 4 KB RDMA WRITEs (4 data packets and
// an ACK per message) captured with a 128-byte snap length, as datacenter
// captures usually are: 7200 rounds, 2,016,000 packets.
var bench2M = examplegen.Config{Hosts: 8, Rounds: 7200, MessageBytes: 4096, MTU: 1024, Snaplen: 128,
	HotHost: 0, CEEvery: 50, Losses: []examplegen.Loss{{Round: 10, Src: 1, Dst: 2, Packet: 1}}}

func benchFile(b *testing.B) (string, int64) {
	c := &benchCapture
	c.once.Do(func() {
		if c.dir, c.err = os.MkdirTemp("", "ccreplay-ingest-bench"); c.err != nil {
			return
		}
		c.path = filepath.Join(c.dir, "alltoall_2m.pcap")
		f, err := os.Create(c.path)
		if err != nil {
			c.err = err
			return
		}
		defer f.Close()
		w := bufio.NewWriterSize(f, 1<<20)
		truth, err := examplegen.Write(w, bench2M)
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			c.err = err
			return
		}
		c.packets = truth.Packets
	})
	if c.err != nil {
		b.Fatal(c.err)
	}
	return c.path, c.packets
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchCapture.dir != "" {
		os.RemoveAll(benchCapture.dir)
	}
	os.Exit(code)
}

// BenchmarkLoad2M ingests about 2 million packets: packets per second
// (wall and CPU time) of the whole pipeline (pcapgo, DecodingLayerParser, reconstruction, trace
// building), and the heap in use afterwards, which holds the trace's
// 403,200 messages but no packet.
func BenchmarkLoad2M(b *testing.B) {
	path, packets := benchFile(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	var heap uint64
	for i := 0; i < b.N; i++ {
		tr, rep, err := Load(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Packets != packets {
			b.Fatalf("%d packets, want %d", rep.Packets, packets)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = max(heap, ms.HeapInuse)
		runtime.KeepAlive(tr)
	}
	b.ReportMetric(float64(packets)*float64(b.N)/b.Elapsed().Seconds(), "pkts/s")
	// NB: on a shared machine wall time says little; CPU time (all
	// threads, the garbage collector's included) says what ingest costs.
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(packets)*float64(b.N)/cpu.Seconds(), "pkts/cpu-s")
	}
	b.ReportMetric(float64(heap)/1e6, "MB-heap")
}
