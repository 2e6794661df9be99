// Package timely implements TIMELY (Mittal et al., "TIMELY: RTT-based
// Congestion Control for the Datacenter", SIGCOMM 2015, Algorithm 1) as a
// pure state machine behind cca.Algorithm.
//
// TIMELY is rate-based. At every completion event it takes the event's RTT
// sample new_rtt and runs Algorithm 1:
//
//	new_rtt_diff = new_rtt - prev_rtt; prev_rtt = new_rtt
//	rtt_diff = (1 - alpha)*rtt_diff + alpha*new_rtt_diff
//	normalized_gradient = rtt_diff / min_rtt
//	if new_rtt < T_low:  rate += delta                                   (1)
//	elif new_rtt > T_high: rate *= 1 - beta*(1 - T_high/new_rtt)         (2)
//	elif normalized_gradient <= 0: rate += N*delta                       (3)
//	  (N = 5 once the gradient has been negative for five completion
//	  events in a row: hyperactive increase, HAI; else N = 1)
//	else: rate *= 1 - beta*normalized_gradient                           (4)
//
// The rate is then clamped to [min_rate, line rate]; a factor of (4) below
// zero is taken as zero, as the HPCC simulator does (rdma-hw.cc,
// UpdateRateTimely), so the rate falls to min_rate.
//
// Readings where the paper leaves room (each is checked by a test):
//
//   - A completion event is the ACK that brings the bytes acknowledged
//     since the previous event to segment (16 KB by default, section 6:
//     "segment size of 16 KB"), or the ACK that completes a message, which
//     closes a shorter segment. Its RTT is that ACK's sample: the NIC's
//     RTT is per packet (send of the packet to arrival of its ACK), so the
//     segment's serialization time that section 3.1 subtracts is already
//     absent. A cumulative ACK that covers several segments is one event.
//     Alternatively segment=rtt updates once per round trip, on the first
//     ACK of a packet sent after the previous update, as the HPCC
//     simulator does (ack_seq > m_lastUpdateSeq).
//   - The first event has no prev_rtt: it takes prev_rtt = new_rtt
//     (new_rtt_diff = 0, as eRPC's TIMELY does) and then applies the
//     rules, so a first RTT above T_high already cuts.
//   - HAI (hai_mode=gradient, the paper): N = hai_factor when this event
//     and the hai_after - 1 before it all had a negative normalized
//     gradient, counted over every event whatever its branch (Algorithm 1
//     computes the gradient before branching). hai_mode=increase is the
//     HPCC simulator's reading: after hai_after consecutive increases of
//     either kind (1) or (3) every further increase adds hai_factor*delta;
//     any decrease resets the count.
//   - min_rtt is the path's base RTT (FlowInfo.BaseRTT) unless set; with
//     neither, the smallest RTT seen so far.
//   - T_low, T_high and delta may be given relative to the flow: "2.5x"
//     is 2.5 base RTTs for a threshold and 0.001x of the line rate for
//     delta, resolved at Start.
//   - The rate starts at the line rate (RDMA NICs start there; so does the
//     HPCC simulator). TIMELY sets no window: the NIC's window, if any,
//     applies. ECN and CNPs are ignored; the Spec leaves the switch's ECN
//     setting alone.
//   - The "patched TIMELY" of Zhu et al. (CoNEXT 2016, section 4.3), which
//     restores a unique fixed point, is not implemented.
package timely
