package results

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/harness/stats"
	"gauntlet/harness/store"
)

func abRun(t *testing.T, r *contract.Registry, d *harnesstest.Duel, a, b string, games int, sp SPRTSpec, st *store.Store) *ABSummary {
	t.Helper()
	p, err := runner.ABPlan(d, "seeds:500", mustEntrant(t, r, a), mustEntrant(t, r, b), nil, games, "", map[string]any{"sprt": sp})
	if err != nil {
		t.Fatal(err)
	}
	var stop runner.Stopper
	if sp.Early {
		if stop, err = NewSPRTStopper(p, sp); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := (&runner.Runner{Jobs: 3, Store: st}).Run(context.Background(), p, stop)
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
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
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
	d := &harnesstest.Duel{Seats: 1, GroupOf: func(i int) string { return string(rune('a' + i%3)) }}
	r := harnesstest.DuelRegistry(d)
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
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "ab.db"))
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

func TestParseSPRTModels(t *testing.T) {
	for _, c := range []struct {
		in    string
		model stats.EloModel
		e0    float64
		e1    float64
	}{
		{"0,10", stats.Normalized, 0, 10},
		{"nelo:0,5", stats.Normalized, 0, 5},
		{"normalized:-1,2,0.1,0.1", stats.Normalized, -1, 2},
		{"logistic:0,10", stats.Logistic, 0, 10},
	} {
		sp, err := ParseSPRT(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if sp.EloModel() != c.model || sp.Elo0 != c.e0 || sp.Elo1 != c.e1 || !sp.Early {
			t.Errorf("%s: got %+v", c.in, sp)
		}
	}
	for _, bad := range []string{"elo:0,10", "0", "10,0", "0,10,0.6,0.05", "logistic:"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// Runs stored before the model existed read as logistic.
	if (SPRTSpec{Elo0: 0, Elo1: 10}).EloModel() != stats.Logistic {
		t.Error("empty model is not logistic")
	}
	// The point of the normalized default: 100 won pairs decide H1, which
	// logistic bounds at [0, 10] cannot.
	counts := []int{0, 0, 0, 0, 100}
	for _, c := range []struct {
		model stats.EloModel
		h1    bool
	}{{stats.Normalized, true}, {stats.Logistic, false}} {
		llr, err := stats.LLR(c.model, 0, 10, counts)
		if err != nil {
			t.Fatal(err)
		}
		if got := llr > 2.944; got != c.h1 {
			t.Errorf("%v: LLR %.3f for 100 won pairs", c.model, llr)
		}
	}
}

func TestParseSPRTRefusesUntestableBounds(t *testing.T) {
	for in, want := range map[string]string{
		"0,240":           "nElo 240 cannot be tested on game pairs",
		"-250,0":          "nElo -250 cannot be tested",
		"NaN,10":          "elo0 NaN is not a finite number",
		"0,Inf":           "elo1 +Inf is not a finite number",
		"logistic:0,1300": "must lie in",
		"10,0":            "elo1 must be greater than elo0",
	} {
		_, err := ParseSPRT(in)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "sprt: sprt:") {
			t.Errorf("ParseSPRT(%q) = %v, want an error containing %q", in, err, want)
		}
	}
	for _, ok := range []string{"0,10", "0,230", "logistic:0,400", "-5,5,0.05,0.1"} {
		if _, err := ParseSPRT(ok); err != nil {
			t.Errorf("ParseSPRT(%q): %v", ok, err)
		}
	}
}

// TestSPRTFailureIsAnError: a test whose likelihood ratio cannot be
// computed fails the summary; it never reports a silent 0 or stops early.
func TestSPRTFailureIsAnError(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	g, a, b := mustGame(t, r, "duel"), mustEntrant(t, r, "fixed:skill=9"), mustEntrant(t, r, "fixed:skill=1")
	plan, err := runner.ABPlan(g, "seeds:20", a, b, nil, 0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Bounds past what the pair model computes, as a stored run from before
	// the parse check could hold them.
	sp := SPRTSpec{Elo0: 0, Elo1: 240, Alpha: 0.05, Beta: 0.05, Model: "normalized", Early: true}
	if _, err := NewSPRTStopper(plan, sp); err == nil || !strings.Contains(err.Error(), "cannot be tested") {
		t.Fatalf("stopper of untestable bounds: %v", err)
	}
}

// TestABHistoryIsThinnedWithoutEarlyStop: a long run without an early stop
// evaluates its test about historyPoints times, and its final status is
// that of all its pairs, as if it had been evaluated after every pair.
func TestABHistoryIsThinnedWithoutEarlyStop(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	const pairs = 3*historyPoints + 7
	p, err := runner.ABPlan(d, fmt.Sprintf("seeds:%d", pairs), mustEntrant(t, r, "fixed:skill=5.5"), mustEntrant(t, r, "fixed"), nil, 0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := &runner.Results{Plan: p, Results: make([]*runner.Result, len(p.Matches))}
	for i := range p.Matches {
		// A wins two games in three of its seat, whichever seat it is in.
		a := 0.0
		if (i/2)%3 != 0 {
			a = 1
		}
		seats := []contract.SeatResult{{Score: a}, {Score: 1 - a}}
		if runner.SeatOf(&p.Matches[i], 0) == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		contract.RanksByScore(seats)
		rs.Results[i] = &runner.Result{Index: i, Outcome: contract.Outcome{Seats: seats}}
	}
	s, err := SummarizeAB(rs, DefaultSPRT)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != pairs || s.Games != 2*pairs {
		t.Fatalf("%d cases, %d games; want %d pairs", len(s.Cases), s.Games, pairs)
	}
	if n := len(s.History); n < historyPoints/2 || n > historyPoints+1 {
		t.Fatalf("%d history points, want %d to %d", n, historyPoints/2, historyPoints+1)
	}
	for i := 1; i < len(s.History); i++ {
		if s.History[i].Games <= s.History[i-1].Games {
			t.Fatalf("history not in order at %d: %v then %v", i, s.History[i-1], s.History[i])
		}
	}
	test, err := stats.NewSPRT(DefaultSPRT.Elo0, DefaultSPRT.Elo1, DefaultSPRT.Alpha, DefaultSPRT.Beta, DefaultSPRT.EloModel())
	if err != nil {
		t.Fatal(err)
	}
	want, err := test.Status(s.Pentanomial)
	if err != nil {
		t.Fatal(err)
	}
	last := s.History[len(s.History)-1]
	if s.LLR != want.LLR || s.SPRT != string(want.Verdict) || last.Games != 2*pairs || last.LLR != want.LLR {
		t.Fatalf("final test: LLR %v %s, last point %+v; want LLR %v %s after %d games", s.LLR, s.SPRT, last, want.LLR, want.Verdict, 2*pairs)
	}
}
