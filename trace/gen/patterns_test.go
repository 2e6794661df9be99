package gen_test

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// TestIncastPCCRLTable is PCC-RL's many-to-one mapping (Tessler et al.,
// Appendix A.1, Table 6): flows=N alone picks hosts x flows per host.
func TestIncastPCCRLTable(t *testing.T) {
	for _, row := range []struct{ flows, hosts, perHost int }{
		{2, 2, 1}, {4, 4, 1}, {16, 16, 1}, {32, 32, 1}, {64, 64, 1}, {128, 64, 2},
		{256, 32, 8}, {512, 64, 8}, {1024, 32, 32}, {2048, 64, 32}, {4096, 64, 64}, {8192, 64, 128},
	} {
		tr := mustParse(t, "incast:flows="+strconv.Itoa(row.flows), 1)
		perSender := map[int32]int{}
		flows := map[int64]bool{}
		for _, m := range tr.Messages {
			perSender[m.Src]++
			flows[m.FlowID] = true
			if int(m.Dst) != row.hosts {
				t.Fatalf("flows=%d: message to %d, want receiver %d", row.flows, m.Dst, row.hosts)
			}
		}
		if len(tr.Messages) != row.flows || len(flows) != row.flows || len(perSender) != row.hosts || tr.Hosts != row.hosts+1 {
			t.Errorf("flows=%d: %d messages, %d queue pairs, %d senders, %d hosts", row.flows, len(tr.Messages), len(flows), len(perSender), tr.Hosts)
		}
		for h, n := range perSender {
			if n != row.perHost {
				t.Errorf("flows=%d: host %d has %d flows, want %d", row.flows, h, n, row.perHost)
			}
		}
	}
	// With n, per_host follows; FDCC's "each host sent multiple flows".
	tr := mustParse(t, "incast:flows=64,n=16,size=20MB,jitter=1ms,dist=gaussian", 1)
	if len(tr.Messages) != 64 || tr.Messages[63].Src != 15 || tr.Messages[4].Src != 1 || tr.Hosts != 17 {
		t.Errorf("flows=64,n=16: %d messages, last from %d", len(tr.Messages), tr.Messages[63].Src)
	}
	if tr := mustParse(t, "incast:flows=12,per_host=3", 1); len(tr.Messages) != 12 || tr.Hosts != 5 {
		t.Errorf("flows=12,per_host=3: %d messages, %d hosts", len(tr.Messages), tr.Hosts)
	}
}

func TestIncastSizes(t *testing.T) {
	// Uniform integers in [size, size_max]: mean (a+b)/2, sd (b-a)/sqrt(12).
	tr := mustParse(t, "incast:n=4000,size_dist=uniform,size=10KB,size_max=1MB", 9)
	var xs []float64
	for _, m := range tr.Messages {
		if m.Bytes < 10_000 || m.Bytes > 1_000_000 {
			t.Fatalf("size %d outside [10KB, 1MB]", m.Bytes)
		}
		xs = append(xs, float64(m.Bytes))
	}
	mean, sd := meanSD(xs)
	// The mean's standard error is about 4.5 KB: 20 KB is over 4 of them.
	if want := 505_000.0; math.Abs(mean-want) > 20_000 {
		t.Errorf("mean size %.0f, want about %.0f", mean, want)
	}
	if want := 990_000 / math.Sqrt(12); math.Abs(sd-want)/want > 0.05 {
		t.Errorf("sd %.0f, want about %.0f", sd, want)
	}
	// A list is taken in turn; fixed is the default.
	tr = mustParse(t, "incast:n=2,per_host=3,size_dist=list,sizes=1KB;0;20MB", 1)
	var got []int64
	for _, m := range tr.Messages {
		got = append(got, m.Bytes)
	}
	if want := []int64{1000, 0, 20_000_000, 1000, 0, 20_000_000}; !reflect.DeepEqual(got, want) {
		t.Errorf("list sizes %v, want %v", got, want)
	}
	// A degenerate uniform range is the fixed size.
	for _, m := range mustParse(t, "incast:n=5,size_dist=uniform,size=7,size_max=7", 1).Messages {
		if m.Bytes != 7 {
			t.Errorf("size %d, want 7", m.Bytes)
		}
	}
}

// TestIncastFDCC is the FDCC thesis incast (Sec. 6.2): 20 MB flows
// initialized within 1 ms following a Gaussian distribution; several flows
// per host once flows outnumber hosts.
func TestIncastFDCC(t *testing.T) {
	tr := mustParse(t, "incast:n=64,per_host=8,size=20MB,jitter=1ms,dist=gaussian", 4)
	rel := releases(t, tr, 0, units.Millisecond)
	mean, _ := meanSD(rel)
	if math.Abs(mean-float64(units.Millisecond/2)) > float64(30*units.Microsecond) {
		t.Errorf("mean start %v, want about 500us", units.Time(mean))
	}
	for _, m := range tr.Messages {
		if m.Bytes != 20_000_000 {
			t.Fatalf("size %d, want 20MB", m.Bytes)
		}
	}
}

