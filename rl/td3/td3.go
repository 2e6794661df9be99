// Package td3 is Twin Delayed DDPG (Fujimoto, van Hoof and Meger 2018)
// with recurrent networks, the learner of FDCC (paper 002, Section 4.3,
// Eqs. 4.1-4.3; "memory-based TD3", Meng et al. 2021): the actor and both
// critics read the last k <= Seq observations through an LSTM
// (nn.Recurrent), and the critics take the action after the LSTM's hidden
// state.
//
// One Update step, with B transitions drawn uniformly from the replay
// buffer:
//
//   - target (Eq. 4.1, with TD3's target policy smoothing):
//     y = r + Discount * min_i Q'_i(s', clip(mu'(s') + clip(sigma*N(0,1), -c, c), -1, 1));
//   - critics (Eq. 4.2, read as standard TD3: the paper's version has
//     Q(s', a'|theta'_i) where Q(s, a|theta_i) is meant and drops the
//     square): minimise N^-1 sum (y - Q_i(s, a))^2 for i = 1, 2 with Adam;
//   - every PolicyDelay-th step, the actor (Eq. 4.3): ascend
//     N^-1 sum Q_1(s, mu(s)), the gradient dQ_1/da flowing through the
//     critic's action input into the actor by the chain rule; then every
//     target network moves by Polyak averaging theta' <- tau theta + (1 -
//     tau) theta'.
//
// Determinism: the agent owns a PCG generator seeded from Config.Seed; it
// draws the minibatch and the smoothing noise. The batch is always split
// into the same two halves, computed concurrently into separate gradient
// buffers and summed in a fixed order, so a given seed, sequence of Add
// calls and sequence of Update calls gives bit-identical parameters
// whatever GOMAXPROCS is.
package td3

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/rl/nn/learn"
)

// Config sets the networks and the learner. None of these values is given
// in paper 002 (which only fixes the history length to at most 8): the
// defaults are those of the TD3 paper and its reference implementation,
// with LSTM widths from memory-based TD3.
type Config struct {
	// Inputs is the number of features of one observation (no default).
	Inputs int
	// Hidden is the LSTM width of every network (default 64).
	Hidden int
	// HeadHidden are the hidden widths of the MLP heads after the LSTM
	// (default 64, 64); empty means a linear map from the hidden state.
	HeadHidden []int
	// Seq is the longest history, in observations (default 8, the paper's
	// max K).
	Seq int
	// ActorLR and CriticLR are Adam's step sizes (default 3e-4 each).
	ActorLR, CriticLR float64
	// Batch is the minibatch size, in transitions (default 256).
	Batch int
	// Buffer is the replay capacity, in transitions (default 1e6); the
	// memory grows with use up to Buffer x 2 x Seq x Inputs x 8 bytes.
	Buffer int
	// Tau is the Polyak rate of the target networks, in (0, 1] (default
	// 0.005).
	Tau float64
	// PolicyDelay is the number of critic updates per actor and target
	// update (default 2).
	PolicyDelay int
	// TargetNoise is sigma, the standard deviation of the target policy
	// smoothing noise, and NoiseClip its bound c, both in action units
	// (default 0.2 and 0.5; 0 disables smoothing).
	TargetNoise, NoiseClip float64
	// Seed seeds the initialisation, the minibatches and the noise.
	Seed uint64
}

// Defaults returns the default configuration (see Config; these values
// are not in paper 002). Inputs must still be set.
func Defaults() Config {
	return Config{
		Hidden: 64, HeadHidden: []int{64, 64}, Seq: 8,
		ActorLR: 3e-4, CriticLR: 3e-4, Batch: 256, Buffer: 1_000_000,
		Tau: 0.005, PolicyDelay: 2, TargetNoise: 0.2, NoiseClip: 0.5,
	}
}

func (c *Config) validate() error {
	switch {
	case c.Inputs < 1 || c.Hidden < 1:
		return fmt.Errorf("td3: inputs and hidden must be >= 1, got %d and %d (start from Defaults())", c.Inputs, c.Hidden)
	case c.Seq < 1 || c.Seq > 1024:
		return fmt.Errorf("td3: seq must be in 1..1024 observations, got %d", c.Seq)
	case !(c.ActorLR > 0) || !(c.CriticLR > 0) || math.IsInf(c.ActorLR, 0) || math.IsInf(c.CriticLR, 0):
		return fmt.Errorf("td3: learning rates must be positive and finite, got actor %v critic %v", c.ActorLR, c.CriticLR)
	case c.Batch < 1 || c.Buffer < 1:
		return fmt.Errorf("td3: batch and buffer must be >= 1 transition, got %d and %d", c.Batch, c.Buffer)
	case !(c.Tau > 0 && c.Tau <= 1):
		return fmt.Errorf("td3: tau must be in (0, 1], got %v", c.Tau)
	case c.PolicyDelay < 1:
		return fmt.Errorf("td3: policy delay must be >= 1 critic update, got %d", c.PolicyDelay)
	case !(c.TargetNoise >= 0) || !(c.NoiseClip >= 0) || math.IsInf(c.TargetNoise, 0) || math.IsInf(c.NoiseClip, 0):
		return fmt.Errorf("td3: target noise and clip must be finite and >= 0, got %v and %v", c.TargetNoise, c.NoiseClip)
	}
	for _, w := range c.HeadHidden {
		if w < 1 {
			return fmt.Errorf("td3: head widths must be >= 1, got %v", c.HeadHidden)
		}
	}
	return nil
}

