package results

import (
	"reflect"
	"testing"
)

func TestReasonTally(t *testing.T) {
	var rt ReasonTally
	if rt.Counts() != nil || rt.ByKind() != nil {
		t.Fatalf("empty tally: %v, %v; want nil", rt.Counts(), rt.ByKind())
	}
	rt.Add("timeout in round 9", "seed:4")
	rt.Add("crashed in round 4: exit status 3; stderr: x", "seed:5")
	rt.Add("timeout in round 12", "seed:6")
	rt.Add("crashed in round 7: exit status 1", "seed:7")
	rt.Add("timeout in round 1", "seed:8")
	want := []ReasonCount{
		{Kind: "timeout in round #", Count: 3, First: "timeout in round 9", Case: "seed:4"},
		{Kind: "crashed in round #: exit status #", Count: 2, First: "crashed in round 4: exit status 3; stderr: x", Case: "seed:5"},
	}
	got := rt.Counts()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Counts() = %+v\nwant %+v", got, want)
	}
	got[0].Count = 99 // a copy: the tally is unchanged
	if by := rt.ByKind(); !reflect.DeepEqual(by, []ReasonCount{want[1], want[0]}) {
		t.Fatalf("ByKind() = %+v\nwant the kinds in order of kind", by)
	}
}
