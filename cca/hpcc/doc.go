// Package hpcc implements the HPCC sender (Li et al., "HPCC: High
// Precision Congestion Control", SIGCOMM 2019) as a pure state machine
// behind cca.Algorithm.
//
// Every data packet collects, at each switch egress it leaves, the INT
// record L[i] = (qlen, txBytes, ts, B) (telemetry.Hop); the receiver echoes
// the stack in its ACK. The sender runs Algorithm 1 of the paper ("Alg. 1
// line N" in the code and tests refers to this listing of it):
//
//	 1 Function MeasureInflight(ack)
//	 2   u = 0
//	 3   for each link i on the path do
//	 4     txRate = (ack.L[i].txBytes - L[i].txBytes) / (ack.L[i].ts - L[i].ts)
//	 5     u' = min(ack.L[i].qlen, L[i].qlen)/(ack.L[i].B*T) + txRate/ack.L[i].B
//	 6     if u' > u then
//	 7       u = u'; tau = ack.L[i].ts - L[i].ts
//	 8   tau = min(tau, T)
//	 9   U = (1 - tau/T)*U + tau/T*u
//	10   return U
//	11 Function ComputeWind(U, updateWc)
//	12   if U >= eta or incStage >= maxStage then
//	13     W = Wc/(U/eta) + W_AI
//	14     if updateWc then
//	15       incStage = 0; Wc = W
//	16   else
//	17     W = Wc + W_AI
//	18     if updateWc then
//	19       incStage++; Wc = W
//	20   return W
//	21 Procedure NewAck(ack)
//	22   if ack.seq > lastUpdateSeq then
//	23     W = ComputeWind(MeasureInflight(ack), True)
//	24     lastUpdateSeq = snd_nxt
//	25   else
//	26     W = ComputeWind(MeasureInflight(ack), False)
//	27   R = W/T
//	28   L = ack.L
//
// T is the base RTT, W the window in bytes (Window), R = W/T the pacing
// rate (Rate); W starts at W_init = B_NIC*T, one bandwidth-delay product
// (paper section 3.2). Every ACK reacts at once from the reference window
// Wc ("fast react"); Wc itself moves once per RTT.
//
// Interpretations where the sources leave a choice:
//
//   - Line 22, the per-RTT boundary. A cca.Ack carries no sequence number,
//     and OnSend sees wire bytes while AckedBytes counts payload, so
//     snd_nxt cannot be reproduced from byte counters alone. With
//     in-order go-back-N sending, "ack.seq > lastUpdateSeq" holds exactly
//     when the acknowledged packet was sent after lastUpdateSeq was taken,
//     so we keep the time of the last Wc update instead and compare the
//     ACK's send time (now - ack.RTT) with it. NB: after a go-back-N
//     rewind a retransmitted packet also counts as "sent after"; the HPCC
//     simulator would wait for the sequence to catch up.
//   - The first ACK with INT only records L and starts the first RTT, as
//     the HPCC simulator does (rdma-hw.cc UpdateRateHp, m_lastUpdateSeq ==
//     0): there is no earlier record to take differences from.
//   - A hop whose timestamp did not advance (tau <= 0) is skipped: line 4
//     is undefined there. If no hop advanced, U and W are left alone.
//   - W is clamped to [MinRate*T, LineRate*T] before it becomes Wc, as the
//     simulator clamps the rate to [MIN_RATE, line rate].
//   - ACKs without INT (NumHops == 0) change nothing.
package hpcc
