package refgame

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/referees/relay"
)

// testdata is the relay package's referees and bots.
const testdata = "../../referees/relay/testdata/"

func needPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
}

// writeFile writes a game file in a temporary directory.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func resolve(t *testing.T, name string) *Game {
	t.Helper()
	g, ok, err := Resolve(name)
	if err != nil || !ok {
		t.Fatalf("Resolve(%q): ok %v, %v", name, ok, err)
	}
	return g.(*Game)
}

// Every field of a game file reaches the game.
func TestFileEveryField(t *testing.T) {
	needPython(t)
	path := writeFile(t, `{"name": "race", "title": "A race", "protocol": "relayed",
		"referee": "python3 `+testdata+`relayed.py --ignore-seed", "args": ["--seed", "{seed}"],
		"min_players": 2, "max_players": 4, "first_turn_ms": 900, "turn_ms": 40,
		"first_turn_margin_ms": 700, "margin_ms": 20, "game_seconds": 12.5, "max_line_bytes": 500,
		"cases": "seeds:7", "opponents": "cmd:sh bot.sh 2"}`)
	g := resolve(t, path)
	info := g.Info()
	wantTitle := `A race (relayed referee "python3 ` + testdata + `relayed.py --ignore-seed")`
	if info.Name != "race" || info.Title != wantTitle || info.MinSeats != 2 || info.MaxSeats != 4 ||
		info.Opponents != "cmd:sh bot.sh 2" || info.Direction == contract.Lower {
		t.Errorf("info %+v", info)
	}
	l := info.Limits
	if l.FirstTurn != 900*time.Millisecond || l.Turn != 40*time.Millisecond || l.FirstTurnMargin != 700*time.Millisecond || l.Margin != 20*time.Millisecond {
		t.Errorf("limits %+v", l)
	}
	if g.gameTime != 12500*time.Millisecond || g.file.MaxLineBytes != 500 || g.scores {
		t.Errorf("game time %v, max line %d, scores %v", g.gameTime, g.file.MaxLineBytes, g.scores)
	}
	if !slices.Equal(g.args, []string{"--seed", "{seed}"}) {
		t.Errorf("args %q", g.args)
	}
	if g.DefaultCases("") != "seeds:7" {
		t.Errorf("default cases %q", g.DefaultCases(""))
	}
	src, fp := g.Source()
	if src != path || fp == "" {
		t.Errorf("source %q, fingerprint %q", src, fp)
	}
}

// A file with a name and a referee alone is a two-player relayed game at
// CodinGame's limits; direct and play have their protocols' arguments.
func TestFileDefaults(t *testing.T) {
	needPython(t)
	ref := `"referee": "python3 ` + testdata + `relayed.py"`
	g := resolve(t, writeFile(t, `{"name": "r", `+ref+`}`))
	info := g.Info()
	if g.protocol != "relayed" || info.MinSeats != 2 || info.MaxSeats != 2 || g.args != nil || g.scores || g.gameTime != 0 {
		t.Errorf("relayed defaults: %+v, args %q", info, g.args)
	}
	if l := info.Limits; l.FirstTurn != time.Second || l.Turn != 50*time.Millisecond || l.FirstTurnMargin != 750*time.Millisecond || l.Margin != 30*time.Millisecond {
		t.Errorf("limits %+v", l)
	}
	if info.Title != `r (relayed referee "python3 `+testdata+`relayed.py")` {
		t.Errorf("title %s", info.Title)
	}
	g = resolve(t, writeFile(t, `{"name": "d", "protocol": "direct", "players": 3, `+ref+`}`))
	if !g.scores || !slices.Equal(g.args, relay.DirectArgs(3)) || g.Info().MinSeats != 3 || g.Info().Limits != (contract.TimeLimits{}) {
		t.Errorf("direct: scores %v, args %q, info %+v", g.scores, g.args, g.Info())
	}
	g = resolve(t, writeFile(t, `{"name": "d", "protocol": "direct", "scores": true, "lower_is_better": true, `+ref+`}`))
	if g.Info().Direction == contract.Higher {
		t.Error("lower_is_better: higher is better")
	}
	g = resolve(t, writeFile(t, `{"name": "p", "protocol": "play", `+ref+`}`))
	if g.scores || !slices.Equal(g.args, relay.PlayArgs()) {
		t.Errorf("play: scores %v, args %q", g.scores, g.args)
	}
}

