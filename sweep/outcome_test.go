package sweep

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestOutcomeAndTodo: the counts add up to the points, the points not
// done are listed in order, and a submission takes the pending and failed
// ones but not those done or running.
func TestOutcomeAndTodo(t *testing.T) {
	var states []PointState
	for i, s := range []State{Done, Failed, Running, Pending, Done, Pending} {
		ps := PointState{State: s}
		ps.Index = i
		states = append(states, ps)
	}
	if got := Todo(states); !reflect.DeepEqual(got, []int{1, 3, 5}) {
		t.Errorf("Todo = %v, want [1 3 5]", got)
	}
	tbl := &Table{Columns: []Column{{Name: "point"}, {Name: "cca"}}}
	o := NewOutcome("sw", states, tbl, 1500*time.Millisecond)
	if o.Total != 6 || o.Done != 2 || o.Failed != 1 || o.Running != 1 || o.Pending != 2 || o.Done+o.Failed+o.Running+o.Pending != o.Total {
		t.Errorf("counts %+v", o)
	}
	if o.Table != filepath.Join("sw", TableFile) || !reflect.DeepEqual(o.Columns, []string{"point", "cca"}) || o.WallTimeS != 1.5 {
		t.Errorf("outcome %+v", o)
	}
	var idx []int
	for _, s := range o.NotDone {
		idx = append(idx, s.Index)
	}
	if !reflect.DeepEqual(idx, []int{1, 2, 3, 5}) {
		t.Errorf("not done %v, want [1 2 3 5]", idx)
	}
	if o := NewOutcome("sw", states[:1], nil, 0); o.Columns != nil || o.NotDone != nil {
		t.Errorf("status of one done point: %+v", o)
	}
}
