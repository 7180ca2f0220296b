package paperbasic

import (
	"context"
	"reflect"
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

func newBots(t testing.TB, simple bool, seed uint64) paperio.Bot {
	t.Helper()
	if simple {
		b, err := NewSimple(nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b, err := NewRandom(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSimpleBeatsRandom(t *testing.T) {
	wins, games := 0, 20
	total := [2]int{}
	for g := 0; g < games; g++ {
		agents := []paperio.Agent{
			{Bot: newBots(t, true, uint64(2*g+1))},
			{Bot: newBots(t, false, uint64(2*g+2))},
		}
		cfg := paperio.DefaultConfig()
		res, err := paperio.PlayMatch(context.Background(), cfg, int64(g), agents, paperio.MatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		total[0] += res.Players[0].Score
		total[1] += res.Players[1].Score
		if res.Players[0].Score > res.Players[1].Score {
			wins++
		}
	}
	t.Logf("simple won %d/%d games; total scores simple %d, random %d", wins, games, total[0], total[1])
	if wins < games*3/4 {
		t.Errorf("simple won only %d/%d games against random", wins, games)
	}
}

func TestDeterministic(t *testing.T) {
	run := func() paperio.MatchResult {
		agents := []paperio.Agent{{Bot: newBots(t, true, 7)}, {Bot: newBots(t, false, 8)}, {Bot: newBots(t, false, 9)}}
		res, err := paperio.PlayMatch(context.Background(), paperio.DefaultConfig(), 3, agents, paperio.MatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	for i := range a.Players {
		if !reflect.DeepEqual(a.Players[i], b.Players[i]) {
			t.Fatalf("player %d: %+v then %+v", i, a.Players[i], b.Players[i])
		}
	}
}

func TestParams(t *testing.T) {
	if _, err := NewSimple(param.Values{"loop_len": 99}, 1); err == nil {
		t.Error("loop_len 99 accepted")
	}
	if _, err := NewRandom(param.Values{"nope": 1}, 1); err == nil {
		t.Error("unknown parameter accepted")
	}
	if err := SimpleParams.Check(); err != nil {
		t.Error(err)
	}
	if err := RandomParams.Check(); err != nil {
		t.Error(err)
	}
}
