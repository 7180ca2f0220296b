package brewbeam

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"gauntlet/referees/brew"
	"gauntlet/strategies/brewbasic"
	"gauntlet/strategies/param"
)

var matchGames = flag.Int("brewbeam.games", 100, "seeds played against greedy (each in both seat orders)")

// tally counts results from brewbeam's side.
type tally struct{ win, draw, loss int }

func (t tally) score() float64 {
	n := t.win + t.draw + t.loss
	if n == 0 {
		return 0
	}
	return (float64(t.win) + 0.5*float64(t.draw)) / float64(n)
}

func (t *tally) add(mine, theirs int) {
	switch {
	case mine > theirs:
		t.win++
	case mine < theirs:
		t.loss++
	default:
		t.draw++
	}
}

// mustBeam is brewbeam with values v.
func mustBeam(tb testing.TB, v param.Values, seed uint64) *Beam {
	tb.Helper()
	b, err := New(v, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// mustGreedy is brewbasic's greedy bot at its defaults.
func mustGreedy(tb testing.TB, seed uint64) *brewbasic.Greedy {
	tb.Helper()
	g, err := brewbasic.NewGreedy(nil, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// playVsGreedy plays seeds 1..games in both seat orders with brew.PlayMatch.
func playVsGreedy(t testing.TB, v param.Values, games int) tally {
	t.Helper()
	var res tally
	for seed := int64(1); seed <= int64(games); seed++ {
		for seat := 0; seat < brew.Players; seat++ {
			bb, g := mustBeam(t, v, uint64(seed)), mustGreedy(t, uint64(seed))
			var agents [brew.Players]brew.Agent
			agents[seat] = brew.Agent{Bot: bb}
			agents[1-seat] = brew.Agent{Bot: g}
			r, err := brew.PlayMatch(context.Background(), seed, 3, agents, brew.MatchOptions{NoTimeLimit: true})
			if err != nil {
				t.Fatal(err)
			}
			if r.Reason[seat] != "" {
				t.Fatalf("seed %d seat %d: brewbeam deactivated: %s", seed, seat, r.Reason[seat])
			}
			res.add(r.Scores[seat], r.Scores[1-seat])
		}
	}
	return res
}

func TestBeatsGreedy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays hundreds of games")
	}
	res := playVsGreedy(t, nil, *matchGames)
	msg := fmt.Sprintf("brewbeam vs greedy: %d games, W/D/L %d/%d/%d, score %.3f",
		res.win+res.draw+res.loss, res.win, res.draw, res.loss, res.score())
	t.Log(msg)
	fmt.Println(msg)
	if res.score() < 0.75 {
		t.Errorf("score %.3f against greedy, want at least 0.75", res.score())
	}
}
