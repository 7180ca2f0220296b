package relay

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/internal/botlimit"
)

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
}

// bots are sh testdata/bot.sh players of the race, one per argument list.
func bots(args ...string) []Player {
	out := make([]Player, len(args))
	for i, a := range args {
		out[i] = Player{Argv: append([]string{"sh", "testdata/bot.sh"}, strings.Fields(a)...)}
	}
	return out
}

var cg = Limits{FirstTurn: time.Second, FirstTurnMargin: 750 * time.Millisecond, Turn: 50 * time.Millisecond, Margin: 30 * time.Millisecond, Game: time.Minute}

func relayed(t *testing.T, refArgs string, seed int64, players []Player, lim Limits) (*Result, error) {
	t.Helper()
	need(t, "python3", "sh")
	ref := append([]string{"python3", "testdata/relayed.py"}, strings.Fields(refArgs)...)
	return Relayed(context.Background(), ref, seed, players, lim, nil)
}

func TestRelayedPlaces(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ref     string
		seed    int64
		players []Player
		want    []int
	}{
		{"faster first", "", 3, bots("3", "2"), []int{1, 2}},
		{"seats swapped", "", 3, bots("2", "3"), []int{2, 1}},
		{"three players, seed ignored", "--ignore-seed", 99, bots("1", "3", "2"), []int{3, 1, 2}},
		{"four players tied", "", 5, bots("2", "2", "2", "2"), []int{1, 1, 1, 1}},
		{"tie for second", "", 2, bots("3", "1", "1"), []int{1, 2, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := relayed(t, tc.ref, tc.seed, tc.players, cg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Places, tc.want) {
				t.Errorf("places %v, want %v (forfeits %q)", res.Places, tc.want, res.Forfeit)
			}
			for i, ts := range res.Times {
				if len(ts) == 0 {
					t.Errorf("player %d: no answer times", i)
				}
			}
			if res.Turns == 0 {
				t.Error("no turns counted")
			}
		})
	}
}

// The seed reaches the referee: the race's length depends on it, unless the
// referee ignores ###Seed.
func TestRelayedSeed(t *testing.T) {
	turns := func(ref string, seed int64) int {
		res, err := relayed(t, ref, seed, bots("1", "1"), cg)
		if err != nil {
			t.Fatal(err)
		}
		return res.Turns
	}
	if a, b := turns("", 1), turns("", 6); a == b {
		t.Errorf("seeds 1 and 6 play %d turns both: the seed did not reach the referee", a)
	}
	if a, b := turns("--ignore-seed", 1), turns("--ignore-seed", 6); a != b {
		t.Errorf("a referee that ignores the seed played %d and %d turns", a, b)
	}
}

// A game's turns are its rounds, not its answers: the race of seed 1 is 6
// steps long, 6 rounds of bots stepping 1 whatever their number.
func TestRelayedTurnsCountRounds(t *testing.T) {
	for _, n := range []int{2, 3} {
		args := make([]string, n)
		for i := range args {
			args[i] = "1"
		}
		res, err := relayed(t, "", 1, bots(args...), cg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Turns != 6 {
			t.Errorf("%d players: %d turns, want 6 rounds (answers per player %d)", n, res.Turns, len(res.Times[0]))
		}
	}
}

// TestShellRaceIsTheRace: race.sh, the shell referee of the tests that
// play many games, places the players as relayed.py does, in as many
// rounds, with as many ###Error notes, and fails the games of
// REFEREE_CRASH_SEEDS as it does.
func TestShellRaceIsTheRace(t *testing.T) {
	need(t, "python3", "sh")
	ctx := context.Background()
	for _, seed := range []int64{1, 6} {
		for _, players := range [][]Player{bots("3", "2"), bots("1", "2", "2", "0"), bots("0", "0"), bots("3 --html", "9")} {
			want, err := Relayed(ctx, []string{"python3", "testdata/relayed.py"}, seed, players, cg, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Relayed(ctx, []string{"sh", "testdata/race.sh"}, seed, players, cg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Places, want.Places) || got.Turns != want.Turns || len(got.Notes) != len(want.Notes) {
				t.Errorf("seed %d, %d players: race.sh places %v in %d rounds, %d notes; relayed.py %v in %d, %d notes",
					seed, len(players), got.Places, got.Turns, len(got.Notes), want.Places, want.Turns, len(want.Notes))
			}
		}
	}
	t.Setenv("REFEREE_CRASH_SEEDS", "2,5")
	for _, ref := range [][]string{{"python3", "testdata/relayed.py"}, {"sh", "testdata/race.sh"}} {
		if _, err := Relayed(ctx, ref, 5, bots("3", "2"), cg, nil); err == nil || !strings.Contains(err.Error(), "exit status 5") {
			t.Errorf("%s in a crash seed: %v", ref[1], err)
		}
	}
}

func TestRelayedPlayerFaults(t *testing.T) {
	for _, tc := range []struct {
		name, bot, want string
	}{
		{"crash", "3 --crash", "crashed in turn 2: exit status 4; stderr: bot: crashing"},
		{"timeout", "3 --slow", "timeout in turn 2: "},
		// An answer that comes late, but within lineproc.LateWindow, is
		// timed: its forfeit names the turn it answered, not the next.
		{"late answer", "3 --late", "timeout in turn 2: "},
		{"line cap", "3 --flood", "timeout in turn 2: no newline within 10,000 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seat := range 2 {
				args := []string{"1", "1"}
				args[seat] = tc.bot
				// Limits roomy enough that a loaded machine does not time
				// out the well-behaved bot, tight enough for --slow's second.
				roomy := Limits{FirstTurn: time.Second, FirstTurnMargin: 750 * time.Millisecond, Turn: 400 * time.Millisecond, Margin: 100 * time.Millisecond, Game: time.Minute}
				res, err := relayed(t, "", 6, bots(args...), roomy)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(res.Forfeit[seat], tc.want) {
					t.Errorf("seat %d forfeit %q, want %q...", seat, res.Forfeit[seat], tc.want)
				}
				if res.Forfeit[1-seat] != "" {
					t.Errorf("the other seat forfeits too: %q", res.Forfeit[1-seat])
				}
				if res.Places[seat] != 2 || res.Places[1-seat] != 1 {
					t.Errorf("places %v: the player at fault must be last", res.Places)
				}
			}
		})
	}
}

