// Package fidelity cross-checks two sets of flow completions of the same
// scenario, typically the HPCC ns-3 simulator's fct.txt (the reference)
// against a ccreplay run of the same config.txt (the other side), and
// says how far apart they are (docs/VALIDATE.md; `ccreplay validate`).
//
// Every function here is pure except Load, which reads a side from disk.
// The steps, each a function:
//
//   - Match pairs the flows one to one: first by (src, dst, sport, dport)
//     where that key is unique on both sides and the sizes agree (the
//     simulator numbers source ports per host pair in flow-file order,
//     and ccreplay does the same), then the rest by (src, dst, size) and
//     start times within MatchOptions.StartToleranceNs (ns-3 truncates
//     the flow file's start times in seconds to whole nanoseconds, one
//     nanosecond below the exact value at times; ccreplay keeps them
//     exact), greedily in start order, which pairs the most flows
//     possible under the tolerance.
//   - Compare computes the Report over the matched pairs: slowdowns, their
//     percentiles overall and per flow-size bucket under both bucketings,
//     the FCT ratios, the last completion and the flows that differ most.
//   - Check tests a Report against Bands and lists every ratio outside.
//
// Definitions (the Report's fields repeat them):
//
//	slowdown         = max(1, FCT / standalone FCT) of one side, as the HPCC
//	                   analysis script (fct_analysis.py) clamps it
//	slowdown (ref sa) = max(1, other's FCT / the reference's standalone FCT):
//	                   the difference it makes is the standalone FCTs' share
//	ratio            = other / reference (of two percentiles, two means, ...)
//	last completion  = max(start + FCT) - min(start) over the matched flows
//	percentiles      = nearest rank, index ceil(p n) - 1 (as ccreplay metrics),
//	                   except in the HPCC buckets: index int(n p) (as the script)
//
// A ratio whose reference value is 0 is 1 when the other value is 0 too,
// else 0 (no field is ever NaN or Inf, so the Report is plain JSON).
package fidelity
