package runconfig

import (
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/units"
)

// applyModel gives the replay the HPCC ns-3 simulator's host model, which
// holds for every CC_MODE:
//
//   - its clock: whole nanoseconds, serialization and pacing truncated
//     (QbbNetDevice::TransmitStart and RdmaHw::UpdateNextAvail take
//     Seconds(bits/rate));
//   - its base RTT: GLOBAL_T 1 gives every flow the network's largest
//     pairRtt (maxRtt), GLOBAL_T 0 the flow's own, both with one payload
//     serialized per hop and no ACK (third.cc CalculateRoutes);
//   - its window, a property of the queue pair, not of the algorithm:
//     HAS_WIN 1 caps the payload bytes in flight (snd_nxt - snd_una) at
//     the BDP of that base RTT (maxBdp or pairBdp), VAR_WIN 1 scales it
//     by the current rate over the line rate (RdmaQueuePair::GetWin).
//
// The algorithm's own parameters come from Config.CCParams.
func (h *HPCC) applyModel(cfg *replay.Config) {
	c := h.cfg
	cfg.TimeStep = units.Nanosecond
	cfg.CCBaseRTT = replay.BaseRTTNS3Pair
	if c.GlobalT {
		cfg.CCBaseRTT = replay.BaseRTTNS3Max
	}
	cfg.NIC.Window = 0
	cfg.NIC.WindowBDP = c.HasWin
	cfg.NIC.WindowVar = c.HasWin && c.VarWin
	cfg.NIC.WindowPayload = true
	// Packet sizes (rdma-hw.cc GetNxtPacket and ReceiveUdp,
	// custom-header.cc): data is payload + PPP 14 + IPv4 20 + UDP 8 +
	// sequence and class 6, an ACK PPP + IPv4 + 12 bytes of qbb header
	// padded to 60 bytes, each plus the IntHeader of the mode
	// (int-header.cc GetStaticSize).
	intBytes := units.Bytes(0)
	switch c.CCMode {
	case 3:
		intBytes = 42 // NORMAL: 5 hops x 8 B + 2 B hop count
	case 7:
		intBytes = 8 // TS: one 8-byte timestamp
	}
	if c.CCMode == 3 {
		// INT_MULTI: IntHop keeps queue lengths in units of 80 bytes and
		// byte counters in units of 128 bytes, times INT_MULTI.
		cfg.Switch.INTQLenUnit = units.Bytes(80 * c.IntMulti)
		cfg.Switch.INTBytesUnit = units.Bytes(128 * c.IntMulti)
		// HPCC changes its queue pair's rate through RdmaHw::ChangeRate,
		// which moves the pending send time to the new rate.
		cfg.NIC.RepaceOnRateChange = true
	}
	cfg.NIC.HeaderBytes = 48 + intBytes
	cfg.NIC.AckBytes = max(60, 46+intBytes)
	cfg.NIC.NackBytes = cfg.NIC.AckBytes
	cfg.NIC.INTBytes = intBytes
	// Switches queue ACKs and NACKs with the data of their class whatever
	// ACK_HIGH_PRIO says: SwitchNode::SendToDev picks queue 0 for them only
	// with its AckHighPrio attribute, which third.cc never sets (the key
	// moves the hosts' ACK queue index, RdmaEgressQueue::ack_q_idx, and so
	// only which PAUSE holds ACKs back at a host; host NICs send ACKs
	// before data either way).
	cfg.NIC.AckInDataClass = true
	cfg.NIC.AckIgnoresPause = c.ACKHighPrio
	// No CNP packets: the receiver flags the ACK of a marked packet
	// (RdmaHw::ReceiveUdp, seqh.SetCnp), the sender reacts on that ACK.
	cfg.NIC.CNPOnAck = true
	// Switches mark ECN as a packet leaves the queue
	// (SwitchNode::SwitchNotifyDequeue, SwitchMmu::ShouldSendCN).
	cfg.Switch.ECN.AtDequeue = true
}