func TestRelayedRefereeFaults(t *testing.T) {
	for _, tc := range []struct {
		name, ref, reason, stderr string
		game                      time.Duration
	}{
		{"crash", "--crash-at 2", "the referee ended before ###End (exit status 1)", "crashing on purpose", time.Minute},
		{"hang", "--hang", "no ###End within the game's time limit of 1,000 ms", "", time.Second},
		{"output for a missing player", "--bad-output", `"###Output 5 1" names no player (the game has players 0 to 1)`, "", time.Minute},
		{"end without every player", "--bad-end", "does not name player", "", time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := cg
			lim.Game = tc.game
			start := time.Now()
			res, err := relayed(t, tc.ref, 6, bots("1", "2"), lim)
			var re *RefereeError
			if !errors.As(err, &re) {
				t.Fatalf("result %+v, error %v: want a referee error", res, err)
			}
			if !strings.Contains(re.Reason, tc.reason) || !strings.Contains(re.Stderr, tc.stderr) {
				t.Errorf("referee error %q (stderr %q), want %q (stderr %q)", re.Reason, re.Stderr, tc.reason, tc.stderr)
			}
			if el := time.Since(start); el > tc.game+30*time.Second {
				t.Errorf("the game took %v, bounded by %v", el, tc.game)
			}
		})
	}
}

