package results

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// A follower's summary, after each Update, is the summary of the games
// stored then, whatever order they arrive in; it reads each game once,
// and reads the run again when the store holds fewer games than it read.
func TestFollowerFollowsTheStoredGames(t *testing.T) {
	ctx := context.Background()
	d := &harnesstest.Duel{Seats: 2}
	reg := harnesstest.DuelRegistry(d)
	sp := DefaultSPRT
	sp.Early = false
	p, err := runner.ABPlan(d, "seeds:30", mustEntrant(t, reg, "fixed:skill=5.5"), mustEntrant(t, reg, "fixed"), nil, 0, "", map[string]any{"sprt": sp})
	if err != nil {
		t.Fatal(err)
	}
	played := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "played.db"))
	rs, err := (&runner.Runner{Jobs: 2, Store: played}).Run(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, err := played.Games(ctx, p.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	byIndex := make([]store.GameRecord, len(p.Matches))
	for _, g := range all {
		byIndex[g.Index] = g
	}

	// The run as another store sees it while its games arrive.
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "watched.db"))
	if err := st.OpenRun(ctx, &p.Run); err != nil {
		t.Fatal(err)
	}
	f, err := Follow(ctx, st, reg, p.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[int]bool{}
	// want is the summary of the stored games, from the runner's results.
	want := func() string {
		t.Helper()
		part := &runner.Results{Plan: p, Results: make([]*runner.Result, len(p.Matches))}
		for i := range stored {
			part.Results[i] = rs.Results[i]
		}
		s, err := SummarizeAB(part, sp)
		if err != nil {
			t.Fatal(err)
		}
		s.CountStored(len(stored))
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return string(js)
	}
	check := func(step string) {
		t.Helper()
		if err := f.Update(ctx); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		s, err := f.ABSummary()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := string(js), want(); got != w {
			t.Errorf("%s: the follower's summary\n got %s\nwant %s", step, got, w)
		}
		if got, err := LoadABSummary(ctx, st, reg, p.Run.ID); err != nil || got.Games != s.Games || got.Pentanomial != s.Pentanomial {
			t.Errorf("%s: LoadABSummary %+v, %v; the follower's %d games %v", step, got, err, s.Games, s.Pentanomial)
		}
	}
	save := func(idx ...int) {
		t.Helper()
		games := make([]store.GameRecord, len(idx))
		for k, i := range idx {
			games[k] = byIndex[i]
			stored[i] = true
		}
		if err := st.SaveGames(ctx, p.Run.ID, games); err != nil {
			t.Fatal(err)
		}
	}

	check("no game stored")
	save(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	check("the first 10 games")
	save(33, 20, 12)
	check("3 more, out of order")
	check("nothing new")
	rest := []int{}
	for i := len(p.Matches) - 1; i >= 0; i-- {
		if !stored[i] {
			rest = append(rest, i)
		}
	}
	save(rest...)
	check("the rest, last first")

	// A game read is not read again: its row changed behind the follower
	// leaves the follower's summary as it was.
	before, err := f.ABSummary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().Exec(`UPDATE games SET seat_results = '[]' WHERE run_id = ?`, p.Run.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(ctx); err != nil {
		t.Fatal(err)
	}
	if after, err := f.ABSummary(); err != nil || after.Pentanomial != before.Pentanomial || after.Games != before.Games {
		t.Fatalf("after an update with no new game: %+v, %v; before %+v", after, err, before)
	}
	if _, err := st.DB().Exec(`DELETE FROM games WHERE run_id = ?`, p.Run.ID); err != nil {
		t.Fatal(err)
	}
	clear(stored)
	save(5, 4, 3)
	check("the run's games removed and three stored again")
	if !slices.Equal(func() []bool {
		var got []bool
		for _, r := range f.Results().Results[:6] {
			got = append(got, r != nil)
		}
		return got
	}(), []bool{false, false, false, true, true, true}) {
		t.Error("the results after the removal are not the three games stored again")
	}

	if err := st.FinishRun(ctx, p.Run.ID, "stopped", nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(ctx); err != nil {
		t.Fatal(err)
	}
	if !f.Results().Stopped || f.Record().Status != "stopped" {
		t.Errorf("a stopped run: Stopped %v, status %q", f.Results().Stopped, f.Record().Status)
	}
}
