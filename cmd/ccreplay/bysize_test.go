package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
)

// osuSmall is a small OSU MPI_Alltoall: 4 ranks, 1..16 KiB, 2 iterations.
const osuSmall = "osu-alltoall:nodes=4,ppn=1,sizes=1KiB..16KiB,iters=2,warmup=0"

// `ccreplay metrics RUN` prints the MCT per message size for any run with
// messages, and --json carries it as by_size: metrics.BySize of the run's
// messages.parquet.
func TestMetricsBySize(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "osu")
	runCLI(t, "run", "--out", dir, "--workload", osuSmall, "--cca", "dcqcn").mustSucceed(t)
	msgs, err := arrowread.ReadMessages(filepath.Join(dir, runfolder.MessagesFile))
	if err != nil {
		t.Fatal(err)
	}
	want := metrics.BySize(msgs)

	r := runCLI(t, "metrics", "--json", dir)
	r.mustSucceed(t)
	var got struct {
		Metrics metrics.Summary    `json:"metrics"`
		BySize  *metrics.SizeTable `json:"by_size"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.BySize == nil || !reflect.DeepEqual(*got.BySize, want) {
		t.Fatalf("by_size %+v, want %+v", got.BySize, want)
	}
	// Every message is in one row; every size of the sweep has its two
	// MPI_Alltoall iterations.
	var n int64
	sizes := map[int64]bool{}
	for _, row := range want.Rows {
		n += row.Messages
		if row.Collectives > 0 {
			sizes[row.SizeMinBytes] = true
			if row.Collectives != 2 || row.CollectivesFinished != 2 || row.CCTMeanNs <= 0 || row.SizeMinBytes != row.SizeMaxBytes {
				t.Errorf("size %s: %d collectives (%d finished), CCT mean %v", row.SizeLabel(), row.Collectives, row.CollectivesFinished, row.CCTMeanNs)
			}
		}
	}
	if n != got.Metrics.Messages || len(sizes) != 5 {
		t.Errorf("%d messages in the rows (run: %d), collective sizes %v", n, got.Metrics.Messages, sizes)
	}

	text := runCLI(t, "metrics", dir)
	text.mustSucceed(t)
	for _, s := range []string{"message completion time per message size (", "MCT mean", "MCT p99", "CCT mean",
		fmt.Sprintf("\n%14d  ", 16384), "MPI_Alltoall average latency"} {
		if !strings.Contains(text.stdout, s) {
			t.Errorf("metrics table lacks %q:\n%s", s, text.stdout)
		}
	}

	// Many distinct sizes: grouped into log-spaced ranges, and the table
	// says so. 30 messages of 1000, 2000, ..., 30000 bytes, one after the
	// other, without collectives.
	var rows []string
	for i := 0; i < 30; i++ {
		dep := ""
		if i > 0 {
			dep = fmt.Sprint(i - 1)
		}
		rows = append(rows, fmt.Sprintf("%d,0,1,%d,0,-1,-1,%s,0", i, 1000*(i+1), dep))
	}
	trace := writeFile(t, tmp, "sizes.csv", csvTrace(rows...))
	many := filepath.Join(tmp, "many")
	runCLI(t, "run", "--out", many, "--trace", trace, "--cca", "linerate").mustSucceed(t)
	text = runCLI(t, "metrics", many)
	text.mustSucceed(t)
	if !strings.Contains(text.stdout, "30 distinct sizes, grouped into 6 log-spaced ranges (a factor of 2 in size each)") ||
		!strings.Contains(text.stdout, "17000-30000") || strings.Contains(text.stdout, "CCT mean") {
		t.Errorf("grouped size table:\n%s", text.stdout)
	}
}

// `ccreplay compare` shows FCT mean and the MCT per message size (mean over
// seeds, per algorithm), and its --json carries each run's by_size.
func TestCompareBySize(t *testing.T) {
	tmp := t.TempDir()
	r := runCLI(t, "compare", "--workload", osuSmall, "--cca", "dcqcn,linerate", "--seeds", "1,2", "--out", filepath.Join(tmp, "cmp"))
	r.mustSucceed(t)
	for _, s := range []string{"\nFCT mean ", "message completion time per message size (6 sizes), mean over seeds",
		"dcqcn:hpcc-run MCT mean", "linerate MCT p99", "linerate CCT mean", "unfair ratio concurrent"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("compare table lacks %q:\n%s", s, r.stdout)
		}
	}
	r = runCLI(t, "compare", "--workload", osuSmall, "--cca", "dcqcn,linerate", "--json", "--out", filepath.Join(tmp, "cmp-json"))
	r.mustSucceed(t)
	var got struct {
		Runs []struct {
			Dir    string
			BySize *metrics.SizeTable `json:"by_size"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 2 {
		t.Fatalf("%d runs", len(got.Runs))
	}
	for _, run := range got.Runs {
		msgs, err := arrowread.ReadMessages(filepath.Join(run.Dir, runfolder.MessagesFile))
		if err != nil {
			t.Fatal(err)
		}
		if want := metrics.BySize(msgs); run.BySize == nil || !reflect.DeepEqual(*run.BySize, want) {
			t.Errorf("%s: by_size %+v, want %+v", run.Dir, run.BySize, want)
		}
	}
}
