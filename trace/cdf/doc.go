// Package cdf reads datacenter flow-size distributions and generates
// traces of flows drawn from them with Poisson arrivals at a target load.
//
// # File formats and conventions
//
// Three file families are in use, and each samples its CDF its own way;
// the mean size, and so the arrival rate for a given load, depends on the
// convention (the HPCC WebSearch file has a mean of 1.711 MB read linearly
// and 2.435 MB read as steps):
//
//	format  example                             line             default convention
//	hpcc    WebSearch_distribution.txt          "10000 15"       Linear (HPCC traffic_gen.py)
//	opera   websearch.csv                       "5971,0.077"     Step   (Opera's generator)
//	homa    Facebook_CacheFollowerDist_...txt   "53 0.00408"     Step   (HomaSimulation)
//
// In detail:
//   - hpcc: "size_bytes cdf_percent", whitespace separated, the last
//     percentage 100.
//   - opera: "size_bytes,cdf_fraction" comma separated, no header.
//   - homa: a first line holding one number, the distribution's mean
//     size; then "size cdf_fraction" lines. Files whose base name starts
//     with "DCTCP_" give sizes in packets, as HomaSimulation reads them;
//     they are multiplied by Options.PacketBytes (default 1460 B, the
//     TCP payload of a 1500 B Ethernet MTU; HomaSimulation multiplies by
//     its own payload per packet).
//
// The format is detected from the content, never from the folder: a file
// whose first line has a single number is homa; otherwise a comma in the
// first line means opera; otherwise a whitespace-separated file whose
// last CDF value exceeds 1 is hpcc (percent) and one ending at 1 is read
// as fractions with the step convention. Options.Convention overrides
// the default.
//
// Under Linear, a uniform u in [0, 1) maps to the size interpolated
// linearly between the two points whose CDF values bracket u (u at or
// below the first point's CDF gives the first size). Under Step, u maps
// to the first point whose CDF is >= u. Sizes are rounded to whole bytes,
// and a size below 1 B becomes 1 B (as HPCC's traffic_gen.py does).
//
// FacebookKeyValueMsgSizeDist.txt (Homa's "W1") is special: its table
// covers sizes 1..15 B up to a CDF of 0.47, and above that HomaSimulation
// draws from the generalized Pareto fit of Atikoglu et al. (SIGMETRICS
// 2012: theta 0, sigma 214.476, k 0.348238) shifted to start at the last
// table size. This package does the same, for files with that base name
// (under the step convention only).
//
// # Built-in distributions
//
// The named families (Families) are built into the binary (folder
// builtin/, embedded): Resolve with dataDir "" reads them, so `ccreplay gen
// cdf:dist=websearch,...` works from any directory. Only sources whose
// licence allows redistribution are built in: Opera's CDFs (BSD-3-Clause),
// Homa's workloads as the RAMCloud repository ships them (ISC) and the
// DCTCP web search list of Alizadeh's empirical-traffic-gen (Apache-2.0);
// each file starts with a comment block giving its source, citation,
// units, convention and mean, and each source folder has its LICENSE and
// NOTICE (Notices returns them). fb_hadoop and alistorage exist only in
// the HPCC simulator's unlicensed files and are not built in: they need
// data=DIR (or data=FILE), the user's own copy. See builtin/README.md.
//
// # Generator
//
// Generate draws flows between distinct uniformly random hosts, each host
// starting flows as a Poisson process whose mean inter-arrival time is the
// formula of the FDCC thesis (FDCC, Zhang 2023, Section 6.3, "Mix
// burst setup"):
//
//	ArrivalInterval_avg = 1 / (BW x workload% / (8 x flow-size_avg))
//
// (the thesis multiplies by 10^9 for nanoseconds). Every flow is its own
// queue pair. The same configuration and seed give the same trace.
package cdf