// Bad files are refused, naming the file and what is wrong.
func TestFileErrors(t *testing.T) {
	needPython(t)
	ref := `"referee": "python3 ` + testdata + `relayed.py"`
	for _, tc := range []struct{ content, want string }{
		{`{"name": "r", ` + ref + `, "colour": "red"}`, `unknown field "colour"`},
		{`{"name": "r", ` + ref + `} {}`, "text after the game's JSON object"},
		{`{"name": "r", ` + ref + `} x`, "text after the game's JSON object"},
		{`not json`, "invalid character"},
		{`{"name": "r", "players": "two", ` + ref + `}`, "cannot unmarshal string"},
		{`{` + ref + `}`, `name "": want 1 to 40 letters`},
		{`{"name": "a b", ` + ref + `}`, `name "a b"`},
		{`{"name": "` + strings.Repeat("x", 41) + `", ` + ref + `}`, "want 1 to 40"},
		{`{"name": "r", "protocol": "sdk", ` + ref + `}`, `protocol "sdk": want relayed, direct or play`},
		{`{"name": "r", "players": 2, "max_players": 3, ` + ref + `}`, "not both"},
		{`{"name": "r", "min_players": 3, "max_players": 2, ` + ref + `}`, "players 3 to 2"},
		{`{"name": "r", "players": 10, ` + ref + `}`, "<= 9"},
		{`{"name": "r", "players": -1, ` + ref + `}`, "players -1 to -1"},
		{`{"name": "r", "scores": true, ` + ref + `}`, "only a direct referee gives scores"},
		{`{"name": "r", "lower_is_better": true, ` + ref + `}`, "lower_is_better"},
		{`{"name": "r"}`, `referee "": want a command line`},
		{`{"name": "r", "referee": "./no-such-referee-x"}`, `"./no-such-referee-x" not found`},
		{`{"name": "r", "referee": "python3 x.py {w:int[0,3]=1}"}`, "takes no placeholder but {seed}"},
		{`{"name": "r", "args": ["{p7}"], ` + ref + `}`, "args: {p7}: the game has at most 2 players"},
		{`{"name": "r", "args": ["{who}"], ` + ref + `}`, "args: unknown placeholder {who}"},
		{`{"name": "r", "turn_ms": -1, ` + ref + `}`, "turn_ms -1: want 0 to 86400000"},
		{`{"name": "r", "first_turn_ms": 86400001, ` + ref + `}`, "first_turn_ms 86400001"},
		{`{"name": "r", "first_turn_margin_ms": -5, ` + ref + `}`, "first_turn_margin_ms -5"},
		{`{"name": "r", "margin_ms": -5, ` + ref + `}`, "margin_ms -5"},
		{`{"name": "r", "turn_ms": 0, ` + ref + `}`, "first_turn_ms without turn_ms"},
		{`{"name": "r", "protocol": "play", "turn_ms": 50, ` + ref + `}`, "a play referee times its players itself"},
		{`{"name": "r", "game_seconds": -1, ` + ref + `}`, "game_seconds -1"},
		{`{"name": "r", "game_seconds": 100000, ` + ref + `}`, "game_seconds 100000"},
		{`{"name": "r", "max_line_bytes": -1, ` + ref + `}`, "max_line_bytes -1"},
		{`{"name": "r", "cases": "seeds:0", ` + ref + `}`, `cases: r case set "seeds:0"`},
		{`{"name": "r", "cases": "every", ` + ref + `}`, `unknown r case set "every"`},
	} {
		path := writeFile(t, tc.content)
		_, ok, err := Resolve(path)
		if !ok || err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ok %v, error %v; want %q naming the file", tc.content, ok, err, tc.want)
		}
	}
	big := writeFile(t, `{"name": "r", "title": "`+strings.Repeat("x", maxFile)+`"}`)
	if _, _, err := Resolve(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a file over %d bytes: %v", maxFile, err)
	}
}

