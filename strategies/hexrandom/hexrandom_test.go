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
	phrases, _ := hextris.OfficialPhrases("power")
	for _, p := range ps {
		r, err := New(Params.Defaults(), uint64(p.ID))
		if err != nil {
			t.Fatal(err)
		}
		sol, err := r.Solve(context.Background(), p, p.SourceSeeds[0], phrases)
		if err != nil {
			t.Fatal(err)
		}
		res := hextris.Play(p, p.SourceSeeds[0], phrases, sol)
		if res.Error != "" || res.EndState == "playing" {
			t.Fatalf("problem %d: error %q, end %q after %d moves", p.ID, res.Error, res.EndState, res.MovesExecuted)
		}
		again, _ := r.Solve(context.Background(), p, p.SourceSeeds[0], phrases)
		r2, _ := New(Params.Defaults(), uint64(p.ID))
		fresh, _ := r2.Solve(context.Background(), p, p.SourceSeeds[0], phrases)
		if fresh != sol || again == "" {
			t.Fatalf("problem %d: not deterministic given the seed", p.ID)
		}
	}
}

func BenchmarkRandomSolve(b *testing.B) {
	p, _ := hextris.Official(14)
	r, _ := New(Params.Defaults(), 1)
	b.ReportAllocs()
	for b.Loop() {
		r.Solve(context.Background(), p, p.SourceSeeds[0], hextris.PhraseSet{})
	}
}
