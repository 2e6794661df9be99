package hpccfmt

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// sharedData is ../shared/data beside the project checkout, seen from this
// package's directory.
const sharedData = "../../shared/data"

// samplePath returns the path of a file of the HPCC simulator's example
// scenario (hpcc_format/) or skips the test.
func samplePath(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(sharedData, "hpcc_format", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data %s not present (it lives in ../shared/data beside the checkout); skipping", p)
	}
	return p
}

// The simulator's mix/config.txt: HPCC (CC_MODE 3); its file names say
// mix/... and resolve to the files beside it.
func TestConfigSharedData(t *testing.T) {
	p := samplePath(t, "config.txt")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ParseConfig(f, p)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(p)
	if c.Algorithm != "hpcc" || c.TopologyFile != filepath.Join(dir, "topology.txt") || c.FlowFile != filepath.Join(dir, "flow.txt") ||
		c.FCTOutputFile != filepath.Join(dir, DefaultFCTOutput) || c.BufferSize != 32<<20 || c.UTarget != 0.95 || c.MIThresh != 0 {
		t.Errorf("config: %+v", c)
	}
	if e, ok := c.ECNFor(100 * units.Gbps); !ok || e.Kmin != 400*units.KB || e.Kmax != 1600*units.KB || e.Pmax != 0.2 {
		t.Errorf("ECN at 100G: %+v %v", e, ok)
	}
	// third.cc reads every key of its own sample, and none of their
	// values asks for what ccreplay lacks.
	if len(c.Ignored) != 0 || c.Unsupported() != nil {
		t.Errorf("unknown keys %v; refusal %v", c.Ignored, c.Unsupported())
	}
	name, params := c.CCParams()
	if name != "hpcc" || params["eta"] != "0.95" || params["max_stage"] != "0" || params["ai_rate"] != "50Mbps" {
		t.Errorf("CCParams: %s %v", name, params)
	}
}

// The simulator's mix/flow.txt declares 2 flows and carries 259 more
// non-blank lines (unused flows and a help text) that it never reads.
// Hosts are renumbered as topology.ReadHPCC does for mix/topology.txt
// (switch 0, hosts 1..65 become 0..64).
func TestFlowsSharedData(t *testing.T) {
	data, err := os.ReadFile(samplePath(t, "flow.txt"))
	if err != nil {
		t.Fatal(err)
	}
	host := func(id int) (int32, error) {
		if id < 1 || id > 65 {
			return 0, fmt.Errorf("node %d is not a host of mix/topology.txt", id)
		}
		return int32(id - 1), nil
	}
	ff, err := ReadFlows(bytes.NewReader(data), "flow.txt", host)
	if err != nil {
		t.Fatal(err)
	}
	if len(ff.Trace.Messages) != 2 || ff.Ignored != 259 || ff.Trace.Hosts != 3 {
		t.Fatalf("%d flows, %d ignored lines, %d hosts", len(ff.Trace.Messages), ff.Ignored, ff.Trace.Hosts)
	}
	for i, m := range ff.Trace.Messages {
		if m.Src != int32(i+1) || m.Dst != 0 || m.Bytes != 200_000_000 || m.Release != 2*units.Second || ff.Flows[i].Priority != 3 || ff.Flows[i].DPort != 100 {
			t.Errorf("flow %d: %+v %+v", i, m, ff.Flows[i])
		}
	}
	// Written back with the node ids, it is the file's first three lines.
	var buf bytes.Buffer
	if err := WriteFlows(&buf, ff.Trace, func(h int32) int { return int(h) + 1 }); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	var head []string
	for i := 0; i < 3 && sc.Scan(); i++ {
		head = append(head, strings.TrimSpace(sc.Text()))
	}
	if want := strings.Join(head, "\n") + "\n"; buf.String() != want {
		t.Errorf("written\n%s\nwant\n%s", buf.String(), want)
	}
}
