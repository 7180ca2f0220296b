package games

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/internal/testjson"
	"gauntlet/referees/paperio"
)

// rulesBot answers up and keeps the rules it was shown.
type rulesBot struct{ seen *paperio.Rules }

func (b rulesBot) Command(s *paperio.State, id int) paperio.Dir {
	*b.seen = s.Rules
	return paperio.Up
}

// TestPaperioFinals: paperio-finals is paperio at the finals' rules: its
// games run to MAX_TICK_COUNT 2,500 (2,499 ticks played, as the server's
// 1,500 play 1,499), its limits on an external bot are 9 s an answer
// and 200 s a game, its strategies are paperio's, its replays' errors
// name it, and neither game plays the other's cases.
func TestPaperioFinals(t *testing.T) {
	for _, tc := range []struct {
		game        string
		ticks       int
		turn, total time.Duration
	}{
		{"paperio", 1499, 5 * time.Second, 120 * time.Second},
		{"paperio-finals", 2499, 9 * time.Second, 200 * time.Second},
	} {
		t.Run(tc.game, func(t *testing.T) {
			g, err := contract.Default.Game(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			if lim := g.Info().Limits; lim.Turn != tc.turn || lim.Total != tc.total {
				t.Errorf("limits %v an answer, %v a game; want %v, %v", lim.Turn, lim.Total, tc.turn, tc.total)
			}
			cases, err := g.Cases("seed:1")
			if err != nil {
				t.Fatal(err)
			}
			pl, err := mustEntrant(t, tc.game, "simple").Player(0, "default")
			if err != nil {
				t.Fatal(err)
			}
			// One careful player alone lives to the last tick.
			out, err := g.Play(context.Background(), cases[0], []contract.Player{pl}, contract.PlayOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if out.Turns != tc.ticks {
				t.Errorf("the game ran %d ticks; want %d", out.Turns, tc.ticks)
			}
			// A built-in bot is shown the rules it is built for: the
			// runner's messages carry no tick count and no clock.
			var shown paperio.Rules
			if _, err := g.Play(context.Background(), cases[0], []contract.Player{{Name: "rules", Bot: rulesBot{&shown}}}, contract.PlayOptions{}); err != nil {
				t.Fatal(err)
			}
			if shown.MaxTickCount != tc.ticks+1 || shown.RequestMaxTime != tc.turn || shown.MaxExecutionTime != tc.total {
				t.Errorf("a built-in bot was shown %d ticks, %v an answer, %v a game", shown.MaxTickCount, shown.RequestMaxTime, shown.MaxExecutionTime)
			}
			// So is a served one.
			pg, err := paperio.NewGame(paperio.DefaultRules(), 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			r := paperio.DefaultRules()
			in := pg.AppendTick(paperio.AppendStartGame(nil, &r), 1)
			var seen paperio.Rules
			if err := g.(contract.BotServer).ServeBot(context.Background(), quietIO(string(in)), rulesBot{&seen}); err != nil {
				t.Fatal(err)
			}
			if seen.MaxTickCount != tc.ticks+1 || seen.RequestMaxTime != tc.turn || seen.MaxExecutionTime != tc.total {
				t.Errorf("a served bot was shown %d ticks, %v an answer, %v a game", seen.MaxTickCount, seen.RequestMaxTime, seen.MaxExecutionTime)
			}
			// A replay's errors name the game it belongs to.
			_, err = g.(contract.Viewer).Watch(cases[0], contract.Outcome{Moves: []byte(`"x"`)}, []string{"a"})
			if want := tc.game + " case seed:1: moves: "; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Watch of bad moves: %v; want an error starting %q", err, want)
			}
			var names []string
			for _, s := range contract.Default.Strategies(tc.game) {
				names = append(names, s.Name)
			}
			if got := strings.Join(names, " "); got != "paperpaths paperpaths2 random simple" {
				t.Errorf("strategies %q", got)
			}
		})
	}
	server, err := contract.Default.Game("paperio")
	if err != nil {
		t.Fatal(err)
	}
	finals, err := contract.Default.Game("paperio-finals")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := mustEntrant(t, "paperio", "simple").Player(0, "default")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ player, maker contract.Game }{{server, finals}, {finals, server}} {
		cases, err := tc.maker.Cases("seed:1")
		if err != nil {
			t.Fatal(err)
		}
		_, err = tc.player.Play(context.Background(), cases[0], []contract.Player{pl}, contract.PlayOptions{})
		want := tc.player.Info().Name + `: case "seed:1" is a case of ` + tc.maker.Info().Name
		if err == nil || err.Error() != want {
			t.Errorf("%s playing a case of %s: %v; want %q", tc.player.Info().Name, tc.maker.Info().Name, err, want)
		}
	}
}

// TestPaperioEliminated: a player that runs up into the border is out of
// the game by the referee's cause, the same once the outcome has been
// through JSON (as the store keeps it); a careful player alone is not.
func TestPaperioEliminated(t *testing.T) {
	g, err := contract.Default.Game("paperio")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := g.Cases("seed:1")
	if err != nil {
		t.Fatal(err)
	}
	simple, err := mustEntrant(t, "paperio", "simple").Player(0, "default")
	if err != nil {
		t.Fatal(err)
	}
	var shown paperio.Rules
	up := contract.Player{Name: "up", Bot: rulesBot{&shown}}
	out, err := g.Play(context.Background(), cases[0], []contract.Player{up, simple}, contract.PlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := g.(contract.Eliminator)
	var stored contract.Outcome
	if err := json.Unmarshal(testjson.Marshal(t, out), &stored); err != nil {
		t.Fatal(err)
	}
	for _, o := range []*contract.Outcome{&out, &stored} {
		if got := e.Eliminated(o, 0); got != "faced the border" {
			t.Errorf("the player running up: %q; want %q", got, "faced the border")
		}
		for _, seat := range []int{1, 2, -1} {
			if got := e.Eliminated(o, seat); got != "" {
				t.Errorf("seat %d: %q; want none", seat, got)
			}
		}
	}
	if got := e.Eliminated(&contract.Outcome{}, 0); got != "" {
		t.Errorf("an outcome without detail: %q", got)
	}
}
