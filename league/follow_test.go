package league_test

import (
	"context"
	"math"
	"testing"

	"gauntlet/league"
)

// TestFollowerMatchesLoad: a follower that reads a league while its games
// are stored, a block at a time, ends with the board Load builds from all
// of them: the same ratings, rows and pairs, and a history that keeps
// growing without passing 2·20 moments.
func TestFollowerMatchesLoad(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	f := league.NewFollower(st, "grow", nil)
	last := 0
	for range 6 {
		fillLeagueMore(t, st, "grow", 5, 1000)
		b, err := f.Board(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b.Games <= last {
			t.Fatalf("the follower's board holds %d games, %d before", b.Games, last)
		}
		last = b.Games
		if n := len(b.History); n == 0 || n > 41 || b.History[n-1].Games != b.Games {
			t.Fatalf("history of %d moments, the last at %d games of %d", n, b.History[max(n-1, 0)].Games, b.Games)
		}
	}
	got, err := f.Board(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := league.Load(ctx, st, "grow", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Games != want.Games || len(got.Rows) != len(want.Rows) || len(got.Pairs) != len(want.Pairs) {
		t.Fatalf("follower: %d games %d rows %d pairs; Load: %d, %d, %d", got.Games, len(got.Rows), len(got.Pairs), want.Games, len(want.Rows), len(want.Pairs))
	}
	for k, r := range want.Rows {
		g := got.Rows[k]
		if g.Version != r.Version || g.Games != r.Games || math.Abs(*g.Rating-*r.Rating) > 1e-6 || math.Abs(*g.Hi-*r.Hi) > 1e-6 {
			t.Errorf("row %d: follower %s %v games %d; Load %s %v games %d", k, g.Version, *g.Rating, g.Games, r.Version, *r.Rating, r.Games)
		}
	}
	for k, p := range want.Pairs {
		if got.Pairs[k].Wins != p.Wins || got.Pairs[k].Draws != p.Draws || got.Pairs[k].Losses != p.Losses {
			t.Errorf("pair %s-%s: follower %+v, Load %+v", p.A, p.B, got.Pairs[k], p)
		}
	}
}
