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

func TestCDFFamilySharedData(t *testing.T) {
	if _, err := os.Stat("../../" + DefaultCDFDataDir); err != nil {
		t.Skip("../shared/data is absent: skipping the WebSearch family")
	}
	_, st, err := ParseWithStats("cdf:dist=websearch,hosts=16,load=0.3,duration=5ms,data=../../"+DefaultCDFDataDir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(st.MeanSize-1_711_250) > 1 {
		t.Fatalf("WebSearch mean %v, want 1711250 (linear interpolation, HPCC)", st.MeanSize)
	}
}
