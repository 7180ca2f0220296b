package brewbasic

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"gauntlet/referees/brew"
	"gauntlet/strategies/param"
)

func newGreedy(t testing.TB, v param.Values) *Greedy {
	g, err := NewGreedy(v, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newRandom(t testing.TB, v param.Values, seed uint64) *Random {
	r, err := NewRandom(v, seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGreedyBeatsRandom plays 200 final-rules games (100 seeds, both seat
// orders) and requires greedy to win clearly.
func TestGreedyBeatsRandom(t *testing.T) {
	const seeds = 100
	var wins, draws, losses, gScore, rScore int
	var s, view brew.State
	for i := 0; i < seeds; i++ {
		for gSeat := 0; gSeat < brew.Players; gSeat++ {
			if err := s.Reset(int64(i)*2654435761, 3); err != nil {
				t.Fatal(err)
			}
			var bots [brew.Players]brew.Bot
			bots[gSeat] = newGreedy(t, nil)
			bots[1-gSeat] = newRandom(t, nil, uint64(i))
			if err := brew.Play(&s, bots, &view); err != nil {
				t.Fatal(err)
			}
			g, r := int(s.P[gSeat].Score), int(s.P[1-gSeat].Score)
			gScore += g
			rScore += r
			switch {
			case g > r:
				wins++
			case g == r:
				draws++
			default:
				losses++
			}
		}
	}
	games := 2 * seeds
	msg := fmt.Sprintf("brewbasic: greedy vs random over %d games: %d wins, %d draws, %d losses; mean score %.1f vs %.1f",
		games, wins, draws, losses, float64(gScore)/float64(games), float64(rScore)/float64(games))
	t.Log(msg)
	fmt.Println(msg)
	if wins < games*9/10 {
		t.Errorf("greedy wins only %d of %d games", wins, games)
	}
}

// TestDeterministic: the same seeds give the same game, in process and
// through PlayMatch.
func TestDeterministic(t *testing.T) {
	play := func() brew.MatchResult {
		res, err := brew.PlayMatch(context.Background(), 77, 3, [brew.Players]brew.Agent{
			{Bot: newRandom(t, param.Values{"learn_prob": 0.3}, 5)},
			{Bot: newGreedy(t, param.Values{"dist_weight": 2})},
		}, brew.MatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := play(), play()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two runs differ: %+v / %+v", a, b)
	}
	if a.Reason != [brew.Players]string{} {
		t.Errorf("a baseline bot forfeited: %q", a.Reason)
	}
}

// TestRandomSeedMatters: different seeds give different games.
func TestRandomSeedMatters(t *testing.T) {
	differ := false
	for seed := uint64(0); seed < 5 && !differ; seed++ {
		var s1, s2, view brew.State
		s1.Reset(3, 3)
		s2.Reset(3, 3)
		brew.Play(&s1, [brew.Players]brew.Bot{newRandom(t, nil, seed), newRandom(t, nil, 100)}, &view)
		brew.Play(&s2, [brew.Players]brew.Bot{newRandom(t, nil, seed+1), newRandom(t, nil, 100)}, &view)
		differ = s1 != s2
	}
	if !differ {
		t.Error("the random bot ignores its seed")
	}
}

func TestParams(t *testing.T) {
	if err := GreedyParams.Check(); err != nil {
		t.Error(err)
	}
	if err := RandomParams.Check(); err != nil {
		t.Error(err)
	}
	if _, err := NewGreedy(param.Values{"price_weight": -1}, 0); err == nil {
		t.Error("negative price_weight accepted")
	}
	if _, err := NewGreedy(param.Values{"no_such": 1}, 0); err == nil {
		t.Error("unknown greedy parameter accepted")
	}
	if _, err := NewRandom(param.Values{"learn_prob": 2}, 0); err == nil {
		t.Error("learn_prob 2 accepted")
	}
}

// TestBotsDoNotMutate: the bots leave the state they are shown unchanged
// and always answer with a legal action.
func TestBotsDoNotMutate(t *testing.T) {
	bots := []brew.Bot{newGreedy(t, nil), newRandom(t, param.Values{"brew_prob": 0.5}, 9)}
	for league := 1; league <= 3; league++ {
		for _, bot := range bots {
			s, err := brew.New(int64(league)*11, league)
			if err != nil {
				t.Fatal(err)
			}
			opp := newRandom(t, nil, 4)
			var view brew.State
			for !s.Over {
				s.Observe(&view)
				before := view
				a := bot.Act(&view, 0)
				if view != before {
					t.Fatalf("%T changed its state on round %d", bot, s.Round+1)
				}
				if ok, why := s.Valid(0, a); !ok && a.Kind != brew.Wait {
					t.Fatalf("%T played %v on round %d: %s", bot, a, s.Round+1, why)
				}
				s.Observe(&view)
				s.Step([brew.Players]brew.Action{a, opp.Act(&view, 1)})
			}
		}
	}
}

// BenchmarkGreedyVsRandom plays whole games in process: one op is a game.
func BenchmarkGreedyVsRandom(b *testing.B) {
	bots := [brew.Players]brew.Bot{newGreedy(b, nil), newRandom(b, nil, 1)}
	var s, view brew.State
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Reset(int64(i), 3)
		brew.Play(&s, bots, &view)
	}
}

// BenchmarkGreedyAct is one greedy decision on an opening state.
func BenchmarkGreedyAct(b *testing.B) {
	g := newGreedy(b, nil)
	s, err := brew.New(1, 3)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Act(&s, 0)
	}
}
