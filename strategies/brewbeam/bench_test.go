package brewbeam

import (
	"testing"

	"gauntlet/referees/brew"
)

// BenchmarkTurn is one whole turn with the default parameters, over a cycle
// of mid-game states; it reports the states generated per second and per
// turn.
func BenchmarkTurn(b *testing.B) { benchTurn(b, nil) }

// BenchmarkTurnOneForecast is BenchmarkTurn with each move judged against
// the opponent's best line alone (opp_lines 1): our search runs once, not
// three times.
func BenchmarkTurnOneForecast(b *testing.B) { benchTurn(b, map[string]float64{"opp_lines": 1}) }

// BenchmarkTurnOppFinal is BenchmarkTurn with the opponent's final score
// read from its line (opp_final 1): its search keeps each layer's trail.
func BenchmarkTurnOppFinal(b *testing.B) { benchTurn(b, map[string]float64{"opp_final": 1}) }

func benchTurn(b *testing.B, params map[string]float64) {
	states := midgameStates(b, 4)
	bot := mustBeam(b, params, 1)
	for i := range states {
		bot.Act(&states[i], 0) // size every buffer once
	}
	b.ReportAllocs()
	b.ResetTimer()
	nodes, opp := 0, 0
	for i := 0; i < b.N; i++ {
		s := &states[i%len(states)]
		bot.Act(s, 0)
		nodes += bot.Stats().Nodes
		opp += bot.Stats().OppNodes
	}
	b.ReportMetric(float64(nodes+opp)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/turn")
	b.ReportMetric(float64(opp)/float64(b.N), "oppnodes/turn")
}

// BenchmarkNode is the cost of one generated state: expansion, evaluation
// and the duplicate check. ns/op and allocs/op are per state.
func BenchmarkNode(b *testing.B) {
	states := midgameStates(b, 4)
	bot := mustBeam(b, map[string]float64{"width": 200, "depth": 40, "nodes": 10000000}, 1)
	// A mid-game state: the opening's LEARN turns may search nothing.
	i := len(states) / 2
	for states[i].Round < 10 {
		i++
	}
	s := &states[i]
	bot.Act(s, 0)
	if bot.Stats().Nodes == 0 {
		b.Fatalf("round %d: the search generated no state", s.Round)
	}
	b.ReportAllocs()
	b.ResetTimer()
	nodes := 0
	for nodes < b.N {
		bot.Act(s, 0)
		nodes += bot.Stats().Nodes
	}
	b.StopTimer()
	// Rescale so that ns/op and allocs/op read per generated state.
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
}

// BenchmarkGame is one whole game of brewbeam against itself.
func BenchmarkGame(b *testing.B) {
	b0, b1 := mustBeam(b, nil, 1), mustBeam(b, nil, 2)
	var s, view brew.State
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Reset(int64(i%16+1), 3); err != nil {
			b.Fatal(err)
		}
		if err := brew.Play(&s, [brew.Players]brew.Bot{b0, b1}, &view); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTurnOppNow is BenchmarkTurn with the cheap opponent model
// (opp_model 1) instead of the default search from the opponent's seat.
func BenchmarkTurnOppNow(b *testing.B) {
	states := midgameStates(b, 4)
	bot := mustBeam(b, map[string]float64{"opp_model": 1}, 1)
	for i := range states {
		bot.Act(&states[i], 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bot.Act(&states[i%len(states)], 0)
	}
}
