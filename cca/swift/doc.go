// Package swift implements Swift's fabric congestion window (Kumar et al.,
// "Swift: Delay is Simple and Effective for Congestion Control in the
// Datacenter", SIGCOMM 2020, Algorithm 1 and section 3.5) as a pure state
// machine behind cca.Algorithm.
//
// Algorithm 1, as implemented (cwnd in packets, delay = the ACK's RTT):
//
//	On ACK:     retransmit_cnt = 0
//	            target = TargetDelay()                         (section 3.5)
//	            if delay < target:                             (AI)
//	              cwnd += ai/cwnd * num_acked   if cwnd >= 1
//	              cwnd += ai * num_acked        otherwise
//	            else if can_decrease:                          (MD)
//	              cwnd *= max(1 - beta*(delay-target)/delay, 1 - max_mdf)
//	On timeout: retransmit_cnt++
//	            if retransmit_cnt >= RETX_RESET_THRESHOLD: cwnd = min_cwnd
//	            else if can_decrease: cwnd *= 1 - max_mdf
//	On fast recovery (a NACK here): retransmit_cnt = 0
//	            if can_decrease: cwnd *= 1 - max_mdf
//	then:       cwnd = clamp(min_cwnd, cwnd, max_cwnd)
//	            if cwnd < cwnd_prev: t_last_decrease = now
//	            can_decrease = now - t_last_decrease >= rtt
//	            pacing_delay = rtt/cwnd if cwnd < 1, else 0
//
// Section 3.5's target delay, with h the hop count (FlowInfo.Hops, the
// links of the forward path):
//
//	target = base_target + h*hop_scale + fs
//	fs     = clamp(0, alpha/sqrt(cwnd) + beta, fs_range)
//	alpha  = fs_range / (1/sqrt(fs_min_cwnd) - 1/sqrt(fs_max_cwnd))
//	beta   = -alpha / sqrt(fs_max_cwnd)
//
// so fs is fs_range at cwnd = fs_min_cwnd and 0 at cwnd = fs_max_cwnd.
//
// Readings where the paper leaves room (each is checked by a test):
//
//   - delay is the NIC's per-packet RTT sample (send of the data packet to
//     arrival of its ACK). The simulator has no host delay, so Swift's
//     endpoint window is not modelled: this is the fabric window alone.
//   - num_acked = ceil(AckedBytes / MTU): one per packet with the default
//     per-packet ACKs, and the number of packets a cumulative ACK covers.
//   - rtt in can_decrease and in the pacing delay is the latest RTT sample
//     (the base RTT before the first one). t_last_decrease moves only on a
//     strict decrease: with "<=" an ACK whose MD is blocked would re-arm
//     the block forever.
//   - A window >= 1 packet is ACK-clocked: Window() = cwnd*MTU bytes and
//     Rate() = line rate. Below one packet Swift paces: Window() = one MTU
//     and Rate() = cwnd*MTU*8/rtt, i.e. one packet every rtt/cwnd. The NIC
//     counts whole packets in flight against Window() (in flight < window),
//     so a fractional window w >= 1 admits ceil(w) packets.
//   - The NIC reports NACKs (the receiver saw a sequence gap) through
//     OnNack and its go-back-N retransmission timeouts through OnTimeout
//     (the optional cca.TimeoutObserver interface). With PFC (the default)
//     nothing is lost and neither branch runs.
//   - Swift ignores ECN and CNPs; its Spec leaves the switch's ECN setting
//     alone.
//   - The initial window is one bandwidth-delay product of the path
//     (line rate at start, as RDMA NICs begin), and the default ceiling is
//     the window that fills the highest target at line rate; Algorithm 1
//     names max_cwnd without a value.
package swift
