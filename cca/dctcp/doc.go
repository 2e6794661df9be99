// Package dctcp implements DCTCP (Alizadeh et al., "Data Center TCP
// (DCTCP)", SIGCOMM 2010) in the rate form the HPCC simulator uses for
// RoCE (rdma-hw.cc, HandleAckDctcp), as a pure state machine behind
// cca.Algorithm.
//
// Switches mark ECN on a single threshold K (RED with Kmin = Kmax = K and
// Pmax = 1: a packet is marked when the queue exceeds K); the receiver
// echoes marks in its ACKs (ECE). The sender keeps a rate R (what Rate
// returns) and alpha, its estimate of the fraction of marked bytes:
//
//	once per window of data:  alpha = (1-g)*alpha + g*F     DCTCP Eq. (1)
//	                          F = marked bytes / acked bytes in that window
//	ECE, not in CWR:          R = max(R_min, R*(1 - alpha/2))  DCTCP Eq. (2),
//	                          then CWR until the window sent before the
//	                          cut is acknowledged: at most one cut per window
//	once per window, not in CWR:  R = min(line, R + R_AI)   additive increase
//
// On each ACK the steps run in the simulator's order: count the ACK's
// bytes (marked if ECE), end the window if it is over (alpha update),
// leave CWR if the ACK is of a packet sent after the cut, cut if ECE and
// not in CWR, increase if the window ended and not in CWR.
//
// Interpretations:
//
//   - A "window of data" ends, as in the simulator, when the ACK sequence
//     passes snd_nxt as it was at the previous window's end
//     (m_lastUpdateSeq); CWR ends when it passes snd_nxt at the cut
//     (m_highSeq). A cca.Ack carries no sequence number, so both are
//     tracked by time: the ACK of a packet sent at or after the instant
//     snd_nxt was taken (now - ack.RTT >= that instant) has passed it.
//     With in-order go-back-N sending the two readings agree.
//   - F counts bytes (the paper's fraction of marked packets, as Linux's
//     DCTCP counts bytes); the simulator counts marked ACKs over the
//     packets outstanding at the window's start. With an ACK per packet
//     and full packets they agree.
//   - The first ACK only starts the first window (the simulator's "first
//     RTT"); its bytes count towards that window's F.
//   - DCTCP reacts to ECE on ACKs only: CNPs (DCQCN's notification, which
//     the receiver NIC also sends on CE) are ignored.
package dctcp
