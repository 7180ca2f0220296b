package games

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// TestHangingBotForfeitsAtTheGameCap: a brew bot that reads its input and
// never answers, in a run without time limits, forfeits when its game's
// wall-clock cap passes; the forfeit is stored, so that the same run again
// plays nothing (and hangs on nothing).
func TestHangingBotForfeitsAtTheGameCap(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hang.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nwhile read -r l; do :; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g, err := contract.Default.Game("brew")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.EvalPlan(g, "seeds:1", mustEntrant(t, "brew", "cmd:"+script), []*entrant.Entrant{mustEntrant(t, "brew", "greedy")}, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opt := contract.PlayOptions{NoTimeLimit: true, GameTimeout: 300 * time.Millisecond}
	begin := time.Now()
	rs, err := (&runner.Runner{Store: st, Jobs: 1, Options: opt}).Run(ctx, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > time.Minute {
		t.Fatalf("the run took %v", d)
	}
	if rs.Played != len(plan.Matches) || rs.Played == 0 {
		t.Fatalf("played %d of %d games", rs.Played, len(plan.Matches))
	}
	for _, r := range rs.Results {
		seat := runner.SeatOf(&plan.Matches[r.Index], 0)
		if f := r.Outcome.Seats[seat].Forfeit; !strings.Contains(f, "game wall-clock cap 300ms exceeded") {
			t.Errorf("game %d: forfeit %q, want the game cap", r.Index, f)
		}
	}
	again, err := (&runner.Runner{Store: st, Jobs: 1, Options: opt}).Run(ctx, plan, nil)
	if err != nil || again.Played != 0 || again.Resumed != len(plan.Matches) {
		t.Fatalf("the same run again: played %d, resumed %d, %v; want every game resumed", again.Played, again.Resumed, err)
	}
}
