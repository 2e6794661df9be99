// Package fdcc is FDCC (Zhang 2023, paper 002 of this project), a learned
// window-based congestion controller: one recurrent policy shared by every
// flow reads a short history of observations built from the ACK and its INT
// stack and rescales the flow's in-flight window; the pacing rate follows
// the window (Section 4.2, "Actions": INSRATE = WIN / baseRTT).
//
// What the thesis states, and where:
//   - action: the policy's output o in [-1, 1] rescales a multiplier a,
//     a_{t+1} = a_t (1 + α o) for o >= 0 and a_t / (1 - α o) for o < 0,
//     α = 0.5 (Section 4.2); a is clamped to [0.5, 2] (Table 3.1);
//     WIN_{t+1} = WIN_t · a, rounded down to whole packets (Section 5.2),
//     at most one bandwidth-delay product (Section 5.3); flows start at line
//     rate (Section 4.2, "Rewards": "the default initial rate in DCN is set to
//     link rate").
//   - observation (Section 4.2, "Observations"): RTT / standalone RTT;
//     QLEN and SWITCHRATE of the most congested hop (the one maximising
//     their sum); GOODPUT; ΔRTT and ΔQLEN per millisecond; INSRATE; the
//     last action.
//   - decisions: on an ACK, at most one per half the previous RTT
//     (Section 4.4).
//   - policy: an LSTM over at most 8 past observations, read at the last
//     valid step (Section 4.3), shared by every flow (Section 5.1).
//
// What it does not state, and what ccreplay does instead (each a
// parameter, marked "not in paper 002" in docs/FDCC.md):
//   - the range of o (tanh, [-1, 1]); the floor of the window (one packet);
//     the decision latency (0); INSRATE's normalisation (by line rate);
//     whether last_action is o or a (o, the policy's own output);
//   - the pre-processing of observations before the network ("after data
//     pre-processing of observations stored in ACK header", Section 4.1):
//     sign(x) ln(1 + |x|) on every feature (InputTransform);
//   - GOODPUT is "the data received at Receiver following the correct
//     sequence between each action interval, normalized by the bandwidth of
//     the receiver's link"; the thesis' receiver writes its byte count and
//     a timestamp into the ACK. ccreplay's ACK carries neither, so the agent
//     uses the sender-side proxy: payload bytes newly acknowledged since the
//     previous decision over the time since it, divided by the sender's
//     line rate (equal to the receiver's on every topology the thesis uses).
//     ACKs are cumulative and in order, so acknowledged bytes are the bytes
//     received in sequence, seen one ACK path later.
//
// The reward (Algorithm 1) is not computed here: the agent hands every
// decision's observation to a hook and the trainer (rl/fdcctrain) scores it
// with rl/reward.FDCC, the one implementation of Algorithm 1.
package fdcc
