package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A store opened for reading that lacks the league tables holds no league:
// its reads find the stand-ins (standIns), not an error.
func TestLeagueTablesReadAsEmptyWhenMissing(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "g.db")
	st, err := Open(ctx, url) // the runs' tables only
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.League(ctx, "x"); !errors.Is(err, ErrNoLeague) {
		t.Errorf("League: %v, want ErrNoLeague", err)
	}
	if ds, err := ro.Leagues(ctx); err != nil || len(ds) != 0 {
		t.Errorf("Leagues: %v, %v; want none", ds, err)
	}
	if vs, err := ro.LeagueVersions(ctx, "x"); err != nil || len(vs) != 0 {
		t.Errorf("LeagueVersions: %v, %v; want none", vs, err)
	}
	seq, err := ro.LeagueGamesSince(ctx, "x", 0, func(int64, []LeagueGame) error { return errors.New("a game") })
	if err != nil || seq != 0 {
		t.Errorf("LeagueGamesSince: %d, %v; want 0, nil", seq, err)
	}
	if n, f, err := ro.LeagueRefereeErrors(ctx, "x"); n != 0 || f != nil || err != nil {
		t.Errorf("LeagueRefereeErrors: %d, %v, %v; want none", n, f, err)
	}
	if ws, err := ro.LeagueWorkers(ctx, "x"); err != nil || len(ws) != 0 {
		t.Errorf("LeagueWorkers: %v, %v; want none", ws, err)
	}
}

// A league's life in the store on each database: defined once, versions
// added, a block claimed, left by its worker, taken over, finished once,
// and read back.
func TestLeagueStatements(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			ctx := context.Background()
			st, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := st.CreateLeagueTables(ctx); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("l%d", time.Now().UnixNano())
			d, err := st.DefineLeague(ctx, LeagueDef{Name: name, Game: "brew", Cases: "seeds:10", Size: 2})
			if err != nil || d.Created == "" {
				t.Fatalf("DefineLeague: %+v, %v", d, err)
			}
			again, err := st.DefineLeague(ctx, LeagueDef{Name: name, Game: "other"})
			if err != nil || again != d {
				t.Fatalf("DefineLeague again: %+v, %v; want the stored %+v", again, err, d)
			}
			for _, n := range []string{"a", "b"} {
				if _, err := st.AddLeagueVersion(ctx, name, LeagueVersion{Name: n, Key: n, Label: n, Strategy: n}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.AddLeagueVersion(ctx, name, LeagueVersion{Name: "a", Key: "c"}); err == nil {
				t.Fatal("a second active version named a was added")
			}
			plan := func(b LeagueBudget) ([]LeagueUnit, int) {
				if b.Games != 4 || b.Pending != 0 {
					t.Errorf("budget %+v, want 4 games, none pending", b)
				}
				return []LeagueUnit{{Versions: []int{1, 2}}, {Versions: []int{2, 1}}}, 4
			}
			b, ok, err := st.ClaimLeagueBlock(ctx, name, "w1", 4, time.Minute, plan)
			if err != nil || !ok || b.Games != 4 || len(b.Units) != 2 || b.Units[1].N != 1 || b.Resumed {
				t.Fatalf("ClaimLeagueBlock: %+v, %v, %v", b, ok, err)
			}
			if err := st.ReleaseLeagueBlocks(ctx, name, "w1"); err != nil {
				t.Fatal(err)
			}
			taken, ok, err := st.ClaimLeagueBlock(ctx, name, "w2", 4, time.Minute, nil)
			if err != nil || !ok || !taken.Resumed || taken.ID != b.ID || !slices.Equal(taken.Units[1].Versions, []int{2, 1}) {
				t.Fatalf("the released block was not taken over: %+v, %v, %v", taken, ok, err)
			}
			ws, err := st.LeagueWorkers(ctx, name)
			if err != nil || len(ws) != 1 || ws[0].Owner != "w2" || ws[0].InHand != 1 || ws[0].Games != 4 || ws[0].LeaseMS <= 0 {
				t.Fatalf("LeagueWorkers: %+v, %v", ws, err)
			}
			games := []LeagueGame{
				{Block: b.ID, Index: 0, Unit: 0, Case: "1", Versions: []int{1, 2}, Seats: []LeagueSeat{{Score: 3, Rank: 0}, {Score: 1, Rank: 1}}, Wall: 2},
				{Block: b.ID, Index: 1, Unit: 0, Case: "1", Versions: []int{2, 1}, Seats: []LeagueSeat{{Rank: 1, Forfeit: "timeout"}, {Rank: 0}},
					PlayerData: []map[string]any{{"x": 1.0}, nil}},
			}
			failed := []LeagueRefereeFailure{{Index: 2, Unit: 1, Case: "2", Versions: []int{2, 1}, Reason: "crash", Stderr: "boom"}}
			if stored, err := st.FinishLeagueBlock(ctx, name, b.ID, "w2", games, failed); err != nil || !stored {
				t.Fatalf("FinishLeagueBlock: %v, %v", stored, err)
			}
			if stored, err := st.FinishLeagueBlock(ctx, name, b.ID, "w1", games, nil); err != nil || stored {
				t.Fatalf("FinishLeagueBlock of a finished block: %v, %v; want not stored", stored, err)
			}
			var got []LeagueGame
			seq, err := st.LeagueGamesSince(ctx, name, 0, func(blk int64, gs []LeagueGame) error {
				if blk != b.ID {
					t.Errorf("block %d, want %d", blk, b.ID)
				}
				got = append(got, gs...)
				return nil
			})
			if err != nil || seq != 1 || fmt.Sprint(got) != fmt.Sprint(games) {
				t.Fatalf("LeagueGamesSince: %d, %v,\n%+v\nwant 1 and\n%+v", seq, err, got, games)
			}
			n, f, err := st.LeagueRefereeErrors(ctx, name)
			if err != nil || n != 1 || f.Reason != "crash" || f.Worker != "w2" || !slices.Equal(f.Versions, []int{2, 1}) {
				t.Fatalf("LeagueRefereeErrors: %d, %+v, %v", n, f, err)
			}
			if d, err := st.League(ctx, name); err != nil || d.Games != 2 {
				t.Fatalf("League: %+v, %v; want 2 games", d, err)
			}
			if pending, err := st.LeaguePending(ctx, name); err != nil || pending {
				t.Fatalf("LeaguePending: %v, %v", pending, err)
			}
		})
	}
}
