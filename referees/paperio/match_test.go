package paperio

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestBadBots plays a game with a crashing, a hanging, a garbage-spewing
// and a wrong-JSON external bot. The crashing, hanging and wrong-JSON ones
// are disconnected with their reason (they keep their direction); the
// runner ignores non-JSON answers, so the garbage one stays connected with
// a note. The game completes.
func TestBadBots(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Shuffle = false
	cfg.Rules.MaxTickCount = 200
	cfg.Rules.RequestMaxTime = 300 * time.Millisecond
	agents := []Agent{
		{Command: []string{"sh", "-c", `read a; read b; echo '{"command": "up"}'; exit 3`}},
		{Command: []string{"sh", "-c", `while read l; do :; done`}},
		{Command: []string{"sh", "-c", `while read l; do echo 'not json at all'; done`}},
		{Command: []string{"sh", "-c", `while read l; do echo '["up"]'; done`}},
		{Bot: &walker{turnEvery: 4}},
	}
	var rec strings.Builder
	res, err := PlayMatch(context.Background(), cfg, 1, agents, MatchOptions{Record: &rec})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ticks < 150 && res.Players[4].Alive {
		t.Errorf("game stopped at tick %d", res.Ticks)
	}
	for i, p := range res.Players {
		t.Logf("agent %d: %+v", i, p)
	}
	wants := []string{"connection closed", "read timeout error", "", "not a JSON object", ""}
	for i, w := range wants {
		p := res.Players[i]
		if (w == "") != (p.Disconnect == "") || !strings.Contains(p.Disconnect, w) {
			t.Errorf("agent %d: disconnect reason %q, want one mentioning %q", i, p.Disconnect, w)
		}
	}
	if g := res.Players[2]; g.Ignored == 0 || !strings.HasPrefix(g.IgnoredFirst, `unreadable answer "not json at all" (tick 1)`) {
		t.Errorf("garbage bot: %+v", g)
	}
	if diff, err := compareTrace([]byte(rec.String())); err != nil || diff != "" {
		t.Errorf("replay of the record: %v %s", err, diff)
	}
}

// TestExternalBotWithoutLimits: a well-behaved external bot in no-limit
// mode plays the whole game.
func TestExternalBotWithoutLimits(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Rules.MaxTickCount = 30
	agents := []Agent{
		{Command: []string{"sh", "-c", `while read l; do echo '{"command": "left", "debug": "x"}'; done`}},
		{Bot: &walker{}},
	}
	res, err := PlayMatch(context.Background(), cfg, 2, agents, MatchOptions{NoTimeLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Players[0].Disconnect != "" || res.Ticks != 29 {
		t.Errorf("result %+v", res)
	}
}

// printBot answers from a digest of everything a tick message shows.
type printBot struct{}

func (printBot) Command(s *State, id int) Dir {
	h := sha1.New()
	fmt.Fprint(h, s.Tick, id, s.N)
	for k := 0; k < s.N; k++ {
		p := &s.Players[k]
		if !p.Alive {
			continue
		}
		fmt.Fprint(h, p.ID, p.X, p.Y, p.Dir, p.Speed, p.Score, p.Terr, p.Trail())
		for _, b := range p.Bonuses() {
			fmt.Fprint(h, b.Kind, b.Remaining())
		}
	}
	for _, b := range s.MapBonuses() {
		fmt.Fprint(h, b)
	}
	return Dir(h.Sum(nil)[0]%4 + 1)
}

// TestServeRoundTrip feeds Serve the messages of a real game and checks it
// shows the bot the same game (same answers as a direct call).
func TestServeRoundTrip(t *testing.T) {
	r := DefaultRules()
	r.BonusChance = 5
	g := newGame(t, r, 3, 11)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), inR, outW, printBot{})
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	if _, err := inW.Write(AppendStartGame(nil, &r)); err != nil {
		t.Fatal(err)
	}
	bots := []Bot{&walker{turnEvery: 2}, &walker{turnEvery: 3}}
	asked := 0
	for g.State.Tick < 300 && g.Players[0].Alive {
		var cmds Commands
		if g.Players[0].AtCentre() {
			view := g.State
			want := printBot{}.Command(&view, 1)
			if _, err := inW.Write(g.AppendTick(nil, 1)); err != nil {
				t.Fatal(err)
			}
			line, err := answers.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			_, got, err := ParseAnswer([]byte(line))
			if err != nil || got != want {
				t.Fatalf("tick %d: Serve answered %q (%v), want %v", g.State.Tick, line, err, want)
			}
			cmds[0] = Up
			asked++
		}
		for k := 1; k < 3; k++ {
			if g.Players[k].Alive && g.Players[k].AtCentre() {
				view := g.State
				cmds[k] = bots[k-1].Command(&view, k+1)
			}
		}
		// Player 1 walks a small square to stay alive.
		if g.Players[0].AtCentre() {
			cmds[0] = [4]Dir{Up, Right, Down, Left}[(g.State.Tick/12)%4]
		}
		g.PlayTick(&cmds)
	}
	inW.Write(AppendEndGame(nil))
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if asked < 10 {
		t.Errorf("only %d ticks asked", asked)
	}
}

// rulesBot answers up and keeps the rules it was shown.
type rulesBot struct{ seen *Rules }

func (b rulesBot) Command(s *State, id int) Dir {
	*b.seen = s.Rules
	return Up
}

// TestServeRulesShowsTheRules: the runner's messages carry no tick count
// and no clock, so a served bot plans with the rules it is served under.
func TestServeRulesShowsTheRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules Rules
	}{{"server", DefaultRules()}, {"finals", FinalsRules()}} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, DefaultRules(), 2, 1)
			in := AppendStartGame(nil, &tc.rules)
			in = g.AppendTick(in, 1)
			var seen Rules
			var out bytes.Buffer
			if err := ServeRules(context.Background(), tc.rules, bytes.NewReader(in), &out, rulesBot{&seen}); err != nil {
				t.Fatal(err)
			}
			if seen.MaxTickCount != tc.rules.MaxTickCount || seen.RequestMaxTime != tc.rules.RequestMaxTime ||
				seen.MaxExecutionTime != tc.rules.MaxExecutionTime {
				t.Errorf("the bot was shown %d ticks, %v an answer, %v a game; want %d, %v, %v",
					seen.MaxTickCount, seen.RequestMaxTime, seen.MaxExecutionTime,
					tc.rules.MaxTickCount, tc.rules.RequestMaxTime, tc.rules.MaxExecutionTime)
			}
			if out.String() != `{"command": "up"}`+"\n" {
				t.Errorf("answer %q", out.String())
			}
		})
	}
	bad := DefaultRules()
	bad.MaxTickCount = 0
	if err := ServeRules(context.Background(), bad, strings.NewReader(""), io.Discard, printBot{}); err == nil ||
		!strings.Contains(err.Error(), "MAX_TICK_COUNT 0") {
		t.Errorf("ServeRules with no ticks: %v; want an error naming MAX_TICK_COUNT", err)
	}
}
