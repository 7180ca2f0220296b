package league_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"gauntlet/league"
	"gauntlet/reports"
)

// TestSixPlayerPaperioLeague: a Paper.io league of six seats a game orders
// a strong, a medium and a weak strategy (paperpaths, simple, random) by
// Plackett–Luce over placements, each neighbour told apart with a
// likelihood of superiority of at least 0.95.
func TestSixPlayerPaperioLeague(t *testing.T) {
	if testing.Short() {
		t.Skip("a six-player Paper.io league: long")
	}
	st, _ := openStore(t)
	ctx := context.Background()
	d := league.Def{Name: "paper", Game: "paperio", Cases: "seeds:1000", Size: 6}
	addAll(t, st, d, map[string]string{"strong": "paperpaths", "medium": "simple", "weak": "random"})
	begin := time.Now()
	out, err := league.Run(ctx, st, league.Config{League: "paper", Jobs: 2, Target: league.Target{Separate: 0.95, GamesPerVersion: 600}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := league.Load(ctx, st, "paper", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games in %v, stopped: %s", b.Games, time.Since(begin).Round(time.Second), out.Reason)
	for _, r := range b.Rows {
		t.Logf("  %-6s %7.1f [%7.1f, %7.1f] LOS next %.3f games %d firsts %d mean place %.2f", r.Version, *r.Rating, *r.Lo, *r.Hi, deref(r.LOSNext), r.Games, r.Firsts, *r.MeanRank)
	}
	if b.Model != "Plackett–Luce" {
		t.Errorf("model %s", b.Model)
	}
	got := ladder(b)
	if len(got) != 3 || got[0] != "strong" || got[1] != "medium" || got[2] != "weak" {
		t.Fatalf("ladder %v, want strong, medium, weak", got)
	}
	for _, r := range b.Rows[:2] {
		if r.LOSNext == nil || *r.LOSNext < 0.95 {
			t.Errorf("%s: LOS over the next %v, want at least 0.95", r.Version, r.LOSNext)
		}
	}
	if out.Reason != league.StopSeparate {
		t.Errorf("stopped because %q, want %q", out.Reason, league.StopSeparate)
	}
}

// deref is *p, NaN for nil.
func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// TestPaperioLeagueEliminations: a league of a game that says why a player
// was out (Paper.io) counts each version's eliminations by cause, from the
// store, and its table has the column; the random walker dies.
func TestPaperioLeagueEliminations(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	d := league.Def{Name: "deaths", Game: "paperio", Cases: "seeds:100", Size: 2}
	addAll(t, st, d, map[string]string{"careful": "simple", "walker": "random"})
	if _, err := league.Run(ctx, st, league.Config{League: "deaths", Jobs: 2, Target: league.Target{GamesPerVersion: 8}}); err != nil {
		t.Fatal(err)
	}
	b, err := league.Load(ctx, st, "deaths", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Eliminations {
		t.Fatal("the board of a Paper.io league does not count eliminations")
	}
	for _, r := range b.Rows {
		sum := 0
		for _, k := range r.EliminationKinds {
			sum += k.Count
			if k.Kind == "" || k.First == "" || k.Count < 1 {
				t.Errorf("%s: kind %+v", r.Version, k)
			}
		}
		t.Logf("%s: %d games, %d eliminated: %+v", r.Version, r.Games, r.Eliminated, r.EliminationKinds)
		if sum != r.Eliminated || r.Eliminated > r.Games {
			t.Errorf("%s: %d eliminated in %d games, kinds sum to %d", r.Version, r.Eliminated, r.Games, sum)
		}
		if r.Version == "walker" && r.Eliminated == 0 {
			t.Errorf("the random walker was never eliminated in %d games", r.Games)
		}
	}
	tb := reports.LeagueTable(b)
	if !slices.Contains(tb.Header, "eliminated") {
		t.Errorf("league table header %q has no eliminated column", tb.Header)
	}
}
