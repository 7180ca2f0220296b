package reports

import (
	"reflect"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
)

func TestPickEvalReplays(t *testing.T) {
	s := &results.EvalSummary{Cases: []results.EvalCase{
		{Case: "a", Score: 5}, {Case: "b", Score: 9}, {Case: "c", Score: 1}, {Case: "d", Score: 7}, {Case: "e", Score: 3},
	}}
	got := PickEvalReplays(s, contract.Higher)
	want := []ReplayPick{{"best", "b", []string{"b"}}, {"median", "a", []string{"a"}}, {"worst", "c", []string{"c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("higher is better: %v, want %v", got, want)
	}
	got = PickEvalReplays(s, contract.Lower)
	want = []ReplayPick{{"best", "c", []string{"c"}}, {"median", "a", []string{"a"}}, {"worst", "b", []string{"b"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lower is better: %v, want %v", got, want)
	}
	one := &results.EvalSummary{Cases: []results.EvalCase{{Case: "x", Score: 1}}}
	if got := PickEvalReplays(one, contract.Higher); len(got) != 1 {
		t.Fatalf("one case picked %d times: %v", len(got), got)
	}
}

func TestPickABReplays(t *testing.T) {
	s := &results.ABSummary{Cases: []results.ABCase{
		{Case: "s1", A: []float64{10, 12}, B: []float64{3, 4}},
		{Case: "s2", A: []float64{5, 5}, B: []float64{5, 5}},
		{Case: "s3", A: []float64{1, 2}, B: []float64{9, 9}},
		{Case: "s4", A: []float64{7, 7}, B: []float64{6, 6}},
	}}
	got := PickABReplays(s, false, contract.Higher, 3)
	want := []ReplayPick{
		{"A's largest margin", "s1", []string{"s1/ab", "s1/ba"}},
		{"A's largest margin", "s4", []string{"s4/ab", "s4/ba"}},
		{"B's largest margin", "s3", []string{"s3/ab", "s3/ba"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	single := PickABReplays(s, true, contract.Lower, 2)
	if len(single) != 2 || single[0].Case != "s3" || single[0].Keys[0] != "s3/a" || single[1].Case != "s1" {
		t.Fatalf("single-player, lower is better: %v", single)
	}
}

func TestReplayFile(t *testing.T) {
	if got := ReplayFile("p14/s0@custom"); got != "replays/p14_s0_custom.html" {
		t.Fatal(got)
	}
}

func TestShortNums(t *testing.T) {
	got := shortNums("greedy:price_weight=1.744476237984022,dist_weight=4.5,learn_rounds=12,x=-0.000123456789")
	if want := "greedy:price_weight=1.744,dist_weight=4.5,learn_rounds=12,x=-0.0001235"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
