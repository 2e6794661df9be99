package switchmodel

import (
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// The HPCC simulator's KMIN_MAP/KMAX_MAP/PMAX_MAP (data/hpcc_format/config.txt):
// 25G -> 100/400 KB, 50G -> 200/800 KB, 100G -> 400/1600 KB, Pmax 0.2. An
// explicit entry wins; unlisted rates fall back to RefRate scaling.
func TestECNPerRateTable(t *testing.T) {
	c := ECNConfig{
		Enabled: true, KminBytes: 100 * units.KB, KmaxBytes: 400 * units.KB, Pmax: 0.2, RefRate: 25 * units.Gbps,
		PerRate: []ECNRate{
			{Rate: 25 * units.Gbps, KminBytes: 100 * units.KB, KmaxBytes: 400 * units.KB, Pmax: 0.2},
			{Rate: 100 * units.Gbps, KminBytes: 400 * units.KB, KmaxBytes: 1600 * units.KB, Pmax: 0.05},
		},
	}
	for _, tc := range []struct {
		rate       units.BitsPerSec
		kmin, kmax units.Bytes
		pmax       float64
	}{
		{25 * units.Gbps, 100 * units.KB, 400 * units.KB, 0.2},
		{100 * units.Gbps, 400 * units.KB, 1600 * units.KB, 0.05}, // from the table, not scaled Pmax
		{50 * units.Gbps, 200 * units.KB, 800 * units.KB, 0.2},    // not listed: scaled from 25G
		{400 * units.Gbps, 1600 * units.KB, 6400 * units.KB, 0.2},
	} {
		kmin, kmax, pmax := c.ForRate(tc.rate)
		if kmin != tc.kmin || kmax != tc.kmax || pmax != tc.pmax {
			t.Errorf("%v: got kmin=%d kmax=%d pmax=%g, want %d %d %g", tc.rate, kmin, kmax, pmax, tc.kmin, tc.kmax, tc.pmax)
		}
	}
	cfg := DefaultConfig()
	cfg.ECN.PerRate = []ECNRate{{Rate: 100 * units.Gbps, KminBytes: 10, KmaxBytes: 5, Pmax: 0.1}}
	if err := cfg.Validate(); err == nil {
		t.Error("kmax < kmin in a per-rate entry was accepted")
	}
	cfg.ECN.PerRate = []ECNRate{{Rate: 100 * units.Gbps, KminBytes: 5, KmaxBytes: 10, Pmax: 1.5}}
	if err := cfg.Validate(); err == nil {
		t.Error("pmax 1.5 in a per-rate entry was accepted")
	}
}
