// Package estimate estimates the flow completion times of a packet-level
// run without simulating the whole network at once, by the decomposition
// of Parsimon (Zhao et al., NSDI 2023, "Scalable Tail Latency Estimation
// for Data Center Networks"):
//
//  1. Decompose: every directed link that carries traffic, with the flows
//     that cross it, routed exactly as replay.Run routes them
//     (replay.FlowPaths: the same ECMP hashes, so the same links).
//  2. For each such link, a small network (LinkNet) that keeps what shapes
//     its queue: one sender per source host, attached by an access link at
//     the flows' upstream bottleneck rate whose delay restores their base
//     RTT up to the link; the link itself with its rate, delay and the
//     run's switch buffer, ECN and PFC settings; the receivers behind a
//     fast link that restores the rest of the base RTT. By default
//     (SenderNICsShares) each flow is released in chunks at its share of
//     its host's NIC (NICShares: the host's flows in processor sharing),
//     as the host's other flows spread it in the full run. Each link
//     network is an ordinary replay.Run with the run's algorithm and
//     parameters, so every registered algorithm, learned ones included,
//     runs unchanged.
//  3. Cluster: links whose traffic looks alike (same kind, rate and delay;
//     load, flow count, senders, flow-size quantiles and RTT within a
//     tolerance) are represented by one simulation.
//  4. Aggregate: from each link simulation, each flow's delay beyond its
//     ideal in that network, per packet, kept per flow-size bucket; a
//     flow's estimated FCT is its ideal FCT on its real path plus one
//     delay per link of the path: its own delay where that link was
//     simulated with it, else a draw from the representative link's
//     distribution for its size, scaled by its packet count (Parsimon's
//     packet-normalised delay), from a generator seeded by the run's seed
//     and the flow's id, so the result does not depend on the order in
//     which simulations finish.
//
// The decomposition assumes links interact only through the flows' own
// rates. What breaks that is detected in the link simulations themselves
// and reported per link: PFC pauses (backpressure that spreads to other
// links), drops, offered load above 95 %.
package estimate