// Agent is a TD3 learner: the online actor and critics, their targets,
// Adam state and the replay buffer. It is not safe for concurrent use.
type Agent struct {
	cfg Config
	// Online and target networks; p* are their flat parameter vectors
	// (the authoritative copy, pushed into the networks after each change).
	actor, actorT, q1, q2, q1T, q2T *nn.Recurrent
	pA, pAT, pQ1, pQ1T, pQ2, pQ2T   []float64
	optA, optQ1, optQ2              *learn.Adam

	buf     buffer
	rng     *rand.Rand
	updates int       // critic updates so far
	idx     []int     // the minibatch, slot numbers
	z       []float64 // its standard normal smoothing draws
	shards  [2]*shard
	actWork []float64
}

// Stats summarises one Update call. Means are over the gradient steps
// taken (ActorObjective over the actor steps).
type Stats struct {
	// Steps is the number of critic updates made, ActorSteps the number
	// of actor (and target) updates among them.
	Steps, ActorSteps int
	// CriticLoss is TD3's critic loss N^-1 sum (y - Q_1)^2 + N^-1 sum
	// (y - Q_2)^2 before the step.
	CriticLoss float64
	// ActorObjective is J = N^-1 sum Q_1(s, mu(s)) before the actor step.
	ActorObjective float64
	// MeanQ is N^-1 sum Q_1(s, a) over the stored actions, MeanTarget
	// N^-1 sum y.
	MeanQ, MeanTarget float64
}

// New makes an agent with freshly initialised networks (the targets are
// copies) and an empty buffer.
func New(c Config) (*Agent, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	c.HeadHidden = append([]int(nil), c.HeadHidden...)
	seeds := rand.New(rand.NewPCG(c.Seed, 0x746433696e6974)) // "td3init"
	a := &Agent{cfg: c, buf: newBuffer(c.Inputs, c.Seq, c.Buffer)}
	a.rng = rand.New(rand.NewPCG(c.Seed, 0x74643362617463)) // "td3batc"
	var err error
	// A small output scale starts the actor near action 0.
	if a.actor, err = learn.InitRecurrent(c.Inputs, c.Hidden, c.HeadHidden, 0, seeds.Uint64(), 0.1, nn.OutputTanh); err != nil {
		return nil, err
	}
	if a.q1, err = learn.InitRecurrent(c.Inputs, c.Hidden, c.HeadHidden, 1, seeds.Uint64(), 1, nn.OutputLinear); err != nil {
		return nil, err
	}
	if a.q2, err = learn.InitRecurrent(c.Inputs, c.Hidden, c.HeadHidden, 1, seeds.Uint64(), 1, nn.OutputLinear); err != nil {
		return nil, err
	}
	a.actorT, a.q1T, a.q2T = a.actor.Clone(), a.q1.Clone(), a.q2.Clone()
	a.pA, a.pAT = flat(a.actor), flat(a.actorT)
	a.pQ1, a.pQ1T = flat(a.q1), flat(a.q1T)
	a.pQ2, a.pQ2T = flat(a.q2), flat(a.q2T)
	if a.optA, err = learn.NewAdam(len(a.pA), c.ActorLR); err != nil {
		return nil, err
	}
	if a.optQ1, err = learn.NewAdam(len(a.pQ1), c.CriticLR); err != nil {
		return nil, err
	}
	if a.optQ2, err = learn.NewAdam(len(a.pQ2), c.CriticLR); err != nil {
		return nil, err
	}
	a.idx = make([]int, c.Batch)
	a.z = make([]float64, c.Batch)
	for i := range a.shards {
		a.shards[i] = a.newShard()
	}
	a.actWork = make([]float64, a.actor.WorkSize(c.Seq))
	return a, nil
}

// flat returns a copy of r's parameters in its flat layout.
func flat(r *nn.Recurrent) []float64 {
	p := make([]float64, r.NumParams())
	r.ParamsInto(p)
	return p
}

// Config returns the configuration the agent was made with.
func (a *Agent) Config() Config {
	c := a.cfg
	c.HeadHidden = append([]int(nil), c.HeadHidden...)
	return c
}

// Add stores a copy of t in the replay buffer, overwriting the oldest
// transition when the buffer is full. It refuses malformed transitions
// (wrong lengths, a non-finite value, an action outside [-1, 1]).
func (a *Agent) Add(t Transition) error {
	if err := a.buf.check(&t); err != nil {
		return err
	}
	a.buf.add(&t)
	return nil
}

// Len is the number of stored transitions.
func (a *Agent) Len() int { return a.buf.n }

// Updates is the number of critic updates made so far.
func (a *Agent) Updates() int { return a.updates }

// Actor is the online actor, the policy to ship; it changes with every
// actor update (Clone it to keep a snapshot).
func (a *Agent) Actor() *nn.Recurrent { return a.actor }

// Critics are the online critics Q_1 and Q_2.
func (a *Agent) Critics() (q1, q2 *nn.Recurrent) { return a.q1, a.q2 }

// Act is the actor's deterministic action in (-1, 1) for a history of
// steps observations (row-major, oldest first; 1 <= steps <= Seq). It
// adds no exploration noise and does not allocate.
func (a *Agent) Act(obs []float64, steps int) float64 {
	if steps < 1 || steps > a.cfg.Seq {
		panic(fmt.Sprintf("td3.Act: %d steps, want 1..%d", steps, a.cfg.Seq))
	}
	return a.actor.Forward(obs, steps, nil, a.actWork)
}
