package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// killState is a two-player position: we (player 1) own rows 10..12 of
// columns 8..22 and have just left it at (16, 13) moving up; the opponent
// (player 2) owns rows 25..27 and is far out: its trail runs down column
// 20 from row 24 to row 15, then left along row 15 to its head at (4, 15).
// Two cells up, its trail can be cut long before it can be home.
func killState(t *testing.T) *paperio.State {
	t.Helper()
	s := twoLands(t, box{8, 22, 10, 12}, box{8, 22, 25, 27})
	me, o := &s.Players[0], &s.Players[1]
	lay(me, paperio.CellAt(16, 13))
	put(me, 16, 13, paperio.Up)
	for j := 24; j >= 15; j-- {
		lay(o, paperio.CellAt(20, j))
	}
	for i := 19; i >= 4; i-- {
		lay(o, paperio.CellAt(i, 15))
	}
	put(o, 4, 15, paperio.Left)
	return s
}

// bestSample draws n paths for player 1 and returns the best score.
func bestSample(t *testing.T, s *paperio.State, v param.Values, n int) float64 {
	t.Helper()
	sample := sampler(t, s, v)
	best := -1.0
	for range n {
		if score, ok := sample(nil); ok {
			best = max(best, score)
		}
	}
	return best
}

// sampler prepares a paperpaths2 bot of values v to score loops of player 1
// as a decision does, and returns a function that scores one: a fresh draw
// when script is nil, else the script's cells from the head, then home.
func sampler(t *testing.T, s *paperio.State, v param.Values) func(script []paperio.Cell) (float64, bool) {
	t.Helper()
	b := mustBot(t, New2, params2(v), 5)
	p := &s.Players[0]
	b.survey(s, p.ID)
	b.left = int32(s.Rules.MaxTickCount - s.Tick)
	b.homeMap(p)
	b.tickMin = profile{nitro: 1}.ticks(s.Rules.Speed)
	trailArrive := unreached
	for _, c := range p.Trail() {
		trailArrive = min(trailArrive, b.arrive[c])
	}
	var enemy paperio.Bits
	enemy.Or(&s.Players[1].Terr)
	b.distMap(&enemy, &b.toEnemy)
	return func(script []paperio.Cell) (float64, bool) {
		_, score, ok := b.samplePath(s, p, p.Cell(), p.Trail(), trailArrive, 0, heldProfile(p), &enemy, script)
		return score, ok
	}
}

// TestKillFirstRanksCutsAboveAnyCapture: with the value of a cut set to
// zero, kill_first still makes the best loop one that cuts the opponent's
// trail (scored in the kill rank), while without it no loop reaches that
// rank.
func TestKillFirstRanksCutsAboveAnyCapture(t *testing.T) {
	s := killState(t)
	on := bestSample(t, s, param.Values{"kill_first": 1, "w_kill": 0}, 400)
	off := bestSample(t, s, param.Values{"kill_first": 0, "w_kill": 0}, 400)
	t.Logf("best score: kill_first=1 %g, kill_first=0 %g", on, off)
	if on < killRank {
		t.Fatalf("kill_first=1: best loop scores %g, below the kill rank %g", on, killRank)
	}
	if off >= killRank {
		t.Fatalf("kill_first=0: best loop scores %g, in the kill rank", off)
	}
}
