package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// view of a relayed referee's game, stored by eval or played anew, writes
// its transcript page: the lines each player was sent and answered, its
// stderr and the referee's verdict, with a bot's markup and terminal
// escapes as text.
func TestRefereeViewTranscript(t *testing.T) {
	td := refData(t)
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "g.db")
	game := raceGame(td) + " --chatty"
	_, stderr, code := gauntlet(t, dir, "eval", "--game", game, "--strategy", raceBot(td, "3 --talk"),
		"--opponent", raceBot(td, "1 --html"), "--cases", "seeds:2", "--storage", db, "--run", "race", "--quiet")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"view", "--run", "race", "--case", "seed:1", "--storage", db, "--out", "stored.html"},
		{"view", "--game", game, "--case", "seed:1", "--strategy", raceBot(td, "3 --talk"), "--opponent", raceBot(td, "1 --html"), "--out", "live.html"},
	} {
		out := args[len(args)-1]
		_, stderr, code := gauntlet(t, dir, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		// Seed 1: two rounds of two answers, a start and a verdict.
		if !strings.Contains(stderr, "seed:1: ") || !strings.Contains(stderr, "6 frames; open "+out) {
			t.Errorf("%s: stderr %q", out, stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, want := range []string{
			`"sent":["6 0"],"answered":["3"]`,
			`"answered":["\u003cscript\u003ealert(1)\u003c/script\u003e\u0026amp;\\x1b[2J"]`,
			`"stderr":["bot: turn 1 at 0"]`,
			`"end":"###End 0 1"`,
			`"from":"error","lines":["1 bad answer`,
			"function gauntletRenderer",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s does not hold %s", out, want)
			}
		}
		if strings.Contains(page, "<script>alert") || strings.Contains(page, "\x1b") {
			t.Errorf("%s holds the bot's markup or escape as it is", out)
		}
	}
}
