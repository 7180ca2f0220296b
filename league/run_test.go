package league_test

import (
	"context"
	"path/filepath"
	"testing"

	"gauntlet/harness"
	_ "gauntlet/harness/games" // registers the games
	"gauntlet/league"
)

func openStore(t *testing.T) (*league.Store, string) {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "l.db")
	st, err := league.OpenStore(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, url
}

func addAll(t *testing.T, st *league.Store, d league.Def, specs map[string]string) {
	t.Helper()
	for name, spec := range specs {
		e, err := harness.Default.ParseEntrant(d.Game, spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := league.Add(context.Background(), st, d, name, e); err != nil {
			t.Fatal(err)
		}
	}
}

// brewPool are three brew strategies of known order: a small beam search
// beats greedy, which beats random.
var brewPool = map[string]string{
	"beam":   "brewbeam:width=30,depth=6,nodes=3000",
	"greedy": "greedy",
	"random": "random",
}

// ladder is the board's versions in rank order.
func ladder(b *league.Board) []string {
	var out []string
	for _, r := range b.Rows {
		if r.Rating != nil {
			out = append(out, r.Version)
		}
	}
	return out
}

// TestLeagueOrdersThreeStrategies: a brew league of three strategies of
// known different strength ranks them in that order, with every pair
// played the same number of times both ways round.
func TestLeagueOrdersThreeStrategies(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	d := league.Def{Name: "three", Game: "brew", Cases: "seeds:1000", Size: 2}
	addAll(t, st, d, brewPool)
	out, err := league.Run(ctx, st, league.Config{League: "three", Jobs: 2, Target: league.Target{GamesPerVersion: 80}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Reason != league.StopGames {
		t.Errorf("stopped because %q", out.Reason)
	}
	b, err := league.Load(ctx, st, "three", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := ladder(b)
	if len(got) != 3 || got[0] != "beam" || got[1] != "greedy" || got[2] != "random" {
		t.Fatalf("ladder %v, want beam, greedy, random", got)
	}
	for _, r := range b.Rows {
		if r.Games < 80 {
			t.Errorf("%s played %d games, want at least 80", r.Version, r.Games)
		}
	}
	if b.Games != out.Played || b.Games%2 != 0 {
		t.Errorf("board holds %d games, the run played %d (want equal and even: each seed both ways)", b.Games, out.Played)
	}
	t.Logf("ladder after %d games: %v", b.Games, got)
	for _, r := range b.Rows {
		t.Logf("  %-7s %7.1f [%7.1f, %7.1f] games %d score %.3f", r.Version, *r.Rating, *r.Lo, *r.Hi, r.Games, *r.Score)
	}
}
