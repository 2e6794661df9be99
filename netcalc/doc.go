// Package netcalc is the network-calculus model of congestion control of
// CC-NetCalc (Lehal, Luangsomboon, Liebeherr 2024, paper 003): flows
// whose admitted traffic Â is shaped by a congestion control algorithm
// enter a FIFO path server with exact service curve S(t) = max(Ct, 0);
// acknowledgements are D(t-ΔR) (Fig. 1, Fig. 5).
//
// Curves (Section II) are sampled on a uniform grid of step Dt, in bytes;
// Convolve, ConvolveRate, ConvolveWindow, Deconvolve, the pseudo-inverses
// and HDev/VDev are the discrete-time min-plus operations.
//
// Run steps a Config forward: linerate, Algorithm 1 (aimd-rate), DCQCN
// (Algorithm 1 with ECN notifications, Section V-B), Algorithm 2
// (aimd-window) and Algorithm 3 (vegas), with optional ECN/RED and PFC,
// timeouts with Go-Back-N origin shifts (each shift starts a new epoch),
// and per-flow departures from the FIFO server by Theorem 1. It returns
// per-flow and aggregate series and the event list.
//
// docs/NETCALC.md lists the representation, the printed errors of the
// paper that are fixed here, and the paper's numbers against the model's.
package netcalc
