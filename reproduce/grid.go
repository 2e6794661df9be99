package reproduce

// variant is one row of a paper's table: the paper's name for it and what
// ccreplay runs for it (an algorithm spec, or a policy).
type variant struct{ name, spec string }

// grid is an experiment over flow counts and variants: at each scale one
// run of every variant at every flow count, flow count outermost.
type grid struct {
	flows    func(Scale) []int
	variants []variant
	// run is the run of spec at n flows at scale s.
	run func(s Scale, n int, spec string) Run
}

// runs is the grid's runs at s (an Experiment's Runs).
func (g grid) runs(s Scale) []Run {
	var runs []Run
	for _, n := range g.flows(s) {
		for _, v := range g.variants {
			runs = append(runs, g.run(s, n, v.spec))
		}
	}
	return runs
}

// claims is an Experiment's Claims for the grid: at each scale the claims
// of every flow count and variant, in the order of runs; each gets the
// label of its run.
func (g grid) claims(claims func(n int, v variant, label string) []Claim) func(Scale) []Claim {
	return func(s Scale) []Claim {
		var cs []Claim
		for _, n := range g.flows(s) {
			for _, v := range g.variants {
				cs = append(cs, claims(n, v, g.run(s, n, v.spec).Label)...)
			}
		}
		return cs
	}
}