func TestLongShort(t *testing.T) {
	// FDCC (Sec. 6.1): one continuous long flow, one short flow at 1 ms.
	tr := mustParse(t, "long-short", 1)
	want := []trace.Message{
		{ID: 0, Src: 0, Dst: 2, Bytes: 100_000_000, FlowID: 0, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 1, Src: 1, Dst: 2, Bytes: 1_000_000, Release: units.Millisecond, FlowID: 1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
	}
	if tr.Hosts != 3 || !reflect.DeepEqual(tr.Messages, want) {
		t.Errorf("default: %d hosts, %+v", tr.Hosts, tr.Messages)
	}
	// RL-CC (Sec. VI-E): 4 long flows, 100 short ones, on 7 hosts; here
	// in 3 rounds 10 ms apart, each spread over 100 us.
	tr = mustParse(t, "long-short:long=4,short=100,short_hosts=2,short_size=64KB,at=2ms,jitter=100us,rounds=3,period=10ms", 7)
	if tr.Hosts != 7 || len(tr.Messages) != 4+300 {
		t.Fatalf("%d hosts, %d messages; want 7, 304", tr.Hosts, len(tr.Messages))
	}
	perHost := map[int32]int{}
	for i, m := range tr.Messages {
		if m.Dst != 6 || m.FlowID != int64(i) {
			t.Fatalf("message %+v: want to host 6 on its own flow", m)
		}
		if i < 4 {
			if m.Src != int32(i) || m.Release != 0 || m.Bytes != 100_000_000 {
				t.Errorf("long flow %+v", m)
			}
			continue
		}
		perHost[m.Src]++
		r := units.Time((i - 4) / 100)
		lo := 2*units.Millisecond + r*10*units.Millisecond
		if m.Release < lo || m.Release >= lo+100*units.Microsecond || m.Bytes != 64_000 {
			t.Errorf("short flow %d of round %d: %+v", i, r, m)
		}
	}
	if !reflect.DeepEqual(perHost, map[int32]int{4: 150, 5: 150}) {
		t.Errorf("short flows per host %v", perHost)
	}
}

// TestFairshare is FDCC's fair-share join (Sec. 6.1, Fig. 6.2): 4 flows
// join one by one every 35 ms.
func TestFairshare(t *testing.T) {
	checkEach(t, "fairshare", 5, 4, func(i int, m trace.Message) bool {
		return m.Src == int32(i) && m.Dst == 4 && m.Bytes == 1_000_000_000 && m.Release == units.Time(i)*35*units.Millisecond
	})
	if tr := mustParse(t, "fairshare:mode=pairs", 1); tr.Hosts != 8 || tr.Messages[3].Dst != 7 {
		t.Errorf("pairs: %d hosts", tr.Hosts)
	}
}

// TestAllToAllPCCRL is PCC-RL's all-to-all (Tessler et al., Sec. 8.1):
// N hosts, 2N flows on each (2N^2 in all), flow i of every host to host
// i mod N.
func TestAllToAllPCCRL(t *testing.T) {
	for _, n := range []int{4, 8} {
		tr := mustParse(t, "all-to-all:hosts="+strconv.Itoa(n), 1)
		if tr.Hosts != n || len(tr.Messages) != 2*n*n {
			t.Fatalf("N=%d: %d hosts, %d flows; want %d, %d", n, tr.Hosts, len(tr.Messages), n, 2*n*n)
		}
		pairs := map[[2]int32]int{}
		for k, m := range tr.Messages {
			h, i := k/(2*n), k%(2*n)
			if m.Src != int32(h) || m.Dst != int32(i%n) || m.FlowID != int64(k) || m.Bytes != 10_000_000 || m.Release != 0 {
				t.Fatalf("N=%d: flow %d of host %d = %+v, want to host %d", n, i, h, m, i%n)
			}
			pairs[[2]int32{m.Src, m.Dst}]++
		}
		// Exactly two flows for every ordered pair, including a host and
		// itself (kept as same-host transfers).
		if len(pairs) != n*n {
			t.Errorf("N=%d: %d distinct pairs, want %d", n, len(pairs), n*n)
		}
		for p, c := range pairs {
			if c != 2 {
				t.Errorf("N=%d: pair %v has %d flows, want 2", n, p, c)
			}
		}
	}
	// With 6 flows per host, flows 0..5 of host h skip i = h and h+4.
	tr := mustParse(t, "all-to-all:hosts=4,self=skip,per_host=6", 1)
	if len(tr.Messages) != 4*6-6 {
		t.Errorf("self=skip: %d flows, want 18", len(tr.Messages))
	}
	for _, m := range tr.Messages {
		if m.Src == m.Dst {
			t.Errorf("self=skip kept %+v", m)
		}
	}
}

// TestDNNBurstPaper is the burst case study of Lehal, Luangsomboon and
// Liebeherr (Sec. V): 31 senders start a 10 MB burst together to one
// destination.
func TestDNNBurstPaper(t *testing.T) {
	checkEach(t, "dnn-burst", 32, 31, func(i int, m trace.Message) bool {
		return m.Src == int32(i) && m.Dst == 31 && m.Bytes == 10_000_000 && m.Release == 0 && m.CollectiveID == 0 && m.Iteration == 0 && len(m.Deps) == 0
	})
}

func TestDNNBurstClosedLoop(t *testing.T) {
	us := units.Microsecond
	tr := mustParse(t, "dnn-burst:workers=3,layers=1MB;2MB,iters=3,layer_gap=50us,compute=200us,pull=true,prio=4", 1)
	c := ancestors(t, tr)
	coll := byCollective(tr)
	if len(coll) != 6 {
		t.Fatalf("%d collectives, want iterations x layers = 6", len(coll))
	}
	for id, idx := range coll {
		k, l := id/2, id%2
		var pushes, pulls int
		for _, i := range idx {
			m := tr.Messages[i]
			if m.Bytes != []int64{1_000_000, 2_000_000}[l] || m.Iteration != k || m.Priority != 4 {
				t.Fatalf("collective %d: %+v", id, m)
			}
			if m.Dst == 3 {
				pushes++
				switch {
				case k == 0 && (len(m.Deps) != 0 || m.Release != units.Time(l)*50*us):
					t.Errorf("first push %+v: want release at l*layer_gap", m)
				case k > 0 && (len(m.Deps) != 1 || !tr.Messages[m.Deps[0]].IsSync() || m.Gap != 200*us+units.Time(l)*50*us):
					t.Errorf("push %+v: want the worker's join + compute + l*layer_gap", m)
				}
				continue
			}
			pulls++
			// A reply waits for every worker's burst of its layer.
			for _, j := range idx {
				if tr.Messages[j].Dst == 3 && !c.waitsFor(i, j) {
					t.Errorf("reply %d does not wait for burst %d", m.ID, tr.Messages[j].ID)
				}
			}
		}
		if pushes != 3 || pulls != 3 {
			t.Errorf("collective %d: %d bursts, %d replies", id, pushes, pulls)
		}
	}
	// Closed loop: iteration k+1 of a worker waits for its replies of k.
	for _, i := range coll[2] {
		m := tr.Messages[i]
		for _, j := range append(coll[0], coll[1]...) {
			if o := tr.Messages[j]; o.Dst == m.Src && !c.waitsFor(i, j) {
				t.Errorf("burst %d of iteration 1 does not wait for reply %d", m.ID, o.ID)
			}
		}
	}
}

func TestDNNBurstRingAndOpenLoop(t *testing.T) {
	tr := mustParse(t, "dnn-burst:mode=ring,workers=4,layers=1000;10,iters=2", 1)
	if tr.Hosts != 4 || len(tr.Messages) != 2*2*(2*3*4)+4 {
		t.Fatalf("%d hosts, %d messages; want 4, 100", tr.Hosts, len(tr.Messages))
	}
	for id, idx := range byCollective(tr) {
		want := []int64{250, 3}[id%2] // ceil(size / workers)
		for _, i := range idx {
			m := tr.Messages[i]
			if m.Bytes != want || m.Dst != (m.Src+1)%4 {
				t.Fatalf("collective %d: %+v, want %d B to the next worker", id, m, want)
			}
		}
	}
	// Open loop: iteration k's bursts at start + k*period + l*layer_gap,
	// whatever completed.
	ms := units.Millisecond
	tr = mustParse(t, "dnn-burst:workers=2,layers=1MB;1MB;1MB,iters=4,period=10ms,layer_gap=1ms,start=1ms", 1)
	if len(tr.Messages) != 4*3*2 {
		t.Fatalf("%d messages", len(tr.Messages))
	}
	for _, m := range tr.Messages {
		k, l := m.Iteration, m.CollectiveID%3
		if want := ms + units.Time(k)*10*ms + units.Time(l)*ms; m.Release != want || len(m.Deps) != 0 {
			t.Errorf("%+v: want release %v and no deps", m, want)
		}
	}
}
