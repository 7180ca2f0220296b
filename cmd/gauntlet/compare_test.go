package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/results"
)

// abRun stores an ab run of pips and returns its summary.
func abRun(t *testing.T, dir, db, name, a string) results.ABSummary {
	t.Helper()
	out, stderr, code := gauntlet(t, dir, "ab", "--game", "pips", "--a", a, "--b", "skill", "--games", "16",
		"--storage", db, "--run", name, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("ab %s: exit %d: %s", a, code, stderr)
	}
	var s results.ABSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func compareJSON(t *testing.T, dir string, args ...string) results.Comparison {
	t.Helper()
	out, stderr, code := gauntlet(t, dir, append([]string{"compare", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("compare %v: exit %d: %s", args, code, stderr)
	}
	var c results.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompareEndToEnd(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "c.db")
	v1 := abRun(t, dir, db, "v1", "skill:skill=4")
	v2 := abRun(t, dir, db, "v2", "skill:skill=8")

	c := compareJSON(t, dir, "--base", "v1", "--run", "v2", "--storage", db)
	if c.Common != v1.Games || c.OnlyBase+c.OnlyRun != 0 {
		t.Fatalf("%d common games (%d/%d without a partner), want the %d of each run", c.Common, c.OnlyBase, c.OnlyRun, v1.Games)
	}
	// The points of each side are the ab runs' own scores.
	if c.Base.Points != v1.Score || c.Run.Points != v2.Score {
		t.Errorf("points %v → %v, want the ab scores %v → %v", c.Base.Points, c.Run.Points, v1.Score, v2.Score)
	}
	wins := 0
	for _, g := range c.Games {
		if g.Run.Rank == 1 && g.Run.Points == 1 {
			wins++
		}
	}
	if wins != v2.Wins {
		t.Errorf("%d games won in the run, ab says %d", wins, v2.Wins)
	}
	if c.Better <= c.Worse || c.Margin.Value <= 0 {
		t.Errorf("skill 8 against 4: %d better, %d worse, margin %+v", c.Better, c.Worse, c.Margin)
	}

	// The same entrants again, stored in another file: every game repeats.
	other := "sqlite:" + filepath.Join(dir, "other.db")
	abRun(t, dir, other, "v1again", "skill:skill=4")
	re := compareJSON(t, dir, "--base", "v1", "--base-storage", db, "--run", "v1again", "--storage", other)
	if re.Identical != re.Common || re.Better+re.Worse != 0 || re.SignP != 1 {
		t.Errorf("a rerun: %d identical of %d, %d changed, sign p %v", re.Identical, re.Common, re.Better+re.Worse, re.SignP)
	}
	if !strings.Contains(strings.Join(re.Notes, " "), "in both runs") {
		t.Errorf("notes %q do not say the first entrant is the same", re.Notes)
	}

	// Text: the changed games, then the headline; --md writes the table.
	md := filepath.Join(dir, "changed.md")
	out, stderr, code := gauntlet(t, dir, "compare", "--base", "v1", "--run", "v2", "--storage", db, "--md", md)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"games whose result changed", "sign test p", "better", "run − base"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
	page, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(page), "| seed:"); rows != c.Better+c.Worse {
		t.Errorf("--md table has %d game rows, want the %d changed games", rows, c.Better+c.Worse)
	}
}

func TestCompareBadInvocations(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "c.db")
	abRun(t, dir, db, "v1", "skill:skill=4")
	if _, stderr, code := gauntlet(t, dir, "eval", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:2",
		"--storage", db, "--run", "toy", "--quiet"); code != 0 {
		t.Fatalf("eval: %s", stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--run", "v1"}, 2, "--base and --run are required"},
		{[]string{"--base", "v1", "--run", "v1", "--storage", db}, 2, "same run"},
		{[]string{"--base", "v1", "--run", "v2", "--storage", "none"}, 2, "stored runs"},
		{[]string{"--base", "v1", "--run", "v2", "--storage", db, "--base-storage", "mysql://x"}, 2, "--base-storage"},
		{[]string{"--base", "v1", "--run", "v2", "--storage", "sqlite:" + filepath.Join(dir, "none.db")}, 1, "no database"},
		{[]string{"--base", "v1", "--run", "nosuch", "--storage", db}, 1, `no run "nosuch"`},
		{[]string{"--base", "v1", "--run", "toy", "--storage", db}, 1, "only runs of one game"},
	} {
		_, stderr, code := gauntlet(t, dir, append([]string{"compare"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("compare %v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}
