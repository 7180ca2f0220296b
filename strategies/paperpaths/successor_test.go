package paperpaths

import (
	"maps"
	"testing"
	"time"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// testBudget is the budget this package's tests give paperpaths2: a path
// count and no clock, its former defaults, so that a game repeats exactly
// on any machine and under the race detector. Its default budget, the
// runner's clock with paths as a cap, is measured by TestTimePerGame.
var testBudget = param.Values{"game_ms": 0, "paths": 120}

// params2 returns v on the test budget (v's own values win).
func params2(v param.Values) param.Values {
	out := maps.Clone(testBudget)
	maps.Copy(out, v)
	return out
}

// TestSuccessorLegalDeterministicAndBeatsSimple plays paperpaths2 on the
// test budget against simple: legal moves, the same game twice from the
// same seeds, and at most one loss (2 seeds under -short, 6 otherwise).
func TestSuccessorLegalDeterministicAndBeatsSimple(t *testing.T) {
	seeds := int64(6)
	if testing.Short() {
		seeds = 2
	}
	playsLegallyAndBeatsSimple(t, "paperpaths2", New2, params2(nil), seeds)
}

// TestParams2KeepsTheBaseline: paperpaths' defaults are untouched by the
// successor's, and the two differ only where Params2 says.
func TestParams2KeepsTheBaseline(t *testing.T) {
	if err := Params2.Check(); err != nil {
		t.Fatal(err)
	}
	old, succ := Params.Defaults(), Params2.Defaults()
	for _, name := range []string{"estimator", "safe_walk", "end_close", "seek", "game_ms", "terr_life", "kill_first", "keep_plan", "escape", "w_saw"} {
		if old[name] != 0 {
			t.Errorf("paperpaths %s = %v, want 0 (off: the previous behaviour)", name, old[name])
		}
	}
	if succ["safe_walk"] != 1 || succ["forward"] != 0.68 || succ["max_len"] != 35 || succ["keep_plan"] != 1 || succ["game_ms"] != -1 ||
		succ["paths"] != 20000 || succ["w_saw"] != 1 {
		t.Errorf("paperpaths2 defaults %v", succ)
	}
}

// TestDecisionLimitSharesTheGameBudget: with a game budget, a decision
// gets nine tenths of what is left over the decisions left (one a cell at
// nitro speed), twice that with a trail out, capped by time_ms; the
// runner's limits with game_ms=-1 (the default); none at all with 0.
func TestDecisionLimitSharesTheGameBudget(t *testing.T) {
	s, err := paperio.NewState(paperio.DefaultRules(), 2)
	if err != nil {
		t.Fatal(err)
	}
	s.Tick = 1
	p := &s.Players[0]
	bot := func(args ...string) *Bot {
		v, err := Params2.Parse(args...)
		if err != nil {
			t.Fatal(err)
		}
		b := mustBot(t, New2, v, 1)
		return b
	}
	cells := time.Duration((s.Rules.MaxTickCount - s.Tick) / 5)
	if got := bot("game_ms=0").decisionLimit(s, p); got != 0 {
		t.Errorf("game_ms=0: limit %v, want none", got)
	}
	b := bot("game_ms=100000")
	want := 90 * time.Second / cells
	if got := b.decisionLimit(s, p); got != want {
		t.Errorf("game_ms=100000: %v, want %v", got, want)
	}
	b.spent = 45 * time.Second
	if got := b.decisionLimit(s, p); got != want/2 {
		t.Errorf("half spent: %v, want %v", got, want/2)
	}
	p.Lines[0], p.NLines = p.Cell(), 1
	if got := b.decisionLimit(s, p); got != want {
		t.Errorf("trail out: %v, want %v", got, want)
	}
	p.NLines = 0
	if got := bot("game_ms=100000", "time_ms=10").decisionLimit(s, p); got != 10*time.Millisecond {
		t.Errorf("time_ms cap: %v", got)
	}
	if got := bot().decisionLimit(s, p); got != s.Rules.MaxExecutionTime*9/10/cells {
		t.Errorf("default, the runner's limits: %v", got)
	}
	if _, err := New2(param.Values{"game_ms": -2}, 1); err == nil {
		t.Error("game_ms=-2 accepted")
	}
}

// TestSafeWalkKeepsMoreLoops: in the middle of a six-player game, more of
// the loops the safe builder draws pass the final safety check (closing
// before any opponent can reach the trail) than of the unchecked walks.
func TestSafeWalkKeepsMoreLoops(t *testing.T) {
	s := midGame(t)
	p := &s.Players[s.N-1]
	count := func(b *Bot) int {
		b.survey(s, p.ID)
		b.left = int32(s.Rules.MaxTickCount - s.Tick)
		b.homeMap(p)
		b.tickMin = profile{nitro: 1}.ticks(s.Rules.Speed)
		var enemy paperio.Bits
		ok := 0
		for range 400 {
			if _, _, good := b.samplePath(s, p, p.Cell(), p.Trail(), unreached, 0, heldProfile(p), &enemy, nil); good {
				ok++
			}
		}
		return ok
	}
	safe := mustBot(t, New2, params2(nil), 3)
	plain := mustBot(t, New2, params2(param.Values{"safe_walk": 0}), 3)
	ns, np := count(safe), count(plain)
	t.Logf("valid loops: safe walk %d/400, plain walk %d/400", ns, np)
	if ns <= np {
		t.Fatalf("safe walk kept %d loops of 400, the plain walk %d", ns, np)
	}
}

// TestTimePerGame measures the thinking time of paperpaths2 (on the test
// budget, and at its defaults) and paperpaths per game (the bots' own
// clocks), in 1v1 games and in six-player games with simple fillers, and
// checks that the runner's and a given game budget are kept. Long: skipped
// under -short.
func TestTimePerGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays full games")
	}
	for _, n := range []int{2, 6} {
		var spent [2]time.Duration
		const seeds = 3
		for seed := int64(1); seed <= seeds; seed++ {
			a := mustBot(t, New2, params2(nil), uint64(seed))
			b := mustBot(t, New, Params.Defaults(), uint64(seed))
			bots := []paperio.Bot{a, b}
			for k := 2; k < n; k++ {
				bots = append(bots, simple(t, uint64(seed*10)+uint64(k)))
			}
			play(t, seed, bots)
			spent[0] += a.spent
			spent[1] += b.spent
		}
		t.Logf("%d players: paperpaths2 (test budget) %v per game, paperpaths %v per game", n, spent[0]/seeds, spent[1]/seeds)
	}
	for _, n := range []int{2, 6} {
		a := mustBot(t, New2, Params2.Defaults(), 1)
		bots := []paperio.Bot{a}
		for k := 1; k < n; k++ {
			bots = append(bots, simple(t, uint64(10+k)))
		}
		g := play(t, 1, bots)
		t.Logf("%d players: paperpaths2 at its defaults (the runner's clock, paths=20000) %v in the game", n, a.spent)
		if limit := g.Rules.MaxExecutionTime; a.spent > limit {
			t.Fatalf("%d players: defaults spent %v, more than the runner's %v", n, a.spent, limit)
		}
	}
	v, err := Params2.Parse("game_ms=3000", "paths=5000")
	if err != nil {
		t.Fatal(err)
	}
	a := mustBot(t, New2, v, 1)
	b := mustBot(t, New, Params.Defaults(), 1)
	play(t, 1, []paperio.Bot{a, b})
	t.Logf("game_ms=3000, paths=5000: %v", a.spent)
	if a.spent > 3*time.Second {
		t.Fatalf("game_ms=3000 spent %v", a.spent)
	}
}

// BenchmarkDecision2 is BenchmarkDecision for paperpaths2's defaults (the
// safe path builder).
func BenchmarkDecision2(b *testing.B) {
	bot := mustBot(b, New2, params2(nil), 1)
	benchDecision(b, bot)
}
