package league_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	_ "gauntlet/games" // registers the games
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
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
	// In name order, so that version IDs are the same every run.
	for _, name := range slices.Sorted(maps.Keys(specs)) {
		e, err := entrant.Parse(contract.Default, d.Game, specs[name])
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

// testAddMidRun runs two workers on one league of url; while they play,
// a third, stronger version is added; both workers play it, and the
// ladder places it first.
func testAddMidRun(t *testing.T, url, name string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := league.OpenStore(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := league.Def{Name: name, Game: "brew", Cases: "seeds:1000", Size: 2}
	addAll(t, st, d, map[string]string{"greedy": "greedy", "random": "random"})
	errs := make(chan error, 2)
	for _, w := range []string{"w1", "w2"} {
		go func() {
			wst, err := league.OpenStore(ctx, url)
			if err != nil {
				errs <- err
				return
			}
			defer wst.Close()
			_, err = league.Run(ctx, wst, league.Config{League: name, Jobs: 1, Worker: w, Poll: 50 * time.Millisecond})
			errs <- err
		}()
	}
	waitFor := func(what string, ok func() bool) {
		deadline := time.Now().Add(time.Minute)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waited a minute for %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	games := func(q string, args ...any) int {
		var n int
		if err := st.DB().QueryRowContext(context.Background(), st.Rebind(q), args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitFor("100 games", func() bool { return games(`SELECT COUNT(*) FROM league_games WHERE league = ?`, name) >= 100 })
	addAll(t, st, d, map[string]string{"beam": brewPool["beam"]})
	// The new version's games, by each worker.
	newGames := func(w string) int {
		return games(`SELECT COUNT(*) FROM league_games WHERE league = ? AND worker = ? AND versions LIKE '%3%'`, name, w)
	}
	waitFor("both workers to play the new version", func() bool { return newGames("w1") >= 10 && newGames("w2") >= 10 })
	waitFor("the new version's first games", func() bool {
		return games(`SELECT COUNT(*) FROM league_games WHERE league = ? AND versions LIKE '%3%'`, name) >= 60
	})
	cancel()
	for range 2 {
		if err := <-errs; err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	}
	b, err := league.Load(context.Background(), st, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := ladder(b)
	if len(got) != 3 || got[0] != "beam" || got[1] != "greedy" {
		t.Fatalf("ladder %v: want the added beam first, then greedy", got)
	}
	// Nothing stored twice, no unit half stored.
	if n := games(`SELECT COUNT(*) FROM (SELECT unit FROM league_games WHERE league = ? GROUP BY unit HAVING COUNT(*) <> 2) x`, name); n != 0 {
		t.Fatalf("%d units without exactly their two games", n)
	}
	t.Logf("ladder %v after %d games", got, b.Games)
}

func TestAddVersionMidRunTwoWorkers(t *testing.T) {
	_, url := openStore(t)
	testAddMidRun(t, url, "mid")
}

// TestAddVersionMidRunTwoWorkersPostgres is the same on PostgreSQL
// (GAUNTLET_TEST_POSTGRES names the server; CI sets it).
func TestAddVersionMidRunTwoWorkersPostgres(t *testing.T) {
	url := os.Getenv("GAUNTLET_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GAUNTLET_TEST_POSTGRES is not set: CI must start PostgreSQL")
		}
		t.Skip("GAUNTLET_TEST_POSTGRES not set (CI sets it); skipping the PostgreSQL test")
	}
	testAddMidRun(t, url, fmt.Sprintf("mid-%d", time.Now().UnixNano()))
}
