package dolce

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dolce/drucb"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/units"
)

// Plus is the Dolce-RC+ sender of one flow (Dolce-RC, Ye 2023, Algorithm 3): every
// message is sent at one rate r_i = C/2^(K-1-i) chosen by DR-UCB, and the
// ACK completing it scores that choice by Eq. (5). It ignores CNPs.
type Plus struct {
	cfg    PlusConfig
	bandit drucb.Policy

	flow    algo.Flow // C (the line rate), from Start
	baseRTT units.Time
	rate    units.BitsPerSec // the rate of the message being sent
	pending []sentMsg        // messages started and not yet completed, in order
	acks    int64            // ACKs since the last message completion
	ece     int64            // of which echoed CE
	// Last completed message: reward of Eq. (5) and its factors.
	lastReward, lastSlowdown, lastECN float64
}

// sentMsg is what the data packets of a message carry in Fig. 7(a): the
// message and the MAB decision it was sent with.
type sentMsg struct {
	id  int64
	arm int
}

var (
	_ cca.Algorithm       = (*Plus)(nil)
	_ cca.MessageObserver = (*Plus)(nil)
)

// NewPlus validates cfg (filling its defaults) and returns an algorithm
// that waits for Start.
func NewPlus(cfg PlusConfig) (*Plus, error) {
	return algo.New(cfg, (*PlusConfig).validate, newPlus)
}

func newPlus(cfg PlusConfig) *Plus {
	p := &Plus{cfg: cfg, lastReward: -1, lastSlowdown: -1, lastECN: -1}
	p.bandit, _ = newPolicy(cfg.bandit(), cfg.FixedPoint)
	return p
}

// Config returns the validated configuration.
func (p *Plus) Config() PlusConfig { return p.cfg }

// Name returns "dolceplus".
func (p *Plus) Name() string { return "dolceplus" }

// Start takes C, the link capacity of Definition 3, as the NIC's line
// rate, and the base RTT for the ideal MCT; the rate is arm I_0's until
// the first message starts.
func (p *Plus) Start(now units.Time, f cca.FlowInfo) {
	*p = *newPlus(p.cfg)
	p.flow.Start("dolce.Plus", f)
	p.baseRTT = f.BaseRTT
	p.rate = p.ArmRate(p.bandit.Arm())
}

// ArmRate is r_i = C/2^(K-1-i) (Definition 3), bits per second.
func (p *Plus) ArmRate(i int) units.BitsPerSec {
	return max(1, p.flow.Line()>>uint(p.cfg.Arms-1-i))
}

// OnMessageStart is Algorithm 3 line 6: the message is sent at the rate of
// the arm DR-UCB holds now, I_t, which changes only when a completing ACK
// arrives (lines 2-5). NB: when a flow starts a message before the
// previous one's ACK returned, both are sent with the same decision; the
// reward of each still goes to the arm it was sent with (the "MAB
// Decision" field its packets carry, Fig. 7).
func (p *Plus) OnMessageStart(now units.Time, m cca.MessageInfo) {
	p.mustStart("OnMessageStart")
	arm := p.bandit.Arm()
	p.pending = append(p.pending, sentMsg{id: m.ID, arm: arm})
	p.rate = p.ArmRate(arm)
}

// OnSend does nothing: the rate is fixed for the message.
func (p *Plus) OnSend(now units.Time, _ units.Bytes) { p.mustStart("OnSend") }

// OnAck counts the message's ACKs and CE echoes; the ACK completing a
// message ends its iteration (Algorithm 3 lines 2-5) with the reward of
// Eq. (5):
//
//	X = ideal_MCT/actual_MCT * (1 - ECN_Ratio)^i
//
// i the arm's index (0-based, Definition 3), actual_MCT = now - the
// message's first transmission ("the difference between the receiving
// time of the ACK and the departure time of the first packet of this
// message"), ideal_MCT = base RTT + bytes*8/C (the message alone at line
// rate), the ratio clamped to 1 so that X is in [0, 1] as the paper
// states, and ECN_Ratio = CE-echoing ACKs / ACKs of the message (one ACK
// per packet by default; the receiver "may optionally compute the ECN
// ratio of the message").
func (p *Plus) OnAck(now units.Time, a *cca.Ack) {
	p.mustStart("OnAck")
	if a.AckedBytes > 0 || a.MessageDone {
		p.acks++
		if a.ECE {
			p.ece++
		}
	}
	if !a.MessageDone {
		return
	}
	// Messages complete in order; skip any whose completing ACK was lost.
	k := 0
	for k < len(p.pending) && p.pending[k].id != a.MsgID {
		k++
	}
	if k == len(p.pending) {
		return // not a message this algorithm started
	}
	arm := p.pending[k].arm
	p.pending = p.pending[k+1:]

	ideal := p.baseRTT + units.TxTime(max(a.MsgBytes, 0), p.flow.Line())
	actual := now - a.MsgFirstTx
	slow := 1.0
	if actual > 0 {
		slow = min(1, float64(ideal)/float64(actual))
	}
	ecn := 0.0
	if p.acks > 0 {
		ecn = min(1, float64(p.ece)/float64(p.acks))
	}
	x := slow * math.Pow(1-ecn, float64(arm))
	p.acks, p.ece = 0, 0
	p.lastReward, p.lastSlowdown, p.lastECN = x, slow, ecn
	p.bandit.Update(arm, x)
}

// OnCNP is ignored: Dolce-RC+ learns from MCTs and ECN echoes only.
func (p *Plus) OnCNP(now units.Time) { p.mustStart("OnCNP") }

// OnNack is ignored.
func (p *Plus) OnNack(now units.Time) { p.mustStart("OnNack") }

// OnTimer is never needed.
func (p *Plus) OnTimer(now units.Time) { p.mustStart("OnTimer") }

// NextTimer is units.Never.
func (p *Plus) NextTimer() units.Time { return units.Never }

// Rate is the rate of the message being sent, bits per second.
func (p *Plus) Rate() units.BitsPerSec { return p.rate }

// Window is 0: no window.
func (p *Plus) Window() units.Bytes { return 0 }

// Arm is I_t, the arm the next message will be sent with.
func (p *Plus) Arm() int { return p.bandit.Arm() }

// Bandit is the DR-UCB state machine.
func (p *Plus) Bandit() drucb.Policy { return p.bandit }

// LastReward is the reward of the last completed message (Eq. (5)) with
// its two factors, ideal/actual MCT and the ECN ratio; all -1 before the
// first completion.
func (p *Plus) LastReward() (x, mctRatio, ecnRatio float64) {
	return p.lastReward, p.lastSlowdown, p.lastECN
}

// Describe formats the state, e.g. "rate=25Gbps next=2 t=3 pending=1
// acks=10 ece=2 last=0.81".
func (p *Plus) Describe() string {
	return fmt.Sprintf("rate=%v next=%d t=%d pending=%d acks=%d ece=%d last=%s",
		p.rate, p.bandit.Arm(), p.bandit.Iteration(), len(p.pending), p.acks, p.ece, fmtFloat(p.lastReward))
}

// String is Describe.
func (p *Plus) String() string { return p.Describe() }

func (p *Plus) mustStart(fn string) { p.flow.MustStart("dolce.Plus", fn) }
