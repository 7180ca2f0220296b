package harness

import (
	"math"
	"strings"
	"testing"
)

// otherGame is the duel under another name.
type otherGame struct{ *duel }

func (g otherGame) Info() GameInfo {
	i := g.duel.Info()
	i.Name = "other"
	return i
}

// comparedRun builds the results of a three-seat run whose first entrant
// sits in seat 0 of every game: scores[key] are the seats' scores.
func comparedRun(t *testing.T, g Game, id string, scores map[string][]float64, keys ...string) *Results {
	t.Helper()
	r := duelRegistry(&duel{seats: 3})
	p := &Plan{Run: RunRecord{ID: id, Kind: "eval"}, Game: g,
		Entrants: []*Entrant{mustEntrant(t, r, "fixed:skill=7"), mustEntrant(t, r, "fixed"), mustEntrant(t, r, "fixed")}}
	rs := &Results{Plan: p}
	for i, k := range keys {
		p.Matches = append(p.Matches, Match{Key: k, Case: Case{ID: k}, Seats: []int{0, 1, 2}})
		s, ok := scores[k]
		if !ok {
			rs.Results = append(rs.Results, nil)
			continue
		}
		o := Outcome{Turns: 10}
		for _, x := range s {
			o.Seats = append(o.Seats, SeatResult{Score: x})
		}
		RanksByScore(o.Seats)
		rs.Results = append(rs.Results, &Result{Index: i, Outcome: o})
	}
	return rs
}

func TestCompare(t *testing.T) {
	d := &duel{seats: 3}
	base := comparedRun(t, d, "base", map[string][]float64{
		"k1": {5, 9, 1}, // rank 2: half the others beaten, margin −4
		"k2": {3, 3, 8}, // rank 2 shared with seat 1: a quarter, margin −5
		"k3": {7, 1, 2}, // first: all beaten, margin +5
		"k4": {1, 2, 3}, // no partner
	}, "k1", "k2", "k3", "k4", "k5")
	run := comparedRun(t, d, "run", map[string][]float64{
		"k1": {9, 5, 1}, // first: better, margin +4
		"k2": {3, 3, 8}, // identical
		"k3": {1, 7, 2}, // last: worse, margin −6
		"k5": {1, 2, 3}, // no partner
	}, "k1", "k2", "k3", "k4", "k5")
	c, err := Compare(base, run)
	if err != nil {
		t.Fatal(err)
	}
	if c.Common != 3 || c.OnlyBase != 1 || c.OnlyRun != 1 || c.Identical != 1 || c.Better != 1 || c.Worse != 1 || c.Seats != 3 {
		t.Errorf("common %d only %d/%d identical %d better %d worse %d seats %d; want 3 1/1 1 1 1 3",
			c.Common, c.OnlyBase, c.OnlyRun, c.Identical, c.Better, c.Worse, c.Seats)
	}
	if c.SignP != 1 {
		t.Errorf("sign test p %v for one game each way, want 1", c.SignP)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("base points", c.Base.Points, (0.5+0.25+1)/3)
	near("run points", c.Run.Points, (1+0.25+0)/3)
	near("base mean rank", c.Base.MeanRank, (2+2+1)/3.0)
	near("margin difference", c.Margin.Value, (8+0-11)/3.0)
	if c.Base.Firsts != 1 || c.Run.Firsts != 1 {
		t.Errorf("firsts %d → %d, want 1 → 1", c.Base.Firsts, c.Run.Firsts)
	}
	if c.WilcoxonP == nil {
		t.Error("no Wilcoxon p-value with two games changed")
	}
	var changes []int
	for _, g := range c.Games {
		changes = append(changes, g.Change)
	}
	if len(changes) != 3 || changes[0] != 1 || changes[1] != 0 || changes[2] != -1 || !c.Games[1].Identical {
		t.Errorf("changes %v (k2 identical %v), want [1 0 -1] and k2 identical", changes, c.Games[1].Identical)
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "no partner") {
		t.Errorf("notes %q do not tell of the games without a partner", c.Notes)
	}

	// The same run twice: nothing changed, no test to run.
	c, err = Compare(base, base)
	if err != nil {
		t.Fatal(err)
	}
	if c.Identical != c.Common || c.Better+c.Worse != 0 || c.WilcoxonP != nil || c.Margin.Value != 0 {
		t.Errorf("a run against itself: identical %d of %d, changed %d, Wilcoxon %v, margin %v",
			c.Identical, c.Common, c.Better+c.Worse, c.WilcoxonP, c.Margin.Value)
	}
}

func TestCompareRefusesOtherGamesAndNoCommonGame(t *testing.T) {
	d := &duel{seats: 3}
	a := comparedRun(t, d, "a", map[string][]float64{"k1": {1, 2, 3}}, "k1")
	b := comparedRun(t, otherGame{d}, "b", map[string][]float64{"k1": {1, 2, 3}}, "k1")
	if _, err := Compare(a, b); err == nil || !strings.Contains(err.Error(), "duel run") || !strings.Contains(err.Error(), "other run") {
		t.Errorf("runs of two games: %v", err)
	}
	c := comparedRun(t, d, "c", map[string][]float64{"k2": {1, 2, 3}}, "k2")
	if _, err := Compare(a, c); err == nil || !strings.Contains(err.Error(), `"k1"`) || !strings.Contains(err.Error(), `"k2"`) {
		t.Errorf("runs with no common game: %v", err)
	}
}