func TestRelayedCancel(t *testing.T) {
	need(t, "python3", "sh")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := Relayed(ctx, []string{"python3", "testdata/relayed.py", "--hang"}, 1, bots("1", "1"), cg, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestDirect(t *testing.T) {
	need(t, "python3", "sh")
	ref := []string{"python3", "testdata/direct.py"}
	res, err := Direct(context.Background(), ref, DirectArgs(3), 4, bots("3", "2", "3 --crash"), cg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The third bot answers its first turn: give it a player that fails.
	if !slices.Equal(res.Scores, []float64{3, 2, 3}) {
		t.Errorf("scores %v, want [3 2 3]", res.Scores)
	}
	failing := []Player{bots("3")[0], {Argv: []string{"sh", "-c", "exit 1"}}}
	res, err = Direct(context.Background(), ref, DirectArgs(2), 4, failing, cg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scores[1] != -1 || !strings.Contains(res.Forfeit[1], "score -1") || res.Forfeit[0] != "" {
		t.Errorf("scores %v, forfeits %q: want player 2's error", res.Scores, res.Forfeit)
	}
	_, err = Direct(context.Background(), append(ref, "--fail"), DirectArgs(2), 4, bots("1", "1"), cg, nil)
	var re *RefereeError
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "exit status 2") || !strings.Contains(re.Stderr, "failing on purpose") {
		t.Errorf("error %v, want a referee error with its exit status and stderr", err)
	}
	lim := cg
	lim.Game = time.Second
	_, err = Direct(context.Background(), []string{"sh", "-c", "sleep 30", "sh"}, nil, 4, bots("1", "1"), lim, nil)
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "time limit") {
		t.Errorf("error %v, want a referee error for the hang", err)
	}
	_, err = Direct(context.Background(), []string{"sh", "-c", "echo 3; echo x", "sh"}, nil, 4, bots("1", "1"), cg, nil)
	if !errors.As(err, &re) || !strings.Contains(re.Reason, `"x" is not a score`) {
		t.Errorf("error %v, want a referee error for the missing score", err)
	}
}

func TestPlay(t *testing.T) {
	need(t, "sh")
	cmd := []string{"sh", "testdata/play.sh"}
	players := append(bots("2", "5", "5"), Player{Argv: []string{"sh", "-c", "echo nothing"}})
	res, err := Play(context.Background(), cmd, PlayArgs(), 7, players, cg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 1, 1, 4}; !slices.Equal(res.Places, want) {
		t.Errorf("places %v, want %v", res.Places, want)
	}
	if !strings.Contains(res.Forfeit[3], `"no answer"`) || res.Forfeit[0] != "" {
		t.Errorf("forfeits %q", res.Forfeit)
	}
	if res.TestData["seed"] == nil || len(res.PlayerData) != 4 {
		t.Errorf("test_data %v, player_data %v", res.TestData, res.PlayerData)
	}
	for _, bad := range []string{`{"ranks": [0]`, `{"ranks": [0]}`, `{"ranks": [0, 1], "errors": [1, 2]}`, `not json`, `{"ranks": [0, 1]} {}`} {
		_, err := Play(context.Background(), []string{"sh", "-c", "echo '" + bad + "'", "sh"}, nil, 1, bots("1", "1"), cg, nil)
		var re *RefereeError
		if !errors.As(err, &re) {
			t.Errorf("output %s: error %v, want a referee error", bad, err)
		}
	}
}

func TestExpand(t *testing.T) {
	got := Expand([]string{"{players}", "--seed={seed}", "x{p2}y", "{n}", "-l", "{log}"}, []string{"a b", "c"}, 9, "L")
	want := []string{"a b", "c", "--seed=9", "xcy", "2", "-l", "L"}
	if !slices.Equal(got, want) {
		t.Errorf("Expand: %q, want %q", got, want)
	}
	for _, bad := range [][]string{{"{p5}"}, {"{x}"}, {"a{players}"}, {"{seed"}} {
		if CheckArgs(bad, 4) == nil {
			t.Errorf("CheckArgs(%q) accepted", bad)
		}
	}
	if q := ShellQuote(Player{Argv: []string{"python3", "bot's.py"}, Env: []string{"A=1 2"}}); q != `env 'A=1 2' python3 'bot'\''s.py'` {
		t.Errorf("ShellQuote: %s", q)
	}
}

// A referee still running at the game's wall-clock cap (--game-timeout),
// which comes before the game's own limit, is the referee's error, not the
// run's.
func TestRefereeHangPastTheCap(t *testing.T) {
	need(t, "python3", "sh")
	capped := func() context.Context {
		return botlimit.With(context.Background(), botlimit.Limits{Deadline: time.Now().Add(time.Second), Cap: time.Second})
	}
	_, err := Relayed(capped(), []string{"python3", "testdata/relayed.py", "--hang"}, 1, bots("1", "1"), cg, nil)
	var re *RefereeError
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "wall-clock cap of 1,000 ms (--game-timeout)") {
		t.Errorf("relayed: error %v, want a referee error at the cap", err)
	}
	_, err = Direct(capped(), []string{"sh", "-c", "sleep 30", "sh"}, nil, 4, bots("1", "1"), cg, nil)
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "wall-clock cap of 1,000 ms (--game-timeout)") {
		t.Errorf("direct: error %v, want a referee error at the cap", err)
	}
}

// TestRelayedPlayerData: a player's "[PDATA] k = v" stderr lines set k
// (the last value stands; a number is a number, other text a string),
// "[PDATA+] k = v" lines add up; a player without such lines has an
// empty object, and a game where none wrote one has no player data.
func TestRelayedPlayerData(t *testing.T) {
	res, err := relayed(t, "", 1, bots("3 --pdata", "1"), cg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerData) != 2 || len(res.PlayerData[1]) != 0 {
		t.Fatalf("player data %v: want one object per player, the second empty", res.PlayerData)
	}
	pd := res.PlayerData[0]
	turns, ok := pd["turns"].(float64)
	if !ok || turns < 2 || pd["steps"] != 3*turns || pd["mode"] != "step3" {
		t.Errorf("player data %v: want turns its answers, steps 3 a turn summed, mode step3", pd)
	}
	if n := res.Turns; float64(n) != turns {
		t.Errorf("turns %v in the player data, the game had %d", turns, n)
	}
	plain, err := relayed(t, "", 1, bots("3", "1"), cg)
	if err != nil {
		t.Fatal(err)
	}
	if plain.PlayerData != nil {
		t.Errorf("player data %v of bots that wrote none", plain.PlayerData)
	}
}

// FuzzPData: whatever a bot writes, its metadata stay within their caps
// and hold numbers or one-line strings.
func FuzzPData(f *testing.F) {
	f.Add("[PDATA] a = 1\n[PDATA+] a = 2\n[PDATA] b = x y\n")
	f.Add("[PDATA] = 1\n[PDATA]x=\x1b[2J\n")
	f.Fuzz(func(t *testing.T, s string) {
		p := newPData(1)
		for range 3 {
			p.add(0, strings.Split(s, "\n"))
		}
		m := p.seats[0]
		if len(m) > pdataKeys {
			t.Fatalf("%d keys", len(m))
		}
		for k, v := range m {
			if len(k) > 4*pdataKeyBytes || strings.ContainsAny(k, "\n\x1b") {
				t.Fatalf("key %q", k)
			}
			switch x := v.(type) {
			case float64:
			case string:
				if len(x) > 4*pdataValBytes || strings.ContainsAny(x, "\n\x1b") {
					t.Fatalf("value %q", x)
				}
			default:
				t.Fatalf("value %T", v)
			}
		}
	})
}
