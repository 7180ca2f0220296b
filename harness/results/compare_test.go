package results

import (
	"math"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/store"
)

// storedRun is a stored three-seat run of game whose first entrant sits in
// seat 0 of every game: scores[key] are the seats' scores.
func storedRun(id, game string, scores map[string][]float64) *StoredRun {
	r := &StoredRun{Run: &store.RunRecord{ID: id, Kind: "eval", Game: game, Status: "complete",
		Entrants: []store.EntrantRecord{{Label: "fixed:skill=7"}, {Label: "fixed"}, {Label: "fixed"}}},
		Games: map[string]store.GameRecord{}}
	for k, s := range scores {
		g := store.GameRecord{Key: k, CaseID: k, Seats: []int{0, 1, 2}, Outcome: contract.Outcome{Turns: 10}}
		for _, x := range s {
			g.Outcome.Seats = append(g.Outcome.Seats, contract.SeatResult{Score: x})
		}
		contract.RanksByScore(g.Outcome.Seats)
		r.Games[k] = g
	}
	return r
}

func TestCompare(t *testing.T) {
	reg := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 3})
	base := storedRun("base", "duel", map[string][]float64{
		"k1": {5, 9, 1}, // rank 2: half the others beaten, margin −4
		"k2": {3, 3, 8}, // rank 2 shared with seat 1: a quarter, margin −5
		"k3": {7, 1, 2}, // first: all beaten, margin +5
		"k4": {1, 2, 3}, // no partner
	})
	run := storedRun("run", "duel", map[string][]float64{
		"k1": {9, 5, 1}, // first: better, margin +4
		"k2": {3, 3, 8}, // identical
		"k3": {1, 7, 2}, // last: worse, margin −6
		"k5": {1, 2, 3}, // no partner
	})
	c, err := Compare(reg, base, run)
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
	c, err = Compare(reg, base, base)
	if err != nil {
		t.Fatal(err)
	}
	if c.Identical != c.Common || c.Better+c.Worse != 0 || c.WilcoxonP != nil || c.Margin.Value != 0 {
		t.Errorf("a run against itself: identical %d of %d, changed %d, Wilcoxon %v, margin %v",
			c.Identical, c.Common, c.Better+c.Worse, c.WilcoxonP, c.Margin.Value)
	}
}

func TestCompareRefusesOtherGamesAndNoCommonGame(t *testing.T) {
	reg := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 3})
	a := storedRun("a", "duel", map[string][]float64{"k1": {1, 2, 3}})
	b := storedRun("b", "other", map[string][]float64{"k1": {1, 2, 3}})
	if _, err := Compare(reg, a, b); err == nil || !strings.Contains(err.Error(), "duel run") || !strings.Contains(err.Error(), "other run") {
		t.Errorf("runs of two games: %v", err)
	}
	if _, err := Compare(reg, b, b); err == nil || !strings.Contains(err.Error(), "run b") {
		t.Errorf("runs of an unknown game: %v", err)
	}
	c := storedRun("c", "duel", map[string][]float64{"k2": {1, 2, 3}})
	if _, err := Compare(reg, a, c); err == nil || !strings.Contains(err.Error(), `"k1"`) || !strings.Contains(err.Error(), `"k2"`) {
		t.Errorf("runs with no common game: %v", err)
	}
}

// TestCompareCountsEliminations: in a game with eliminations each side
// counts the first entrant's, read from the stored detail, and each game
// keeps its cause; a game without them counts none.
func TestCompareCountsEliminations(t *testing.T) {
	withOut := func(r *StoredRun, out map[string][]any) *StoredRun {
		for k, o := range out {
			g := r.Games[k]
			g.Outcome.Detail = map[string]any{"out": o} // as decoded from the store
			r.Games[k] = g
		}
		return r
	}
	base := withOut(storedRun("base", "faulty", map[string][]float64{"k1": {1, 2, 3}, "k2": {3, 2, 1}}),
		map[string][]any{"k1": {"hit the wall in round 1", "", ""}, "k2": {"", "hit the wall in round 2", ""}})
	run := storedRun("run", "faulty", map[string][]float64{"k1": {3, 2, 1}, "k2": {3, 2, 1}})
	c, err := Compare(faultyRegistry(), base, run)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Eliminations || c.Base.Eliminated != 1 || c.Run.Eliminated != 0 || c.Games[0].Base.Eliminated != "hit the wall in round 1" ||
		c.Games[1].Base.Eliminated != "" {
		t.Errorf("eliminations %v, %d → %d, games %+v", c.Eliminations, c.Base.Eliminated, c.Run.Eliminated, c.Games)
	}
	c, err = Compare(harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 3}), storedRun("a", "duel", map[string][]float64{"k": {1, 2, 3}}),
		storedRun("b", "duel", map[string][]float64{"k": {1, 2, 3}}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Eliminations || c.Base.Eliminated != 0 {
		t.Errorf("a game without eliminations: %v, %d", c.Eliminations, c.Base.Eliminated)
	}
}
