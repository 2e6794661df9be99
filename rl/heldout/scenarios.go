package heldout

import "github.com/ccreplay/ccreplay/units"

// The topologies of the held-out sets.
const (
	// dumbbell is FDCC's training network (FDCC, Zhang 2023, Section 5.3).
	dumbbell = "dumbbell:n=64,rate=100G,bottleneck=100G,delay=1us"
	// dumbbell128 is dumbbell with 128 hosts a side, for incasts of 128
	// flows (four times training's largest).
	dumbbell128 = "dumbbell:n=128,rate=100G,bottleneck=100G,delay=1us"
	// fatTree is a small two-level fat-tree: 2 racks of 8 hosts, 2 spines,
	// 100 Gb/s, 1 us links.
	fatTree = "leafspine:leaves=2,hosts=8,spines=2,uplinks=1,rate=100G,fabric=100G,delay=1us"
	// webSearch is a WebSearch mix (the cdf generator's websearch
	// distribution) on fatTree's 16 hosts at 30 % load, arrivals over 1 ms.
	webSearch = "cdf:dist=websearch,hosts=16,load=0.3,duration=1ms"
)

// FDCC is the held-out set of `ccreplay train fdcc` (training plays
// 2..32-to-1 incasts of 20 MB flows starting Gaussian within 1 ms on the
// 64-to-64 dumbbell): incasts of other flow counts and sizes with Gaussian
// start jitter (12 and 24 flows, and a long incast of 128 flows of 1 MB on
// a dumbbell of 128 hosts a side, four times training's largest flow count:
// every flow is still sending when the last starts), six flows joining one
// every 200 us, the WebSearch mix on the small fat-tree, and one flow of 12
// MB alone across the idle bottleneck (a policy that does not fill an idle
// link scores about its share of the line rate / 0.85 there; see the
// package comment); every flow with the one-BDP window FDCC starts with.
var FDCC = []Scenario{
	{Name: "incast 12x3MB", Workload: "incast:n=12,size=3MB,jitter=500us,dist=gaussian,dst=64", Topology: dumbbell, WindowBDP: true, Duration: 8 * units.Millisecond},
	{Name: "incast 24x1MB", Workload: "incast:n=24,size=1MB,jitter=300us,dist=gaussian,dst=64", Topology: dumbbell, WindowBDP: true, Duration: 6 * units.Millisecond},
	{Name: "staggered 6x6MB", Workload: "longflows:n=6,size=6MB,stagger=200us", Topology: dumbbell, Join: true, WindowBDP: true, Duration: 8 * units.Millisecond},
	{Name: "incast 128x1MB", Workload: "incast:n=128,size=1MB,jitter=100us,dist=gaussian,dst=128", Topology: dumbbell128, WindowBDP: true, Duration: 14 * units.Millisecond},
	{Name: "websearch fat-tree", Workload: webSearch, Topology: fatTree, Mix: true, WindowBDP: true, Duration: 10 * units.Millisecond},
	{Name: "lone 1x12MB", Workload: "incast:n=1,size=12MB,dst=64", Topology: dumbbell, WindowBDP: true, Duration: 8 * units.Millisecond},
}

// RLCC is the held-out set of `ccreplay train rlcc` (training plays
// many-to-one of long flows on a star, every flow starting together
// within 20 us): incasts of finite flows of flow counts not in training
// with Gaussian start jitter (48 flows of 1 MB, and a long incast of 160
// flows of 1 MB, more than training's largest 128: the first finishes
// after the last starts, so fairness is measured over milliseconds), eight
// flows of 3 MB joining one every 100 us, the WebSearch mix on the small
// fat-tree, and one flow of 12 MB alone on an idle link (a policy that does
// not fill an idle link scores about its share of the line rate / 0.85
// there; see the package comment).
var RLCC = []Scenario{
	{Name: "incast 48x1MB", Workload: "incast:n=48,size=1MB,jitter=200us,dist=gaussian", Topology: "star:hosts=49,rate=100G,delay=1us", Duration: 8 * units.Millisecond},
	{Name: "incast 160x1MB", Workload: "incast:n=160,size=1MB,jitter=200us,dist=gaussian", Topology: "star:hosts=161,rate=100G,delay=1us", Duration: 16 * units.Millisecond},
	{Name: "staggered 8x3MB", Workload: "longflows:n=8,size=3MB,stagger=100us", Topology: "star:hosts=9,rate=100G,delay=1us", Join: true, Duration: 8 * units.Millisecond},
	{Name: "websearch fat-tree", Workload: webSearch, Topology: fatTree, Mix: true, Duration: 10 * units.Millisecond},
	{Name: "lone 1x12MB", Workload: "incast:n=1,size=12MB", Topology: "star:hosts=2,rate=100G,delay=1us", Duration: 8 * units.Millisecond},
}
