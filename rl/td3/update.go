package td3

import (
	"sync"

	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/rl/nn/learn"
)

// shard is one half of the minibatch's work: its own work buffers,
// gradients and sums, so the halves can run concurrently.
type shard struct {
	wA, wQ1, wQ2, wT []float64 // work buffers of the actor, critics, targets
	gA, gQ1, gQ2     []float64 // gradients, flat layouts
	extra, dExtra    []float64 // the critics' action input and its gradient
	// Sums over the shard's samples.
	loss1, loss2, sumQ, sumY, sumJ float64
}

func (a *Agent) newShard() *shard {
	s := a.cfg.Seq
	return &shard{
		wA: make([]float64, a.actor.WorkSize(s)), wQ1: make([]float64, a.q1.WorkSize(s)),
		wQ2: make([]float64, a.q2.WorkSize(s)), wT: make([]float64, max(a.actor.WorkSize(s), a.q1.WorkSize(s))),
		gA: make([]float64, len(a.pA)), gQ1: make([]float64, len(a.pQ1)), gQ2: make([]float64, len(a.pQ2)),
		extra: make([]float64, 1), dExtra: make([]float64, 1),
	}
}

// Update makes n TD3 steps (see the package comment) on minibatches drawn
// from the buffer and returns their statistics. It does nothing when the
// buffer is empty.
func (a *Agent) Update(n int) Stats {
	var st Stats
	for range n {
		if a.buf.n == 0 {
			break
		}
		a.sample()
		a.criticGrads()
		a.optQ1.Descend(a.pQ1, a.shards[0].gQ1)
		a.optQ2.Descend(a.pQ2, a.shards[0].gQ2)
		a.q1.SetParams(a.pQ1)
		a.q2.SetParams(a.pQ2)
		a.updates++
		b := float64(a.cfg.Batch)
		s0, s1 := a.shards[0], a.shards[1]
		st.Steps++
		st.CriticLoss += (s0.loss1+s1.loss1)/b + (s0.loss2+s1.loss2)/b
		st.MeanQ += (s0.sumQ + s1.sumQ) / b
		st.MeanTarget += (s0.sumY + s1.sumY) / b
		if a.updates%a.cfg.PolicyDelay != 0 {
			continue
		}
		a.actorGrads()
		a.optA.Ascend(a.pA, s0.gA)
		a.actor.SetParams(a.pA)
		st.ActorSteps++
		st.ActorObjective += (s0.sumJ + s1.sumJ) / b
		a.polyak(a.actorT, a.pAT, a.pA)
		a.polyak(a.q1T, a.pQ1T, a.pQ1)
		a.polyak(a.q2T, a.pQ2T, a.pQ2)
	}
	if st.Steps > 0 {
		st.CriticLoss /= float64(st.Steps)
		st.MeanQ /= float64(st.Steps)
		st.MeanTarget /= float64(st.Steps)
	}
	if st.ActorSteps > 0 {
		st.ActorObjective /= float64(st.ActorSteps)
	}
	return st
}

// sample draws the minibatch (uniformly, with replacement) and its
// smoothing noise, in this order, from the agent's generator.
func (a *Agent) sample() {
	for k := range a.idx {
		a.idx[k] = a.rng.IntN(a.buf.n)
		a.z[k] = a.rng.NormFloat64()
	}
}

// split runs f over the two fixed halves of the minibatch concurrently.
func (a *Agent) split(f func(s *shard, lo, hi int)) {
	b := len(a.idx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f(a.shards[1], b/2, b)
	}()
	f(a.shards[0], 0, b/2)
	wg.Wait()
}

// smooth is TD3's target action: clip(mu' + clip(sigma z, -c, c), -1, 1)
// for a standard normal draw z.
func (a *Agent) smooth(mu, z float64) float64 {
	c := a.cfg.NoiseClip
	eps := min(max(a.cfg.TargetNoise*z, -c), c)
	return min(max(mu+eps, -1), 1)
}

