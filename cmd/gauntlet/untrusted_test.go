package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileName is a run name as an attacker writes it: a formula, a cell
// separator, HTML, a screen clear, NUL and a line break.
const hostileName = "=HYPERLINK(\"http://x\")|<script>alert(1)</script>\x1b[2J\x00\nsecond line"

// rawProblem says what in out must not be there, or "" when nothing;
// newlines are the output's own.
func rawProblem(out string) string {
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

// TestRunsTablesQuoteNames: a stored run whose name holds a line break, a
// formula, | and HTML is listed by runs on one line of the terminal table,
// as one Markdown row without markup and as one CSV row whose cell a
// spreadsheet reads as text.
func TestRunsTablesQuoteNames(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	if _, stderr, code := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "skill:skill=6", "--opponents", "skill",
		"--cases", "seeds:2", "--storage", db, "--run", hostileName, "--json", "--quiet"); code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	out, stderr, code := gauntlet(t, dir, "runs", "--storage", db, "--md", "runs.md", "--csv", "runs.csv")
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, stderr)
	}
	escaped := `\x1b[2J\x00\nsecond line`
	if p := rawProblem(out); p != "" || !strings.Contains(out, escaped) {
		t.Errorf("runs table: %s, want the name escaped on one line:\n%q", p, out)
	}
	md, err := os.ReadFile(filepath.Join(dir, "runs.md"))
	if err != nil {
		t.Fatal(err)
	}
	if p := rawProblem(string(md)); p != "" || strings.Contains(string(md), "<script") {
		t.Errorf("runs.md: %s or raw HTML:\n%s", p, md)
	}
	var rows []string
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 || !strings.Contains(rows[2], `\|&lt;script&gt;`) || strings.Count(rows[0], "|") != strings.Count(rows[2], "|")-1 {
		t.Errorf("runs.md rows (header, rule, the run; the run's | escaped):\n%s", strings.Join(rows, "\n"))
	}
	f, err := os.Open(filepath.Join(dir, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || !strings.HasPrefix(recs[1][0], `'=HYPERLINK("http://x")|<script>`) || !strings.HasSuffix(recs[1][0], escaped) {
		t.Errorf("runs.csv = %q, want the name as text after a quote, escaped", recs)
	}
}

// TestTableFileWriteErrors: a --csv or --md file that cannot be written
// (a full disk) fails the command, naming the flag and the file.
func TestTableFileWriteErrors(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	for _, flag := range []string{"--csv", "--md"} {
		_, stderr, code := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "skill", "--opponents", "skill",
			"--cases", "seeds:2", "--storage", "none", "--quiet", flag, "/dev/full")
		if code != 1 || !strings.Contains(stderr, flag+": writing /dev/full: ") {
			t.Errorf("%s /dev/full: exit %d, stderr %q; want 1 and the flag and the file named", flag, code, stderr)
		}
	}
}

// TestErrorsQuoteWhatTheyEmbed: a command's error that embeds a bot's
// text reaches the terminal escaped; its own line breaks stay.
func TestErrorsQuoteWhatTheyEmbed(t *testing.T) {
	const name = "test-hostile-error"
	commands[name] = &command{name: name, run: func(context.Context, *env, []string) error {
		return errors.New("the bot forfeited all 2 games: stderr: \x1b]0;PWNED\a\x1b[2J\x00\xff\u202e\nsecond line")
	}}
	t.Cleanup(func() { delete(commands, name) })
	_, stderr, code := inProcess(t, name)
	want := "gauntlet " + name + `: the bot forfeited all 2 games: stderr: \x1b]0;PWNED\a\x1b[2J\x00\xff\u202e` + "\nsecond line\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr, want)
	}
}
