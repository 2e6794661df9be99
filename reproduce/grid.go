package reproduce

// variant is one row of a paper's table: the paper's name for it and what
// ccreplay runs for it (an algorithm spec, or a policy).
type variant struct{ name, spec string }

// gridRuns is the runs of an experiment over flow counts and variants, one
// run(n, v) each, flow count outermost.
func gridRuns(flows []int, vs []variant, run func(n int, v variant) Run) []Run {
	var runs []Run
	for _, n := range flows {
		for _, v := range vs {
			runs = append(runs, run(n, v))
		}
	}
	return runs
}

// gridClaims is the claims of every flow count and variant, in gridRuns'
// order.
func gridClaims(flows []int, vs []variant, claims func(n int, v variant) []Claim) []Claim {
	var cs []Claim
	for _, n := range flows {
		for _, v := range vs {
			cs = append(cs, claims(n, v)...)
		}
	}
	return cs
}
