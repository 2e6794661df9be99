// Package conformance holds the checks every registered algorithm must
// pass (its tests run them over all.Registry() with every preset):
//
//   - bounds: over long random event sequences the rate stays in
//     [min(min_rate, line rate), line rate] and the window, if any, within
//     the bounds its algorithm defines (HPCC Alg. 1's [MinRate*T, W_init],
//     Swift's [1 MTU, max_cwnd], DCTCP's BDP, DCQCN's configured window);
//   - backoff: under sustained congestion signals (ECN-echo ACKs and CNPs
//     from the switches' marking, INT from a saturated link with a standing
//     queue when the spec asks for INT, RTTs inflated by that queue, on
//     ACKs and on RTT probes for a cca.RTTProber) the sending rate falls to
//     at most half the line rate;
//   - recovery: once the signals stop, the rate climbs back to half the
//     line rate within a bounded simulated time;
//   - determinism: the same event sequence gives the same decisions;
//   - no allocation per ACK in steady state.
//
// The flow model is open loop: one flow paces bursts at the algorithm's
// rate within its window through one bottleneck whose state (congested
// with a standing queue, or idle) the test sets, so every algorithm sees
// the signals it reacts to whatever its reaction. The package has no
// code outside its tests.
package conformance
