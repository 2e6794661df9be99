package dumpi

import "testing"

// TestBuildPrograms drives the builder through its neutral entry: rank 0
// sends 1000 bytes to rank 1 (blocking), rank 1 receives it, then both
// call MPI_Allreduce of 8 bytes on a communicator given by its members.
func TestBuildPrograms(t *testing.T) {
	send, _ := FuncByName("MPI_Send")
	recv, _ := FuncByName("MPI_Recv")
	allreduce, _ := FuncByName("MPI_Allreduce")
	progs := []Program{
		{File: "r0", Calls: []Call{
			{Kind: CallSend, Func: send, Entry: 100, Exit: 100, Comm: 0, Peer: 1, Tag: 7, Bytes: 1000, Root: -1},
			{Kind: CallWait, Func: send, Entry: 100, Exit: 150, Done: []int32{0}},
			{Kind: CallCollective, Func: allreduce, Entry: 1000, Exit: 1200, Comm: 0, Bytes: 8, Root: -1},
		}},
		{File: "r1", Calls: []Call{
			{Kind: CallRecv, Func: recv, Entry: 200, Exit: 200, Comm: 0, Peer: 0, Tag: 7, Source: -1},
			{Kind: CallWait, Func: recv, Entry: 200, Exit: 300, Done: []int32{0}},
			{Kind: CallCollective, Func: allreduce, Entry: 1100, Exit: 1200, Comm: 0, Bytes: 8, Root: -1},
		}},
	}
	tr, rep, fns, err := BuildCollectives(progs, [][]int32{{0, 1}}, Options{PPN: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if rep.Sends != 1 || rep.Matched != 1 || rep.Collectives["MPI_Allreduce"] != 1 || rep.CollectiveMessages != 2 || rep.Messages != 3 {
		t.Errorf("report %+v", rep)
	}
	if len(fns) != 1 || fns[0] != allreduce {
		t.Errorf("collective functions %v", fns)
	}
	if _, _, err := Build(progs, [][]int32{{0, 2}}, Options{}); err == nil {
		t.Error("a communicator with rank 2 of 2 was accepted")
	}
}
