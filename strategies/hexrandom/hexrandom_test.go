package hexrandom

import (
	"context"
	"testing"

	"gauntlet/referees/hextris"
)

// TestRandomPlaysLegallyToTheEnd plays every official problem's first seed:
// the text must replay without error and end the game.
func TestRandomPlaysLegallyToTheEnd(t *testing.T) {
	ps, err := hextris.OfficialProblems()
	if err != nil {
		t.Fatal(err)
	}
	phrases, err := hextris.OfficialPhrases("power")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		r := mustRandom(t, uint64(p.ID))
		sol := solve(t, r, p, phrases)
		res := hextris.Play(p, p.SourceSeeds[0], phrases, sol)
		if res.Error != "" || res.EndState == "playing" {
			t.Fatalf("problem %d: error %q, end %q after %d moves", p.ID, res.Error, res.EndState, res.MovesExecuted)
		}
		again := solve(t, r, p, phrases)
		fresh := solve(t, mustRandom(t, uint64(p.ID)), p, phrases)
		if fresh != sol || again == "" {
			t.Fatalf("problem %d: not deterministic given the seed", p.ID)
		}
	}
}

func BenchmarkRandomSolve(b *testing.B) {
	p, err := hextris.Official(14)
	if err != nil {
		b.Fatal(err)
	}
	r := mustRandom(b, 1)
	b.ReportAllocs()
	for b.Loop() {
		solve(b, r, p, hextris.PhraseSet{})
	}
}

// mustRandom is the random solver at its defaults.
func mustRandom(tb testing.TB, seed uint64) *Random {
	tb.Helper()
	r, err := New(Params.Defaults(), seed)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// solve is r's text for the problem's first seed.
func solve(tb testing.TB, r *Random, p *hextris.Problem, ps hextris.PhraseSet) string {
	tb.Helper()
	sol, err := r.Solve(context.Background(), p, p.SourceSeeds[0], ps)
	if err != nil {
		tb.Fatalf("problem %d: %v", p.ID, err)
	}
	return sol
}
