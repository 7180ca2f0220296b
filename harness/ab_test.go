package harness

import (
	"context"
	"path/filepath"
	"testing"
)

func abRun(t *testing.T, r *Registry, d *duel, a, b string, games int, sp SPRTSpec, st *Store) *ABSummary {
	t.Helper()
	p, err := ABPlan(d, "seeds:500", mustEntrant(t, r, a), mustEntrant(t, r, b), nil, games, "", map[string]any{"sprt": sp})
	if err != nil {
		t.Fatal(err)
	}
	var stop Stopper
	if sp.Early {
		if stop, err = NewSPRTStopper(p, sp); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := (&Runner{Jobs: 3, Store: st}).Run(context.Background(), p, stop)
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeAB(rs, sp)
	if err != nil {
		t.Fatal(err)
	}
	if st != nil {
		if err := st.FinishRun(context.Background(), p.Run.ID, "complete", s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestABStrongerEntrantWinsAndSPRTStopsEarly(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	sp, err := ParseSPRT("0,10")
	if err != nil {
		t.Fatal(err)
	}
	s := abRun(t, r, d, "fixed:skill=6", "fixed", 1000, sp, nil)
	if !s.Stopped || s.SPRT != "H1" || s.Games >= 1000 {
		t.Fatalf("a clearly stronger A should stop early with H1: stopped=%v sprt=%s games=%d llr=%.2f", s.Stopped, s.SPRT, s.Games, s.LLR)
	}
	if s.Score <= 0.5 || s.Elo <= 0 || s.EloCI95[0] > s.Elo || s.EloCI95[1] < s.Elo || s.LOS < 0.99 {
		t.Fatalf("summary inconsistent: score %.3f elo %.1f ci %v los %.3f", s.Score, s.Elo, s.EloCI95, s.LOS)
	}
	if s.Wins+s.Draws+s.Losses != s.Games || s.Games != 2*len(s.Cases) || len(s.History) != len(s.Cases) {
		t.Fatalf("counts: %d+%d+%d vs %d games, %d cases, %d history points", s.Wins, s.Draws, s.Losses, s.Games, len(s.Cases), len(s.History))
	}
	pairs := 0
	for _, n := range s.Pentanomial {
		pairs += n
	}
	if pairs != len(s.Cases) {
		t.Fatalf("pentanomial %v has %d pairs, want %d", s.Pentanomial, pairs, len(s.Cases))
	}

	// Equal entrants: no early stop is forced without --sprt, and the score
	// stays near one half.
	eq := abRun(t, r, d, "fixed", "fixed:skill=5.0", 200, DefaultSPRT, nil)
	if eq.Stopped || eq.Games != 200 || eq.Score < 0.4 || eq.Score > 0.6 {
		t.Fatalf("equal entrants: stopped=%v games=%d score=%.3f", eq.Stopped, eq.Games, eq.Score)
	}
}

func TestABSingleSeatPairsCases(t *testing.T) {
	d := &duel{seats: 1, groupOf: func(i int) string { return string(rune('a' + i%3)) }}
	r := duelRegistry(d)
	s := abRun(t, r, d, "fixed:skill=7", "fixed", 60, DefaultSPRT, nil)
	if s.MeanDiff == nil || s.CI95 == nil || len(s.Cases) != 30 {
		t.Fatalf("single-seat ab: %+v", s)
	}
	// The noise of both entrants is drawn from the same seeds, so the
	// difference is the skill gap plus the noise difference; its interval
	// must hold the true mean 2.
	if s.CI95[0] > 2 || s.CI95[1] < 2 || *s.MeanDiff <= 0 {
		t.Fatalf("mean diff %.3f, CI %v: want 2 inside", *s.MeanDiff, *s.CI95)
	}
}

func TestLoadABSummaryMatchesTheRun(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	st := openTestStore(t, filepath.Join(t.TempDir(), "ab.db"))
	s := abRun(t, r, d, "fixed:skill=5.5", "fixed", 100, DefaultSPRT, st)
	got, err := LoadABSummary(context.Background(), st, r, s.Run)
	if err != nil {
		t.Fatal(err)
	}
	if got.Games != s.Games || got.Wins != s.Wins || got.Pentanomial != s.Pentanomial || got.LLR != s.LLR {
		t.Fatalf("reloaded summary differs: %+v vs %+v", got, s)
	}
	if _, err := LoadEvalSummary(context.Background(), st, r, s.Run); err == nil {
		t.Fatal("loading an ab run as an eval run should fail")
	}
}
