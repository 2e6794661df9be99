package hpccfmt

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzReadFlows: no panics; errors are one line naming the file; what is
// accepted writes back to a file that reads as the same trace.
func FuzzReadFlows(f *testing.F) {
	for _, s := range []string{smallFlows, "2\n2 1 3 100 200000000 2\n3 1 3 100 200000000 2\n", "0\n", "1\n1 2 3 100 10 2e-3\n", "1\n1 2 3 100 10 1.0000000000005\n", "2\n7 1 2 3 100 10 2\n1 2 3 100 10 2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ff, err := ReadFlows(strings.NewReader(in), "flow.txt", nil)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "flow.txt") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteFlows(&buf, ff.Trace, nil); err != nil {
			t.Fatalf("write: %v", err)
		}
		back, err := ReadFlows(&buf, "back.txt", nil)
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(back.Trace, ff.Trace) {
			t.Fatalf("round trip changed the trace")
		}
	})
}

// FuzzParseConfig: no panics; errors are one line naming the file.
func FuzzParseConfig(f *testing.F) {
	f.Add(mixConfig)
	for _, s := range []string{"CC_MODE 10\n", "KMAX_MAP 1 1 4\nKMIN_MAP 1 1 5\n", "RATE_AI 5GBps\n", "#x\n\nFOO\n",
		"LINK_DOWN 5 1 2\nPAUSE_TIME 0.2\nL2_ACK_INTERVAL 3000\nQLEN_MON_START 9\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := ParseConfig(strings.NewReader(in), "config.txt")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "config.txt") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		c.CCParams()
		c.ECNTable()
		// Refusals and warnings are one line naming the file too.
		if err := c.Unsupported(); err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "config.txt:") {
				t.Fatalf("refusal %q", msg)
			}
		}
		if err := c.CheckFlowACKs([]int64{1, 999, 4000}, "flow.txt", []int{2, 3, 4}); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("flow refusal %q", err)
		}
		for _, w := range c.Warnings() {
			if strings.Contains(w, "\n") || !strings.HasPrefix(w, "config.txt:") {
				t.Fatalf("warning %q", w)
			}
		}
	})
}
