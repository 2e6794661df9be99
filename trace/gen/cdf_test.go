package gen

import (
	"math"
	"os"
	"strings"
	"testing"
)

// The cdf kind reaches trace/cdf through Parse: a user CDF file built here,
// a family name from the shared data, and errors that name the key.
func TestCDFKindThroughParse(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/two.txt"
	// HPCC convention (linear): 1000..3000 B uniformly, mean 2000 B.
	if err := os.WriteFile(path, []byte("1000 0\n3000 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, st, err := ParseWithStats("cdf:dist="+path+",hosts=8,load=0.5,duration=2ms", 3)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(st.MeanSize-2000) > 1 || len(tr.Messages) == 0 || tr.Hosts != 8 {
		t.Fatalf("mean %v, %d flows, %d hosts", st.MeanSize, len(tr.Messages), tr.Hosts)
	}
	again, err := Parse("cdf:dist="+path+",hosts=8,load=0.5,duration=2ms", 3)
	if err != nil || len(again.Messages) != len(tr.Messages) {
		t.Fatalf("Parse and ParseWithStats disagree: %v", err)
	}
	if _, err := Parse("cdf:dist="+path+",hosts=8,bogus=1", 1); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("unknown key: %v", err)
	}
	found := false
	for _, k := range Kinds() {
		found = found || k.Name == "cdf"
	}
	if !found || !strings.Contains(kindNames(), "cdf") {
		t.Fatal("cdf is not listed among the generators")
	}
}

// sharedCDFDataDir is the third-party CDF files (hpcc/, opera/, homa/) in
// the shared data folder beside the repository, seen from this package.
const sharedCDFDataDir = "../../../shared/data/cdf"

func TestCDFFamilySharedData(t *testing.T) {
	if _, err := os.Stat(sharedCDFDataDir); err != nil {
		t.Skip("../shared/data is absent: skipping the WebSearch family read from it")
	}
	_, st, err := ParseWithStats("cdf:dist=websearch,hosts=16,load=0.3,duration=5ms,data="+sharedCDFDataDir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(st.MeanSize-1_711_250) > 1 {
		t.Fatalf("WebSearch mean %v, want 1711250 (linear interpolation, HPCC)", st.MeanSize)
	}
	// data= may also name the family's file itself.
	_, st, err = ParseWithStats("cdf:dist=websearch,hosts=16,load=0.3,flows=10,data="+sharedCDFDataDir+"/hpcc/WebSearch_distribution.txt", 1)
	if err != nil || math.Abs(st.MeanSize-1_711_250) > 1 {
		t.Fatalf("data=FILE: mean %v, %v", st.MeanSize, err)
	}
}

// Without data= the families come from the copies built into the binary,
// wherever the working directory is; a family that is not built in says
// how to supply it.
func TestCDFFamilyBuiltin(t *testing.T) {
	t.Chdir(t.TempDir())
	_, st, err := ParseWithStats("cdf:dist=websearch,hosts=16,load=0.3,duration=5ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(st.MeanSize-1_711_250) > 1e-6 {
		t.Fatalf("built-in WebSearch mean %v, want 1711250 (linear interpolation, HPCC)", st.MeanSize)
	}
	_, st, err = ParseWithStats("cdf:dist=cachefollower,hosts=16,load=0.3,flows=100", 1)
	if err != nil || math.Abs(st.MeanSize-692_975.6) > 0.1 {
		t.Fatalf("built-in cache follower: mean %v, %v", st.MeanSize, err)
	}
	_, _, err = ParseWithStats("cdf:dist=fb_hadoop,hosts=16,load=0.3,flows=100", 1)
	if err == nil || !strings.Contains(err.Error(), "not built into ccreplay") || !strings.Contains(err.Error(), "data=DIR") {
		t.Fatalf("fb_hadoop without data=: %v", err)
	}
	if _, err := Parse("cdf:dist=websearch,hosts=16,flows=10,data=", 1); err == nil || !strings.Contains(err.Error(), "data=") {
		t.Fatalf("empty data=: %v", err)
	}
	if !strings.Contains(Usage(), "built-in") {
		t.Fatal("the data key's help does not mention the built-in distributions")
	}
}
