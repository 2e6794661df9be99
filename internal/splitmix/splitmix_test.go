package splitmix

import "testing"

// The first outputs of SplitMix64 seeded with 1234567 are the reference
// values of Vigna's splitmix64.c (prng.di.unimi.it), which every copy this
// package replaced computed: x += Gamma, then Mix.
func TestReferenceSequence(t *testing.T) {
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821}
	x := uint64(1234567)
	for i, w := range want {
		if got := Next(x); got != w {
			t.Errorf("output %d: %d, want %d", i, got, w)
		}
		x += Gamma
	}
}

// Derive gives the episode seeds the trainers gave before this package
// (seed*Gamma + i + 1, mixed), pinned: a change here changes every
// training run.
func TestDerive(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		i    int
		want uint64
	}{{0, 0, 6238072747940578789}, {1, 0, 10451216379200822465}, {1, 7, 11409396526365357622}, {42, 123, 5817371569113749956}} {
		if got := Derive(tc.seed, tc.i); got != tc.want {
			t.Errorf("Derive(%d, %d) = %d, want %d", tc.seed, tc.i, got, tc.want)
		}
	}
}