func TestResolve(t *testing.T) {
	needPython(t)
	cmd := "python3 " + testdata + "relayed.py"
	g := resolve(t, "referee:"+cmd)
	info := g.Info()
	if info.Name != "referee" || info.Title != `relayed referee "`+cmd+`"` || info.MinSeats != 2 || info.MaxSeats != 2 {
		t.Errorf("info %+v", info)
	}
	if src, fp := g.Source(); src != "referee:"+cmd || fp == "" {
		t.Errorf("source %q, fingerprint %q", src, fp)
	}
	if g, ok, err := Resolve("brew"); ok || g != nil || err != nil {
		t.Errorf("Resolve(brew) = %v, %v, %v: not a referee game", g, ok, err)
	}
	dir := filepath.Join(t.TempDir(), "dir.json")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"missing.json":                  "game file: stat missing.json: no such file",
		dir:                             "not a regular file",
		"referee:":                      "want a command line",
		"referee:./no-such-referee-y":   "not found",
		"referee:python3 'unterminated": "referee",
	} {
		if _, ok, err := Resolve(name); !ok || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q): ok %v, error %v; want %q", name, ok, err, want)
		}
	}
}

// A changed referee file changes the game's fingerprint, and so the run.
func TestFingerprintFollowsTheReferee(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.py")
	if err := os.WriteFile(ref, []byte("print('###End 0 1')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, a := resolve(t, "referee:python3 "+ref).Source()
	if err := os.WriteFile(ref, []byte("print('###End 1 0')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, b := resolve(t, "referee:python3 "+ref).Source()
	if a == b {
		t.Errorf("the fingerprint %s did not change with the referee's file", a)
	}
}

// FuzzParseFile: whatever a game file holds, parsing it returns a game or
// an error, never panics, and a game it accepts is consistent.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(`{"name": "r", "referee": "sh x.sh"}`))
	f.Add([]byte(`{"name": "race", "protocol": "direct", "referee": "sh", "args": ["{p1}", "{players}", "{seed}"], "players": 3, "scores": true, "lower_is_better": true}`))
	f.Add([]byte(`{"name": "p", "protocol": "play", "referee": "sh", "min_players": 2, "max_players": 9, "cases": "seeds:3-5", "game_seconds": 1.5}`))
	f.Add([]byte(`{"name": "r", "referee": "sh", "first_turn_ms": 0, "turn_ms": 1, "max_line_bytes": 3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := parseFile("fuzz.json", data)
		if err != nil {
			return
		}
		info := g.Info()
		if info.MinSeats < 1 || info.MaxSeats < info.MinSeats || info.MaxSeats > 9 || info.Name == "" {
			t.Fatalf("accepted %s as %+v", data, info)
		}
		if relay.CheckArgs(g.args, info.MaxSeats) != nil {
			t.Fatalf("accepted bad args %q", g.args)
		}
		if g.DefaultCases("") != "" {
			if _, err := g.Cases(g.DefaultCases("")); err != nil {
				t.Fatalf("accepted cases that do not expand: %v", err)
			}
		}
	})
}

// A direct referee of up to 3 players in a game of 2 gets -p1 and -p2
// only, no -p3 with an empty command.
func TestDirectArgsFollowThePlayers(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not found")
	}
	// The referee scores both players with the number of its arguments.
	path := writeFile(t, `{"name": "argc", "protocol": "direct", "referee": "sh -c 'echo $#; echo $#; echo $#' sh", "min_players": 2, "max_players": 3}`)
	g := resolve(t, path)
	reg := contract.NewRegistry()
	reg.RegisterGame(g)
	bot, err := entrant.Parse(reg, "argc", "cmd:true")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := bot.Player(1, bot.Label())
	if err != nil {
		t.Fatal(err)
	}
	out, err := g.Play(t.Context(), contract.Case{ID: "seed:1", Seed: 1}, []contract.Player{pl, pl}, contract.PlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// -p1 C1 -p2 C2 -d seed=1 -l LOG: 8 words.
	if got := out.Seats[0].Score; got != 8 {
		t.Errorf("the referee got %v arguments, want 8 (two -pK pairs)", got)
	}
}
