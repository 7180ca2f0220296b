package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// rawControl says what in out a terminal or a file must not get from a
// bot (an escape sequence, NUL, a byte that is not UTF-8, a bidi
// override), or "" when nothing; newlines and tabs are the output's own.
func rawControl(out string) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || 0x80 <= r && r < 0xa0 || r == '\u202e' {
			return fmt.Sprintf("control character %U", r)
		}
	}
	return ""
}

// TestHostileStderrIsQuoted: a bot that crashes after writing a terminal
// title, a screen clear, NUL, a bad byte, a bidi override, HTML and a
// formula to its stderr forfeits, and that text reaches neither the
// terminal of eval, ab and play nor the --csv and --md files nor any file
// of the report raw: it is shown escaped.
func TestHostileStderrIsQuoted(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "hostile.sh")
	script := fmt.Sprintf("#!/bin/sh\n. %q\nturn\nprintf '=HYPERLINK(1)|<script>x</script>\\033]0;PWNED\\007\\033[2J\\000\\377\\342\\200\\256\\n' >&2\nexit 3\n",
		testBot(t, "brew", "bots", "common.sh"))
	if err := os.WriteFile(bot, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	shown := `stderr: =HYPERLINK(1)|<script>x</script>\x1b]0;PWNED\a\x1b[2J\x00\xff\u202e`
	db := "sqlite:" + filepath.Join(dir, "r.db")
	check := func(what, out string, wantShown bool) {
		t.Helper()
		if p := rawControl(out); p != "" {
			t.Errorf("%s: %s:\n%q", what, p, out)
		}
		if wantShown && !strings.Contains(out, shown) {
			t.Errorf("%s does not show the stderr escaped (%s):\n%s", what, shown, out)
		}
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"eval", []string{"eval", "--game", "brew", "--strategy", "cmd:" + bot, "--opponents", "random", "--cases", "seeds:2",
			"--storage", db, "--run", "hostile", "--csv", "eval.csv", "--md", "eval.md"}},
		{"ab", []string{"ab", "--game", "brew", "--a", "cmd:" + bot, "--b", "greedy", "--games", "2", "--storage", "none", "--cases-table"}},
		{"play", []string{"play", "--game", "brew", "--case", "seed:1", "--entrants", "random", "--entrant", "cmd:" + bot}},
		{"report", []string{"report", "--run", "hostile", "--storage", db, "--out", "rep"}},
	} {
		out, stderr, code := gauntlet(t, dir, c.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		check(c.name+" stdout", out, true)
		check(c.name+" stderr", stderr, false)
	}
	files := []string{"eval.csv", "eval.md"}
	err := filepath.WalkDir(filepath.Join(dir, "rep"), func(path string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() && filepath.Ext(path) != ".png" {
			rel, _ := filepath.Rel(dir, path) // path is under dir
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 6 {
		t.Fatalf("files to check: %v; want the tables and the report's", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		check(f, string(b), false)
		if filepath.Ext(f) == ".md" || filepath.Ext(f) == ".html" {
			if strings.Contains(string(b), "<script>x") {
				t.Errorf("%s holds the bot's <script> raw", f)
			}
		}
	}
}
