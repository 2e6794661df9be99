package dumpi

import (
	"testing"
)

// haloProgs is a synthetic stencil: each of n ranks runs iters rounds of
// Irecv/Isend with its two ring neighbours and a Waitall, with an
// MPI_Allreduce every 10 rounds.
func haloProgs(n, iters int) []*prog {
	progs := make([]*prog, n)
	for r := range progs {
		p := newProg()
		p.call(fnInit, 100, nil)
		for i := range iters {
			l, rt := (r+n-1)%n, (r+1)%n
			p.call(fnIrecv, 50, args{"count": 1024, "datatype": dtDouble, "source": l, "tag": 1, "comm": commWorld, "request": 2})
			p.call(fnIrecv, 50, args{"count": 1024, "datatype": dtDouble, "source": rt, "tag": 1, "comm": commWorld, "request": 3})
			p.call(fnIsend, 50, isend(1024, dtDouble, l, 1, commWorld, 4))
			p.call(fnIsend, 50, isend(1024, dtDouble, rt, 1, commWorld, 5))
			p.call(fnWaitall, 500, args{"count": 4, "requests": []int64{2, 3, 4, 5}})
			p.compute(20000)
			if i%10 == 9 {
				p.call(fnAllreduce, 1000, args{"count": 1, "datatype": dtDouble, "op": 3, "comm": commWorld})
			}
		}
		p.call(fnFinalize, 100, nil)
		progs[r] = p
	}
	return progs
}

// BenchmarkLoad loads a 64-rank stencil trace of 2000 rounds (about
// 660k records, 256k point-to-point and 77k collective messages).
func BenchmarkLoad(b *testing.B) {
	progs := haloProgs(64, 2000)
	fxs := make([]*fixture, len(progs))
	for i, p := range progs {
		fxs[i] = &p.fx
	}
	meta := writeSet(b, b.TempDir(), "halo", fxs)
	b.ResetTimer()
	for range b.N {
		tr, rep, err := Load(meta, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Records)/b.Elapsed().Seconds()*float64(b.N), "records/s")
		_ = tr
	}
}
