package brew

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"gauntlet/internal/testbot"
)

// randBot plays a seeded random legal action; it is the test's own bot
// (the package's baseline bots live in strategies).
type randBot struct {
	rng *rand.Rand
	buf []Action
}

func newRandBot(seed uint64) *randBot {
	return &randBot{rng: rand.New(rand.NewPCG(seed, 77)), buf: make([]Action, 0, MaxLegal)}
}

func (b *randBot) Act(s *State, me int) Action {
	b.buf = s.Legal(me, b.buf[:0])
	// Prefer brewing, so games reach the brew goal as well as round 100.
	for _, a := range b.buf {
		if a.Kind == Brew && b.rng.IntN(2) == 0 {
			return a
		}
	}
	return b.buf[b.rng.IntN(len(b.buf))]
}

var _ Bot = (*randBot)(nil)

// A bot process is the test binary itself, serving a randBot (see
// TestMain): the same code path as `gauntlet bot brew <strategy>`.
const serveEnv = "BREW_TEST_SERVE_SEED"

func TestMain(m *testing.M) {
	testbot.Main()
	if s := os.Getenv(serveEnv); s != "" {
		var seed uint64
		fmt.Sscan(s, &seed)
		if err := Serve(context.Background(), os.Stdin, os.Stdout, newRandBot(seed)); err != nil {
			fmt.Fprintln(os.Stderr, "serve:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func servedAgent(t *testing.T, seed uint64) Agent {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Agent{Command: []string{exe, "-test.run=^$"}, Env: []string{fmt.Sprintf("%s=%d", serveEnv, seed)}}
}

// TestServeRoundTrip: a bot served as a CodinGame process over pipes plays
// exactly the game it plays in process.
func TestServeRoundTrip(t *testing.T) {
	for _, c := range []struct {
		seed   int64
		league int
	}{{1, 3}, {-77, 3}, {9, 2}, {4, 1}} {
		var inRec, outRec bytes.Buffer
		opt := MatchOptions{NoTimeLimit: true, Name: "rt"}
		opt.Record = &inRec
		want, err := PlayMatch(context.Background(), c.seed, c.league,
			[Players]Agent{{Bot: newRandBot(11)}, {Bot: newRandBot(12)}}, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Record = &outRec
		got, err := PlayMatch(context.Background(), c.seed, c.league,
			[Players]Agent{{Bot: newRandBot(11)}, servedAgent(t, 12)}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Scores != want.Scores || got.Active != want.Active || got.Rounds != want.Rounds ||
			got.Deliveries != want.Deliveries || got.Reason != want.Reason || got.Ignored != want.Ignored {
			t.Errorf("seed %d league %d: served %+v, in process %+v", c.seed, c.league, got, want)
		}
		if len(got.Times[1]) != got.Rounds || got.Times[0] != nil {
			t.Errorf("seed %d league %d: answer times %v for %d rounds", c.seed, c.league, got.Times, got.Rounds)
		}
		if !bytes.Equal(inRec.Bytes(), outRec.Bytes()) {
			t.Errorf("seed %d league %d: the records differ", c.seed, c.league)
		}
		t.Logf("seed %d league %d: %d rounds, scores %v, both ways", c.seed, c.league, got.Rounds, got.Scores)
	}
}

// TestTrackerMatchesObserve: over many games, the state a Tracker rebuilds
// from the input text is exactly what Observe shows an in-process bot.
func TestTrackerMatchesObserve(t *testing.T) {
	var buf []byte
	var v View
	for g := 0; g < 60; g++ {
		league := 1 + g%3
		s, err := New(int64(g)*7919-300, league)
		if err != nil {
			t.Fatal(err)
		}
		bots := [Players]*randBot{newRandBot(uint64(g)), newRandBot(uint64(g) + 1000)}
		var tr [Players]Tracker
		for !s.Over {
			var acts [Players]Action
			for p := 0; p < Players; p++ {
				var view, rebuilt State
				s.Observe(&view)
				buf = s.AppendInput(buf[:0], p)
				if _, err := ParseInput(buf, &v); err != nil {
					t.Fatal(err)
				}
				if err := tr[p].Update(&v, &rebuilt); err != nil {
					t.Fatalf("game %d round %d p%d: %v", g, s.Round+1, p, err)
				}
				want := view
				if tr[p].Seat() != p {
					// League 1 shows no spells, so the seat is unknown: the
					// tracker plays seat 0, with the two players swapped.
					if league != 1 {
						t.Fatalf("game %d: tracker puts p%d in seat %d", g, p, tr[p].Seat())
					}
					want.P[0], want.P[1] = view.P[1], view.P[0]
				}
				if rebuilt != want {
					t.Fatalf("game %d league %d round %d p%d: tracker state differs\n got %+v\nwant %+v", g, league, s.Round+1, p, rebuilt, want)
				}
				acts[p] = bots[p].Act(&view, p)
			}
			s.Step(acts)
		}
	}
}

// shBot is an external bot written as a small shell script. readTurn in sh:
// the count line, then that many lines plus the two inventory lines.
func shBot(body string) Agent {
	script := `turn() { read -r n || exit 0; i=0; while [ "$i" -lt $((n+2)) ]; do read -r l; i=$((i+1)); done; }
r=0
` + body
	return Agent{Command: []string{"sh", "-c", script}}
}

// TestExternalForfeits: a crashing, a hanging and a garbage-printing bot
// each forfeit with a readable reason; the match completes normally and its
// record replays to the same result.
func TestExternalForfeits(t *testing.T) {
	cases := []struct {
		name   string
		agent  Agent
		round  int
		reason string
	}{
		{"crash", shBot(`while turn; do r=$((r+1)); if [ $r -ge 2 ]; then echo "bad thing happened" >&2; exit 2; fi; echo WAIT; done`),
			2, "crashed in round 2: exit status 2; stderr: bad thing happened"},
		{"hang", shBot(`while turn; do r=$((r+1)); if [ $r -ge 3 ]; then sleep 30; fi; echo WAIT; done`),
			3, "timeout in round 3: no answer within 8"},
		{"garbage", shBot(`while turn; do r=$((r+1)); if [ $r -ge 4 ]; then echo FOO; else echo WAIT; fi; done`),
			4, `unparseable line "FOO" (round 4)`},
		{"silent exit", shBot(`turn; echo WAIT; exit 0`),
			2, "crashed in round 2: exit status 0"},
	}
	for _, c := range cases {
		for seat := 0; seat < Players; seat++ {
			var agents [Players]Agent
			agents[seat] = c.agent
			agents[1-seat] = Agent{Bot: newRandBot(3)}
			var rec bytes.Buffer
			start := time.Now()
			res, err := PlayMatch(context.Background(), 42, 3, agents, MatchOptions{
				TurnTime: 400 * time.Millisecond, FirstTurnTime: 2 * time.Second, Record: &rec, Name: c.name,
			})
			if err != nil {
				t.Fatalf("%s seat %d: %v", c.name, seat, err)
			}
			if res.Active[seat] || res.Scores[seat] != -1 || !res.Active[1-seat] || res.Scores[1-seat] < 0 {
				t.Errorf("%s seat %d: %+v", c.name, seat, res)
			}
			if res.Rounds != c.round {
				t.Errorf("%s seat %d: ended after %d rounds, want %d", c.name, seat, res.Rounds, c.round)
			}
			if !strings.Contains(res.Reason[seat], c.reason) || res.Reason[1-seat] != "" {
				t.Errorf("%s seat %d: reasons %q, want %q for the bot", c.name, seat, res.Reason, c.reason)
			}
			t.Logf("%s seat %d: %q after %v", c.name, seat, res.Reason[seat], time.Since(start).Round(time.Millisecond))
			checkReplay(t, rec.Bytes(), res)
		}
	}
}

// TestBothForfeit: both seats fail in the same turn; both score -1.
func TestBothForfeit(t *testing.T) {
	garbage := shBot(`while turn; do echo NOPE; done`)
	res, err := PlayMatch(context.Background(), 1, 3, [Players]Agent{garbage, garbage}, MatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scores != [Players]int{-1, -1} || res.Active != [Players]bool{} || res.Rounds != 1 {
		t.Errorf("%+v", res)
	}
}

// TestPlayMatchRecordReplays: in-process games recorded by PlayMatch replay
// to the same result and inputs, and match the fast Play loop.
func TestPlayMatchRecordReplays(t *testing.T) {
	for g := 0; g < 12; g++ {
		seed, league := int64(g)*1000003-5, 1+g%3
		var rec bytes.Buffer
		res, err := PlayMatch(context.Background(), seed, league,
			[Players]Agent{{Bot: newRandBot(uint64(g))}, {Bot: newRandBot(uint64(g) + 50)}},
			MatchOptions{Record: &rec, Name: fmt.Sprint("g", g)})
		if err != nil {
			t.Fatal(err)
		}
		checkReplay(t, rec.Bytes(), res)
		s, err := New(seed, league)
		if err != nil {
			t.Fatal(err)
		}
		var view State
		if err := Play(&s, [Players]Bot{newRandBot(uint64(g)), newRandBot(uint64(g) + 50)}, &view); err != nil {
			t.Fatal(err)
		}
		if s.Scores() != res.Scores || int(s.Round) != res.Rounds {
			t.Errorf("game %d: Play gives %v in %d rounds, PlayMatch %v in %d", g, s.Scores(), s.Round, res.Scores, res.Rounds)
		}
	}
}

// checkReplay replays a record and compares it with the match result and
// the recorded input hashes.
func checkReplay(t *testing.T, line []byte, res MatchResult) {
	t.Helper()
	var g GameRecord
	if err := json.Unmarshal(line, &g); err != nil {
		t.Fatalf("record: %v", err)
	}
	if g.Rounds != res.Rounds || g.Scores != res.Scores || g.Active != res.Active {
		t.Fatalf("record says %d rounds %v %v; result %+v", g.Rounds, g.Scores, g.Active, res)
	}
	r, err := ReplayGame(g.Seed, g.League, actionsOf(&g), true)
	if err != nil {
		t.Fatalf("replaying the record: %v", err)
	}
	if diff := compareGame(&g, &r); diff != "" {
		t.Fatalf("replay of the record: %s", diff)
	}
}

// panicBot panics on its second turn.
type panicBot struct{ n int }

func (b *panicBot) Act(s *State, me int) Action {
	b.n++
	if b.n == 2 {
		panic("boom")
	}
	return WaitAction()
}

// badBot returns an action its league cannot express.
type badBot struct{}

func (badBot) Act(s *State, me int) Action { return LearnAction(3) }

func TestInProcessForfeits(t *testing.T) {
	res, err := PlayMatch(context.Background(), 3, 3, [Players]Agent{{Bot: &panicBot{}}, {Bot: newRandBot(1)}}, MatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scores[0] != -1 || res.Rounds != 2 || !strings.Contains(res.Reason[0], "panic: boom") {
		t.Errorf("panicking bot: %+v", res)
	}
	res, err = PlayMatch(context.Background(), 3, 2, [Players]Agent{{Bot: newRandBot(1)}, {Bot: badBot{}}}, MatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scores[1] != -1 || res.Rounds != 1 || !strings.Contains(res.Reason[1], "LEARN 3") {
		t.Errorf("LEARN in league 2: %+v", res)
	}
}

func TestPlayMatchErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := PlayMatch(ctx, 1, 0, [Players]Agent{{Bot: badBot{}}, {Bot: badBot{}}}, MatchOptions{}); err == nil {
		t.Error("league 0 accepted")
	}
	if _, err := PlayMatch(ctx, 1, 3, [Players]Agent{{Bot: badBot{}}, {}}, MatchOptions{}); err == nil {
		t.Error("empty agent accepted")
	}
	if _, err := PlayMatch(ctx, 1, 3, [Players]Agent{{Bot: badBot{}}, {Command: []string{"no-such-bot-command-xyz"}}}, MatchOptions{}); err == nil {
		t.Error("missing command accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := PlayMatch(cctx, 1, 3, [Players]Agent{{Bot: badBot{}}, {Bot: badBot{}}}, MatchOptions{}); err == nil {
		t.Error("cancelled context ignored")
	}
}

func TestReplayErrors(t *testing.T) {
	cases := map[string]string{
		`{"name":"short","seed":1,"league":3,"actions":[["WAIT","WAIT"]]}`: `game "short": actions end after 1 rounds`,
		`{"seed":1,"league":3}`:                           "missing actions",
		`{"name":"n","league":3,"actions":[]}`:            "missing seed",
		`{"seed":1,"league":0,"actions":[]}`:              "league 0",
		`{"seed":1,"league":3,"actions":[[null,"WAIT"]]}`: "null for an active player",
		`not json`: "input line 1: bad JSON",
	}
	for in, want := range cases {
		var out bytes.Buffer
		err := Replay(context.Background(), strings.NewReader(in+"\n"), &out, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error containing %q", in, err, want)
		}
	}
}

// TestLegalMatchesValid: over random games, Legal lists exactly the
// actions Valid accepts (among every id and a range of counts), and Step on
// a Valid action changes the state while an invalid one acts as WAIT.
func TestLegalMatchesValid(t *testing.T) {
	var legal []Action
	for g := 0; g < 30; g++ {
		s, err := New(int64(g)*31+7, 2+g%2)
		if err != nil {
			t.Fatal(err)
		}
		bots := [Players]*randBot{newRandBot(uint64(g)), newRandBot(uint64(g) + 9)}
		for !s.Over {
			for p := 0; p < Players; p++ {
				legal = s.Legal(p, legal[:0])
				in := map[Action]bool{}
				for _, a := range legal {
					if ok, why := s.Valid(p, a); !ok && a.Kind != Wait {
						t.Fatalf("game %d round %d p%d: Legal lists %v, Valid says %s", g, s.Round+1, p, a, why)
					}
					in[a] = true
				}
				for id := int32(0); id < 200; id++ {
					for _, a := range []Action{{Kind: Learn, ID: id}, {Kind: Brew, ID: id}} {
						if ok, _ := s.Valid(p, a); ok != in[a] {
							t.Fatalf("game %d round %d p%d: %v valid %v, listed %v", g, s.Round+1, p, a, ok, in[a])
						}
					}
					for times := int32(0); times <= 12; times++ {
						a := Action{Kind: Cast, ID: id, Times: times}
						if ok, _ := s.Valid(p, a); ok != in[a] {
							t.Fatalf("game %d round %d p%d: %v valid %v, listed %v", g, s.Round+1, p, a, ok, in[a])
						}
					}
				}
				if ok, _ := s.Valid(p, RestAction()); ok != in[RestAction()] {
					t.Fatalf("game %d round %d p%d: REST valid %v, listed %v", g, s.Round+1, p, ok, in[RestAction()])
				}
			}
			var view State
			var acts [Players]Action
			for p := range acts {
				s.Observe(&view)
				acts[p] = bots[p].Act(&view, p)
			}
			s.Step(acts)
		}
	}
}

// TestServeStreams: Serve answers every turn of a reference game with one
// line, ends cleanly at EOF and names the turn of a malformed input.
func TestServeStreams(t *testing.T) {
	g := referenceGames(t)[0]
	var in strings.Builder
	turns := 0
	for _, pair := range g.Inputs {
		if pair[0] != nil {
			in.WriteString(*pair[0])
			turns++
		}
	}
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(in.String()), &out, newRandBot(1)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != turns {
		t.Fatalf("%d answers to %d turns", len(lines), turns)
	}
	for i, l := range lines {
		if _, err := ParseCommand(l, g.League); err != nil {
			t.Fatalf("answer %d: %v", i+1, err)
		}
	}
	bad := map[string]string{
		"":                                 "",
		"x\n":                              "turn 1: line 1: bad actionCount",
		"1\n42 BREW -2 -2 0 0 9 3 4 0 0\n": "turn 1: unexpected EOF",
		"1\n42 BREW -1 -1 0 0 6 0 0 0 0\n2 2 3 3 0\n2 2 3 3 0\n": "",
		"1\n99 BREW -2 -2 0 0 9 3 4 0 0\n3 0 0 0 0\n3 0 0 0 0\n": "turn 1 input: entry 1: order id 99",
		*g.Inputs[0][0] + "2\n":                                  "turn 2: unexpected EOF",
	}
	for text, want := range bad {
		err := Serve(context.Background(), strings.NewReader(text), io.Discard, newRandBot(1))
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("Serve(%.40q) = %v; want %q", text, err, want)
		}
	}
}

// TestInvariants: random legal play in every league keeps inventories
// within 0..10, never shrinks a score before the end, always ends by round
// 100, and replays identically from the same seeds.
func TestInvariants(t *testing.T) {
	final := map[int]State{}
	for rep := 0; rep < 2; rep++ {
		for g := 0; g < 150; g++ {
			league := 1 + g%3
			s, err := New(int64(g)*-104729+int64(g)<<40, league)
			if err != nil {
				t.Fatal(err)
			}
			bots := [Players]Bot{newRandBot(uint64(g)), newRandBot(uint64(g) ^ 0xabc)}
			var view State
			for !s.Over {
				prev := s
				var acts [Players]Action
				for p := range acts {
					s.Observe(&view)
					acts[p] = bots[p].Act(&view, p)
				}
				s.Step(acts)
				for p := range s.P {
					pl := &s.P[p]
					for k := 0; k < Tiers; k++ {
						if pl.Inv[k] < 0 {
							t.Fatalf("game %d round %d: p%d inventory %v", g, s.Round, p, pl.Inv)
						}
					}
					if Total(&pl.Inv) > MaxInventory {
						t.Fatalf("game %d round %d: p%d holds %d ingredients", g, s.Round, p, Total(&pl.Inv))
					}
					if pl.Score < prev.P[p].Score {
						t.Fatalf("game %d round %d: p%d score fell from %d to %d", g, s.Round, p, prev.P[p].Score, pl.Score)
					}
				}
				if s.Round > MaxRounds || int(s.NOrders) != QueueSize || (league == 3 && s.NTome > TomeSize) {
					t.Fatalf("game %d: round %d, %d orders, %d tome spells", g, s.Round, s.NOrders, s.NTome)
				}
			}
			if rep == 0 {
				final[g] = s
			} else if final[g] != s {
				t.Fatalf("game %d: a second run ends differently", g)
			}
		}
	}
}
