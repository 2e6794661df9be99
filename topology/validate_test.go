package topology

import (
	"testing"

	"github.com/ccreplay/ccreplay/limits"
)

// Validate must catch every broken invariant with a message that names the
// node and port.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*Topology)
		want   string
	}{
		{"ok", func(*Topology) {}, ""},
		{"one host", func(tp *Topology) { tp.NumHosts = 1 }, "topology has 1 hosts, need at least 2"},
		{"hosts beyond nodes", func(tp *Topology) { tp.NumHosts = 9 }, "topology says 9 hosts but has only 4 nodes"},
		{"bad id", func(tp *Topology) { tp.Nodes[1].ID = 7 }, `node 1 "h1" has id 7, want 1 (ids must equal the node's index)`},
		{"switch among hosts", func(tp *Topology) { tp.Nodes[2].Kind = Switch },
			`node 2 "h2" is a switch, want a host (hosts are ids 0..2, switches follow)`},
		{"host after switches", func(tp *Topology) { tp.Nodes[3].Kind = Host },
			`node 3 "sw0" is a host, want a switch (hosts are ids 0..2, switches follow)`},
		{"host with two ports", func(tp *Topology) {
			tp.Nodes[0].Ports = append(tp.Nodes[0].Ports, tp.Nodes[0].Ports[0])
		}, `host node 0 "h0" has 2 ports, want exactly 1`},
		{"host with no port", func(tp *Topology) { tp.Nodes[0].Ports = nil }, `host node 0 "h0" has 0 ports, want exactly 1`},
		{"zero rate", func(tp *Topology) { tp.Nodes[3].Ports[1].Rate = 0 }, `node 3 "sw0" port 1: rate 0 bps must be > 0`},
		{"negative delay", func(tp *Topology) { tp.Nodes[1].Ports[0].Delay = -5 }, `node 1 "h1" port 0: delay -5 ps must be >= 0`},
		{"negative rate", func(tp *Topology) { tp.Nodes[2].Ports[0].Rate = -1 }, `node 2 "h2" port 0: rate -1 bps must be > 0`},
		{"zero rate on a host", func(tp *Topology) { tp.Nodes[0].Ports[0].Rate = 0 }, `node 0 "h0" port 0: rate 0 bps must be > 0`},
		{"negative delay on a switch", func(tp *Topology) { tp.Nodes[3].Ports[2].Delay = -1 }, `node 3 "sw0" port 2: delay -1 ps must be >= 0`},
		{"both ends bad", func(tp *Topology) { tp.Nodes[3].Ports[0].Rate = 0; tp.Nodes[0].Ports[0].Rate = 0 }, `node 0 "h0" port 0: rate 0 bps must be > 0`},
		{"too many hosts", func(tp *Topology) { tp.NumHosts = limits.MaxHosts + 1 }, "topology: 1048577 hosts is more than the limit of 1048576"},
		{"peer out of range", func(tp *Topology) { tp.Nodes[3].Ports[2].Peer = 42 }, `node 3 "sw0" port 2: peer 42 does not exist (4 nodes)`},
		{"self loop", func(tp *Topology) { tp.Nodes[3].Ports[2].Peer = 3 }, `node 3 "sw0" port 2: links the node to itself`},
		{"peer port out of range", func(tp *Topology) { tp.Nodes[0].Ports[0].PeerPort = 3 },
			`node 0 "h0" port 0: peer port 3 does not exist on node 3 "sw0" (3 ports)`},
		{"half duplex", func(tp *Topology) { tp.Nodes[0].Ports[0].PeerPort = 1 },
			`node 0 "h0" port 0: link is not full duplex: it points at node 3 "sw0" port 1, which points at node 1 port 0`},
		{"asymmetric rate", func(tp *Topology) { tp.Nodes[2].Ports[0].Rate = 40 * G },
			`node 2 "h2" port 0: link to node 3 "sw0" port 2 has 40Gbps/1us one way and 100Gbps/1us the other (rate/delay must match)`},
		{"asymmetric delay", func(tp *Topology) { tp.Nodes[3].Ports[0].Delay = 2 * us },
			`node 0 "h0" port 0: link to node 3 "sw0" port 0 has 100Gbps/1us one way and 100Gbps/2us the other (rate/delay must match)`},
		{"unnamed", func(tp *Topology) { tp.Nodes[1].Name = ""; tp.Nodes[1].ID = 5 }, `node 1 has id 5, want 1 (ids must equal the node's index)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			topo, err := Star(3, 100*G, us)
			if err != nil {
				t.Fatal(err)
			}
			tc.mutate(topo)
			err = topo.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("Validate() = %v,\nwant %s", err, tc.want)
			}
		})
	}
}

// Two stars side by side are each fine but not connected to each other.
func TestValidateDisconnected(t *testing.T) {
	topo := &Topology{Name: "two islands", NumHosts: 4}
	b := &builder{t: topo}
	topo.Nodes = make([]Node, 6)
	for i := range topo.Nodes {
		topo.Nodes[i] = Node{ID: int32(i), Kind: Host, Name: "n" + string(rune('0'+i))}
		if i >= 4 {
			topo.Nodes[i].Kind = Switch
		}
	}
	b.link(0, 4, G, us)
	b.link(1, 4, G, us)
	b.link(2, 5, G, us)
	b.link(3, 5, G, us)
	if err := topo.Validate(); err == nil || err.Error() != `host node 2 "n2" cannot reach host node 0 "n0": the topology is not connected` {
		t.Fatalf("Validate() = %v", err)
	}
	b.link(4, 5, G, us)
	if err := topo.Validate(); err != nil {
		t.Fatalf("after joining the switches: %v", err)
	}
}

// Two hosts cabled back to back are a valid network (a switch may be idle),
// and routing handles a path with no switch.
func TestValidateBackToBackHosts(t *testing.T) {
	topo := &Topology{Name: "back to back", NumHosts: 2, Nodes: []Node{
		{ID: 0, Kind: Host, Name: "h0"}, {ID: 1, Kind: Host, Name: "h1"}, {ID: 2, Kind: Switch, Name: "idle"},
	}}
	(&builder{t: topo}).link(0, 1, G, us)
	if err := topo.Validate(); err != nil {
		t.Fatalf("back-to-back hosts: %v", err)
	}
	r := topo.Routes()
	if p := r.Path(0, 1, 7); len(p) != 1 || p[0].Node != 0 {
		t.Fatalf("path h0->h1 = %v", p)
	}
}

// Validate refuses a topology of more than MaxLinks links however it was
// made (here: parallel links between two switches, which no builder limit
// saw), naming the count and the limit.
func TestValidateLinkLimit(t *testing.T) {
	b := newBuilder("many", 2, []string{"a", "b"})
	b.link(0, 2, G, us)
	b.link(1, 3, G, us)
	for i := 0; i < MaxLinks-1; i++ {
		b.link(2, 3, G, us)
	}
	if err := b.t.Validate(); err == nil || err.Error() != "topology has 3145729 links, more than the limit of 3145728" {
		t.Fatalf("Validate = %v", err)
	}
}
