package reports

import (
	"math"

	"gauntlet/harness/results"
)

// Hand-made summaries for the tests: small, with every optional field used
// by some fixture.

func fp(x float64) *float64 { return &x }
func ip(x int) *int         { return &x }

// evalSingle is a single-player eval with groups (hextris-like problems).
func evalSingle() *results.EvalSummary {
	return &results.EvalSummary{
		Game: "hextris", Strategy: "hexgreedy", CaseSet: "smoke", Run: "ev-test",
		Cases: []results.EvalCase{
			{Case: "p0/s0", Group: "p0", Score: 1200, Turns: 40, Detail: map[string]any{"lines": 12.0, "power": 300.0}},
			{Case: "p0/s1", Group: "p0", Score: 950, Turns: 35, Detail: map[string]any{"lines": 9.0, "power": 250.0}},
			{Case: "p0/s2", Group: "p0", Score: 1410, Turns: 44, Detail: map[string]any{"lines": 14.0, "power": 320.0}},
			{Case: "p1/s0", Group: "p1", Score: 310.5, Turns: 20, Detail: map[string]any{"lines": 3.0, "power": 0.0}},
			{Case: "p1/s1", Group: "p1", Score: 402.25, Turns: 22, Detail: map[string]any{"lines": 4.0, "power": 0.0}, Forfeit: "timeout"},
		},
		Groups:   []results.EvalGroup{{Group: "p0", Cases: 3, Score: 1187}, {Group: "p1", Cases: 2, Score: 356}},
		Total:    1543,
		Mean:     854.55,
		CI95:     [2]float64{252.1, 1457},
		Games:    5,
		Forfeits: 1,
	}
}

// evalMulti is a two-player eval (brew-like) without groups.
func evalMulti() *results.EvalSummary {
	return &results.EvalSummary{
		Game: "brew", Strategy: "greedy", Opponents: []string{"random"}, CaseSet: "seeds:4", Run: "ev-multi",
		Cases: []results.EvalCase{
			{Case: "seed:1", Score: 1, Rank: 1, Turns: 60, OpponentScores: []float64{0}},
			{Case: "seed:2", Score: 1, Rank: 1, Turns: 58, OpponentScores: []float64{0}},
			{Case: "seed:3", Score: 0.5, Rank: 1, Turns: 100, OpponentScores: []float64{0.5}},
			{Case: "seed:4", Score: 0, Rank: 2, Turns: 70, OpponentScores: []float64{1}},
		},
		Total: 2.5, Mean: 0.625, CI95: [2]float64{0.1, 1.15}, Games: 4,
		FirstRate: fp(0.75), MeanRank: fp(1.25),
	}
}

// abMulti is a two-player A/B run with a history for the Elo and LLR plots.
func abMulti() *results.ABSummary {
	s := &results.ABSummary{
		Game: "brew", A: "greedy", B: "random", CaseSet: "seeds:3", Run: "ab-multi", Games: 6,
		Wins: 4, Draws: 1, Losses: 1, Pentanomial: [5]int{0, 0, 1, 1, 1}, Score: 0.75,
		Elo: 190.8, EloCI95: [2]float64{-60.2, 441.8}, LOS: 0.93, LLR: 0.41, SPRT: "continue",
		SPRTConfig: &results.SPRTSpec{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05},
		Cases: []results.ABCase{
			{Case: "seed:1", A: []float64{1, 1}, B: []float64{0, 0}, Points: 2},
			{Case: "seed:2", A: []float64{1, 0.5}, B: []float64{0, 0.5}, Points: 1.5},
			{Case: "seed:3", A: []float64{0, 1}, B: []float64{1, 0}, Points: 1},
		},
		History: []results.ABPoint{
			{Games: 2, Score: 1, Elo: math.Inf(1), LLR: 0.1},
			{Games: 4, Score: 0.875, Elo: 338.0, LLR: 0.3},
			{Games: 6, Score: 0.75, Elo: 190.8, LLR: 0.41},
		},
	}
	return s
}

// abSingle is a single-player A/B run with groups.
func abSingle() *results.ABSummary {
	return &results.ABSummary{
		Game: "hextris", A: "hexgreedy", B: "random", CaseSet: "smoke", Run: "ab-single", Games: 6,
		MeanDiff: fp(600), CI95: &[2]float64{100, 1100}, WilcoxonP: fp(0.0312), MeanA: fp(700), MeanB: fp(100),
		BetterA: ip(3), BetterB: ip(0),
		Cases: []results.ABCase{
			{Case: "p0/s0", Group: "p0", A: []float64{1000}, B: []float64{100}, Points: 900},
			{Case: "p0/s1", Group: "p0", A: []float64{800}, B: []float64{150}, Points: 650},
			{Case: "p1/s0", Group: "p1", A: []float64{300}, B: []float64{50}, Points: 250},
		},
		Groups: []results.ABGroups{{Group: "p0", A: 900, B: 125}, {Group: "p1", A: 300, B: 50}},
	}
}

// study is a small study: two numeric parameters (x drives the value), one
// categorical, complete, pruned and failed trials.
func study() *Study {
	s := &Study{Name: "toy", Game: "tunetoy", Strategy: "dial", Cases: "seeds:4", Objective: "mean score per case",
		Params: []string{"x", "k", "mode", "lr"}, Choices: map[string][]string{"mode": {"a", "b", "c"}}, Log: map[string]bool{"lr": true},
		Units: []string{"seed:1", "seed:2", "seed:3", "seed:4"}, DefaultValue: fp(60),
		Improvement: fp(30.5), CI95: &[2]float64{20, 41}, WilcoxonP: fp(0.125)}
	xs := []float64{1, 6.5, 3, 9, 7, 2, 5, 8}
	ks := []float64{0, 5, 2, 7, 4, 1, 3, 6}
	for i := range xs {
		v := 100 - 3*(xs[i]-7)*(xs[i]-7)
		t := Trial{Number: i, State: TrialComplete, Value: v,
			Params: map[string]float64{"x": xs[i], "k": ks[i], "mode": float64(i % 3), "lr": math.Pow(10, -float64(i%4))}}
		for u := 0; u < 4; u++ {
			t.Scores = append(t.Scores, v+float64(u)-1.5)
		}
		t.Intermediate = []Step{{2, v - 1}, {4, v}}
		switch i {
		case 2, 5:
			t.State = TrialPruned
			t.Scores = t.Scores[:2]
			t.Intermediate = t.Intermediate[:1]
			t.Value = t.Intermediate[0].Value
		case 6:
			t.State = "failed"
			t.Scores, t.Intermediate, t.Value = nil, nil, 0
		}
		s.Trials = append(s.Trials, t)
	}
	return s
}
