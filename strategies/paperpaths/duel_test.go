package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestDuelWeights: paperpaths2 plays a game of two players with the duel_
// values of its thirteen weights and a game of six with the others; paperpaths
// has the same values for both.
func TestDuelWeights(t *testing.T) {
	for _, c := range []struct {
		name    string
		new     func(param.Values, uint64) (*Bot, error)
		specs   param.Specs
		prefix  string // the parameters' prefix in a duel
		players int
	}{
		{"paperpaths2 duel", New2, Params2, "duel_", 2},
		{"paperpaths2 six", New2, Params2, "", 6},
		{"paperpaths duel", New, Params, "duel_", 2},
	} {
		b := decideOnce(t, c.new, param.Values{"game_ms": 0, "paths": 10}, c.players)
		if !b.weighed {
			t.Fatalf("%s: no decision made", c.name)
		}
		got := b.weights
		d := c.specs.Defaults()
		want := weights{int(d[c.prefix+"max_len"]), d[c.prefix+"forward"], d[c.prefix+"margin"], d[c.prefix+"time_bias"], d[c.prefix+"w_enemy"], d[c.prefix+"approach"], d[c.prefix+"close_guard"], d[c.prefix+"close_guard_out"], int(d[c.prefix+"press"]), d[c.prefix+"close_guard_bare"] == 1, int(d[c.prefix+"estimator"]), d[c.prefix+"terr_life"] == 1, int(d[c.prefix+"terr_detour"]), d[c.prefix+"eat_guard"] == 1, int(d[c.prefix+"defend"]), int(d[c.prefix+"raid"]), int(d[c.prefix+"threat"]), int(d[c.prefix+"legs"]), d[c.prefix+"exposed"], d[c.prefix+"exposed_timed"] == 1, int32(d[c.prefix+"exposed_end"]), int32(d[c.prefix+"end_ticks"]), d[c.prefix+"end_pow"]}
		if got != want {
			t.Errorf("%s: weights %+v, want %+v", c.name, got, want)
		}
	}
	d2 := Params2.Defaults()
	if d2["forward"] == d2["duel_forward"] || d2["w_enemy"] == d2["duel_w_enemy"] || d2["approach"] == d2["duel_approach"] ||
		d2["close_guard"] == d2["duel_close_guard"] || d2["press"] == d2["duel_press"] {
		t.Errorf("paperpaths2's duel values are its six-player values: the test above tells nothing")
	}
	d1 := Params.Defaults()
	for _, n := range []string{"forward", "max_len", "margin", "time_bias", "w_enemy", "approach", "close_guard", "press", "close_guard_bare", "estimator", "terr_life", "eat_guard", "defend"} {
		if d1[n] != d1["duel_"+n] {
			t.Errorf("paperpaths: %s %v, duel_%s %v: the baseline must play duels as before", n, d1[n], n, d1["duel_"+n])
		}
	}
}

// TestDuelEstimator: estimator orders the loops of a game of six and
// duel_estimator those of a game of two, each leaving the other alone.
func TestDuelEstimator(t *testing.T) {
	for _, c := range []struct {
		set     string
		players int
		want    int
	}{
		{"duel_estimator", 2, 1},
		{"duel_estimator", 6, 0},
		{"estimator", 2, 0},
		{"estimator", 6, 1},
	} {
		b := decideOnce(t, New2, param.Values{"game_ms": 0, "paths": 10, c.set: 1}, c.players)
		if b.estimator != c.want {
			t.Errorf("%s=1 in a game of %d: estimator %d, want %d", c.set, c.players, b.estimator, c.want)
		}
	}
}

// TestDuelTerrLife: terr_life turns the territory lifetime on in a game of
// six and duel_terr_life in a game of two, each leaving the other alone.
func TestDuelTerrLife(t *testing.T) {
	for _, c := range []struct {
		set     string
		players int
		want    bool
	}{
		{"duel_terr_life", 2, true},
		{"duel_terr_life", 6, false},
		{"terr_life", 2, false},
		{"terr_life", 6, true},
	} {
		b := decideOnce(t, New2, param.Values{"game_ms": 0, "paths": 10, "terr_life": 0, "duel_terr_life": 0, c.set: 1}, c.players)
		if b.terrLife != c.want {
			t.Errorf("%s=1 in a game of %d: terr_life %v, want %v", c.set, c.players, b.terrLife, c.want)
		}
	}
}

// decideOnce makes a bot with values v and has it answer once: in a duel of
// two players in their own lands, or in the mid-game of six.
func decideOnce(t *testing.T, newBot func(param.Values, uint64) (*Bot, error), v param.Values, players int) *Bot {
	t.Helper()
	var s *paperio.State
	if players == 2 {
		s = twoLands(t, box{8, 12, 8, 12}, box{20, 24, 20, 24})
	} else {
		s = midGame(t)
	}
	b := mustBot(t, newBot, v, 1)
	b.Command(s, lastAlive(s))
	return b
}
