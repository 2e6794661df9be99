// Package splitmix is SplitMix64 (Steele, Lea and Flood, "Fast Splittable
// Pseudorandom Number Generators", OOPSLA 2014), the one 64-bit mixing
// function of ccreplay: the kernel's per-node random streams, the flows'
// ECMP hashes, the bandit's dither and the trainers' episode seeds all
// derive their bits with it, so that each is a pure function of its inputs.
package splitmix

// Gamma is SplitMix64's increment, the odd integer nearest 2^64/phi.
const Gamma = 0x9e3779b97f4a7c15

// Mix is SplitMix64's output function: xor-shift 30, multiply by
// 0xbf58476d1ce4e5b9, xor-shift 27, multiply by 0x94d049bb133111eb,
// xor-shift 31. It is a bijection of uint64 whose every output bit
// depends on every input bit.
func Mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Next is the value SplitMix64 returns from state x: Mix(x + Gamma).
func Next(x uint64) uint64 { return Mix(x + Gamma) }

// Derive is the seed of item i (an episode, a run) of a whole seeded with
// seed: Mix(seed*Gamma + i + 1), so that items of one seed, and the same
// item under different seeds, draw unrelated streams.
func Derive(seed uint64, i int) uint64 { return Mix(seed*Gamma + uint64(i) + 1) }
