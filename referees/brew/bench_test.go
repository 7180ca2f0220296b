package brew

import (
	"context"
	"testing"
	"time"
)

// BenchmarkPlayRandom plays whole random-vs-random games in process (final
// rules): one op is one game. Reports games/s and allocations per round.
func BenchmarkPlayRandom(b *testing.B) {
	bots := [Players]Bot{newRandBot(1), newRandBot(2)}
	var s, view State
	rounds := 0
	b.ReportAllocs()
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		if err := s.Reset(int64(i), 3); err != nil {
			b.Fatal(err)
		}
		if err := Play(&s, bots, &view); err != nil {
			b.Fatal(err)
		}
		rounds += int(s.Round)
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/el, "games/s")
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/game")
}

// BenchmarkPlayMatchRandom is the same through PlayMatch (what the harness
// calls): one op is one game.
func BenchmarkPlayMatchRandom(b *testing.B) {
	agents := [Players]Agent{{Bot: newRandBot(1)}, {Bot: newRandBot(2)}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := PlayMatch(context.Background(), int64(i), 3, agents, MatchOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStep resolves one turn of both players on a mid-game state.
func BenchmarkStep(b *testing.B) {
	s := midGame(b)
	acts := [Players]Action{s.Legal(0, nil)[0], s.Legal(1, nil)[0]}
	b.ReportAllocs()
	for b.Loop() {
		t := s
		t.Step(acts)
	}
}

// BenchmarkLegal lists one player's legal actions on a mid-game state.
func BenchmarkLegal(b *testing.B) {
	s := midGame(b)
	buf := make([]Action, 0, MaxLegal)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.Legal(0, buf[:0])
	}
}

// BenchmarkAppendInput builds one turn's input text into a reused buffer.
func BenchmarkAppendInput(b *testing.B) {
	s := midGame(b)
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.AppendInput(buf[:0], 0)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkParseCommand parses a typical command line.
func BenchmarkParseCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseCommand("CAST 79 2 going up", 3); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseInput parses one turn's input text into a reused View.
func BenchmarkParseInput(b *testing.B) {
	s := midGame(b)
	text := s.AppendInput(nil, 0)
	var v View
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ParseInput(text, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplayReference replays the 40 reference games with hashing, as
// `gauntlet replay brew` does: one op is all 40 games.
func BenchmarkReplayReference(b *testing.B) {
	games := referenceGames(b)
	acts := make([][][]*string, len(games))
	for i := range games {
		acts[i] = actionsOf(&games[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range games {
			if _, err := ReplayGame(games[i].Seed, games[i].League, acts[i], false); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// midGame is the state after 30 random turns.
func midGame(tb testing.TB) State {
	s, err := New(12345, 3)
	if err != nil {
		tb.Fatal(err)
	}
	bots := [Players]*randBot{newRandBot(5), newRandBot(6)}
	var view State
	for i := 0; i < 30 && !s.Over; i++ {
		var acts [Players]Action
		for p := range acts {
			s.Observe(&view)
			acts[p] = bots[p].Act(&view, p)
		}
		s.Step(acts)
	}
	if s.Over {
		tb.Fatal("mid-game state is over")
	}
	return s
}
