// Package dolce implements Dolce-RC and Dolce-RC+ (Ye, Lin, Cai, Zhou, He
// and Lui, "Data-Driven Rate Control for RDMA Networks: A Lightweight
// Online Learning Approach", Dolce-RC (Ye 2023) in docs/REFERENCES.md) as pure state
// machines behind cca.Algorithm, both driven by the DR-UCB bandit of
// package drucb (Algorithm 1).
//
// Dolce-RC (RC, Algorithm 2) is DCQCN whose cut uses an arm's constants
// instead of DCQCN's alpha equations:
//
//	Eq. (1)  R_T = beta*R_C          (clamped to [min rate, line rate])
//	Eq. (2)  R_C = (1 - alpha/2)*R_C (then DCQCN's increase, unchanged)
//
// applied on every CNP, with (alpha, beta) the arm of the current bandit
// iteration. A qualified CNP (one at least a fast recovery phase after the
// previous qualified one) ends the iteration with the reward of Eq. (4),
// X = 1 - ECN ratio of the iteration, and the new arm takes effect at once,
// for the cut that CNP causes. The increase side is cca/dcqcn's code
// (dcqcn.DCQCN.CutWith), not a copy. Arms default to PaperArms, derived
// with Theorem 2 (Fluid.DeriveArms), because the paper lists none.
//
// Dolce-RC+ (Plus, Algorithm 3) sends each message at one rate
// r_i = C/2^(K-1-i) and scores it when the ACK completing the message
// arrives, by Eq. (5): X = ideal_MCT/actual_MCT * (1 - ECN ratio)^i.
//
// Readings of the paper this package makes, each also at its code:
//
//   - "qualified CNP ... at least one fast recovery phase" is
//     F*T = 5 x 55 us (Config.QualifyGap), not Definition 2's "five times
//     of the CNP interval", which is 5 us with Dolce-RC's 1 us interval.
//   - Iteration 0 runs from Start to the first CNP, which is qualified
//     (Algorithm 2 measures X_{I_t}(t) at the CNP indexed t = 0, so I_0
//     was in force before it).
//   - The ECN ratio: `ideal` counts CE-echoing ACKs over data packets
//     sent in the iteration; `slots` counts CNPs over 1 us Tx time slots
//     (see Estimator); the CNP that ends an iteration counts in it.
//   - Theorem 2 is used in the form of Eq. (20), at DCQCN's fixed-point
//     marking probability (see Fluid.AlphaAt and MarkingProbability).
//   - The 20-byte fixed-point state is laid out in RC.AppendState and
//     drucb.Fixed.
//   - Dolce-RC+: the exponent i of Eq. (5) is the 0-based arm index; the
//     ideal MCT is the base RTT plus bytes*8/C; a message started before
//     the previous one's ACK returned uses the same decision.
package dolce