// target is y of Eq. 4.1 for buffer slot i with smoothing draw z:
// r + Discount * min(Q'_1, Q'_2)(s', smooth(mu'(s'), z)).
func (a *Agent) target(s *shard, i int, z float64) float64 {
	_, _, next, ns := a.buf.at(i)
	y, d := a.buf.reward[i], a.buf.discount[i]
	if d == 0 {
		return y
	}
	s.extra[0] = a.smooth(a.actorT.Forward(next, ns, nil, s.wT), z)
	q1 := a.q1T.Forward(next, ns, s.extra, s.wT)
	q2 := a.q2T.Forward(next, ns, s.extra, s.wT)
	return y + d*min(q1, q2)
}

// criticGrads computes the critics' gradients of the loss
// L_i = N^-1 sum (y - Q_i(s, a))^2 (Eq. 4.2 as standard TD3):
// dL_i/dtheta_i = N^-1 sum -2 (y - Q_i) dQ_i/dtheta_i, into shards[0]'s
// gQ1 and gQ2 (the halves summed in a fixed order).
func (a *Agent) criticGrads() {
	inv := 1 / float64(len(a.idx))
	a.split(func(s *shard, lo, hi int) {
		clear(s.gQ1)
		clear(s.gQ2)
		s.loss1, s.loss2, s.sumQ, s.sumY = 0, 0, 0, 0
		for k := lo; k < hi; k++ {
			i := a.idx[k]
			y := a.target(s, i, a.z[k])
			obs, steps, _, _ := a.buf.at(i)
			s.extra[0] = a.buf.action[i]
			q1 := a.q1.Forward(obs, steps, s.extra, s.wQ1)
			learn.BackwardRecurrentAfter(a.q1, obs, steps, -2*(y-q1)*inv, s.gQ1, nil, s.wQ1)
			q2 := a.q2.Forward(obs, steps, s.extra, s.wQ2)
			learn.BackwardRecurrentAfter(a.q2, obs, steps, -2*(y-q2)*inv, s.gQ2, nil, s.wQ2)
			s.loss1 += (y - q1) * (y - q1)
			s.loss2 += (y - q2) * (y - q2)
			s.sumQ += q1
			s.sumY += y
		}
	})
	addInto(a.shards[0].gQ1, a.shards[1].gQ1)
	addInto(a.shards[0].gQ2, a.shards[1].gQ2)
}

// actorGrads computes the deterministic policy gradient of Eq. 4.3,
// N^-1 sum dQ_1/da|_{a=mu(s)} dmu/dphi, into shards[0].gA: per sample,
// dQ_1/da from the critic's head, then the actor's backward pass scaled by
// it.
func (a *Agent) actorGrads() {
	inv := 1 / float64(len(a.idx))
	a.split(func(s *shard, lo, hi int) {
		clear(s.gA)
		s.sumJ = 0
		for k := lo; k < hi; k++ {
			obs, steps, _, _ := a.buf.at(a.idx[k])
			s.extra[0] = a.actor.Forward(obs, steps, nil, s.wA)
			s.sumJ += a.q1.Forward(obs, steps, s.extra, s.wQ1)
			learn.BackwardRecurrentAfter(a.q1, obs, steps, 1, nil, s.dExtra, s.wQ1)
			learn.BackwardRecurrentAfter(a.actor, obs, steps, s.dExtra[0]*inv, s.gA, nil, s.wA)
		}
	})
	addInto(a.shards[0].gA, a.shards[1].gA)
}

// addInto adds src to dst element by element.
func addInto(dst, src []float64) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

// polyak moves a target network toward its online one: p' <- tau p + (1 -
// tau) p'.
func (a *Agent) polyak(r *nn.Recurrent, target, online []float64) {
	tau := a.cfg.Tau
	for i, p := range online {
		target[i] = tau*p + (1-tau)*target[i]
	}
	r.SetParams(target)
}
