package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Data-parallel DNN training traffic: on-off gradient bursts. Lehal,
// Luangsomboon and Liebeherr (Sec. V) send simultaneous 10 MB bursts (the
// largest ResNet50 convolution layer's parameters) from 31 senders to one
// destination through a 32-port 100 Gb/s switch: the defaults here. Their
// footnote 1: "the number of bursts relates to the number of convolution
// layers ... and the burst sizes are determined by the number of
// parameters within those layers", hence a list of layer sizes sent in
// order every iteration.
var dnnBurstKind = Kind{
	Name: "dnn-burst",
	Doc: "gradient bursts of data-parallel training: every iteration each worker sends one burst per layer, to a parameter server (ps) or through a ring all-reduce (ring); " +
		"iterations follow each other closed-loop (compute after a worker's last burst completed) or open-loop every period",
	Keys: []Key{
		countKey("workers", "31", 1, maxCount, "number of workers (count; the paper's 31 senders)"),
		choiceKey("mode", "ps: worker w sends each layer to the parameter server, host workers; ring: a ring all-reduce of each layer among the workers, 2(workers-1) steps of size/workers", "ps", "ring"),
		sizesKey("layers", "10MB", "gradient burst sizes, one per layer, in sending order, separated by ';' (bytes; 10MB = the largest ResNet50 layer)"),
		countKey("iters", "1", 1, maxCount, "training iterations (count)"),
		timeKey("layer_gap", "0", "time between a worker's successive layer bursts within an iteration (time; back-propagation compute per layer)"),
		timeKey("compute", "0", "closed loop: time from a worker's iteration completing to its next iteration's first burst (time; forward pass)"),
		timeKey("period", "0", "open loop when > 0: iteration k's bursts start at start + k*period whatever has completed (time)"),
		flagKey("pull", "false", "ps mode: after all workers' bursts of a layer arrived, the server sends the layer back to every worker (true or false)"),
		timeKey("start", "0", "release time of the first bursts (time)"),
		prioKey,
	},
	build: buildDNNBurst,
}

// buildDNNBurst makes the training trace. Layer l of iteration k is one
// collective (id k*layers + l, Iteration k). Closed loop, a worker's
// iteration ends at a join (a zero-byte message on its host) depending on
// its last messages of every layer: its bursts to the server, the
// server's replies when pull is set, or its last ring send and receive;
// its next iteration's layer l waits for that join plus compute +
// l*layer_gap. With pull, the server aggregates each layer at a
// zero-byte message on its host depending on every worker's burst, and
// the replies depend on it.
func buildDNNBurst(p *params) *trace.Trace {
	var s struct {
		Workers, Iters                   int64
		Mode                             string
		Layers                           []int64
		LayerGap, Compute, Period, Start units.Time
		Pull                             bool
		Prio                             int32
	}
	p.decode(&s)
	workers, ring, layers, iters, pull, prio := s.Workers, s.Mode == "ring", s.Layers, s.Iters, s.Pull, s.Prio
	layerGap, compute, period, start := s.LayerGap, s.Compute, s.Period, s.Start
	if p.err == nil && pull && ring {
		p.fail("pull", p.raw("pull"), "pull applies to mode=ps only")
	}
	if p.err == nil && ring && workers < 2 {
		p.fail("workers", p.raw("workers"), "a ring needs at least 2 workers")
	}
	nl := int64(len(layers))
	p.checkEnd("layer_gap", start+compute+period*units.Time(iters-1), nl-1, layerGap)
	p.checkEnd("period", start, iters-1, period)
	w := float64(workers)
	perLayer := w + 1
	switch {
	case ring:
		perLayer = 2 * (w - 1) * w
	case pull:
		perLayer = 2*w + 1
	}
	if p.err != nil || p.tooMany(float64(iters)*(float64(nl)*perLayer+w)) { // + the joins
		return nil
	}

	hosts := make([]int32, workers)
	for i := range hosts {
		hosts[i] = int32(i)
	}
	t := &trace.Trace{Hosts: int(workers)}
	if !ring {
		t.Hosts++
	}
	server := int32(workers)
	b := &builder{t: t}
	g := &group{hosts: hosts, perPair: true, prio: prio}
	join := filled(int(workers), -1) // each worker's end of the previous iteration
	closed := period == 0
	for k := range iters {
		ends := make([][]int64, workers) // each worker's last messages of this iteration
		for l, size := range layers {
			ph := phase{
				ready:   join,
				gap:     compute + units.Time(l)*layerGap,
				release: start + units.Time(k)*period + units.Time(l)*layerGap,
				coll:    k*nl + int64(l),
				iter:    k,
			}
			if k == 0 {
				ph.release = start + units.Time(l)*layerGap
			}
			if ring {
				res := b.ringAllreduce(g, ph, size)
				for a := range ends {
					ends[a] = append(ends[a], res.touch[a]...)
				}
				continue
			}
			pushes := make([]int64, workers)
			for a := range workers {
				m := newMsg(hosts[a], server, size)
				m.Priority, m.FlowID, m.CollectiveID, m.Iteration = prio, a, ph.coll, k
				b.start(&m, ph.ready[a], ph.gap, ph.release)
				pushes[a] = b.add(m)
				ends[a] = append(ends[a], pushes[a])
			}
			if !pull {
				continue
			}
			agg := b.sync(server, pushes, 0, 0, k, trace.NoRank)
			for a := range workers {
				m := newMsg(server, hosts[a], size)
				m.Priority, m.FlowID, m.CollectiveID, m.Iteration = prio, workers+a, ph.coll, k
				m.Deps = b.one(agg)
				ends[a][len(ends[a])-1] = b.add(m) // the reply ends the worker's layer
			}
		}
		if closed && k < iters-1 {
			for a := range workers {
				join[a] = b.sync(hosts[a], ends[a], 0, 0, k, trace.NoRank)
			}
		}
	}
	return t
}
