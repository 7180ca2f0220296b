package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/results"
	"gauntlet/workflow"
)

func TestRunsListsStoredRuns(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	out, stderr, code := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "skill:skill=6", "--opponents", "skill",
		"--cases", "seeds:12", "--storage", db, "--run", "first", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var ev results.EvalSummary
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	ab := abRun(t, dir, db, "second", "skill:skill=8")

	out, stderr, code = gauntlet(t, dir, "runs", "--storage", db, "--json")
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, stderr)
	}
	var list []workflow.RunInfo
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "first" || list[1].ID != "second" {
		t.Fatalf("runs = %+v, want first and second, oldest first", list)
	}
	e, a := list[0], list[1]
	if e.Kind != "eval" || e.Games != ev.Games || e.Status != "complete" || strings.Join(e.Entrants, ",") != "skill:skill=6,skill" {
		t.Errorf("eval run listed as %+v", e)
	}
	if a.Kind != "ab" || a.Games != ab.Games || strings.Join(a.Entrants, ",") != "skill:skill=8,skill" {
		t.Errorf("ab run listed as %+v", a)
	}
	if e.Planned != 12 || a.Planned != 16 { // seeds:12; --games 16
		t.Errorf("planned games: eval %d, ab %d; want 12 and 16", e.Planned, a.Planned)
	}
	if want := fmt.Sprintf("score %.3f, Elo %+.1f", ab.Score, ab.Elo); !strings.HasPrefix(a.Result, want) {
		t.Errorf("ab result %q, want it to start with %q", a.Result, want)
	}
	if !strings.HasPrefix(e.Result, "mean ") {
		t.Errorf("eval result %q", e.Result)
	}

	// A run that is not there names those that are, newest first.
	if _, stderr, code := gauntlet(t, dir, "report", "--run", "nope", "--storage", db, "--out", filepath.Join(dir, "rep")); code == 0 ||
		!strings.Contains(stderr, `no run "nope"`) || !strings.Contains(stderr, "(stored: second, first)") {
		t.Errorf("report of a missing run: exit %d, %s", code, stderr)
	}
	out, _, code = gauntlet(t, dir, "runs", "--storage", db)
	if code != 0 || !strings.Contains(out, "skill:skill=8 vs skill") || !strings.Contains(out, "first") {
		t.Errorf("runs table (exit %d):\n%s", code, out)
	}
	out, _, code = gauntlet(t, dir, "runs", "--storage", db, "--game", "dent", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("runs of a game with none: exit %d, %q", code, out)
	}
	for _, args := range [][]string{{"--game", "nope"}, {"--storage", "none"}, {"--storage", "sqlite://x.db"}, {"extra"}} {
		if _, stderr, code := gauntlet(t, dir, append([]string{"runs", "--storage", db}, args...)...); code != 2 {
			t.Errorf("runs %v: exit %d (%s), want 2", args, code, stderr)
		}
	}
	if _, stderr, code := gauntlet(t, dir, "runs", "--storage", "sqlite:"+filepath.Join(dir, "none.db")); code != 1 || !strings.Contains(stderr, "no database") {
		t.Errorf("runs of a missing store: exit %d, %s", code, stderr)
	}
}

// After an SPRT stop, ab's text, ab --json and runs give the same counts:
// counted + stored but not counted = stored, stored + abandoned = planned,
// and the games this process played plus those resumed are the stored ones.
func TestABStopCountsAgree(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	args := []string{"ab", "--game", "pips", "--a", "skill:skill=9", "--b", "skill:skill=1", "--games", "600", "--sprt", "0,10",
		"--jobs", "4", "--storage", db, "--run", "stop", "--quiet"}
	text, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("ab: exit %d: %s", code, stderr)
	}
	out, stderr, code := gauntlet(t, dir, "report", "--ab", "stop", "--storage", db, "--out", filepath.Join(dir, "rep"))
	if code != 0 {
		t.Fatalf("report: exit %d: %s\n%s", code, stderr, out)
	}
	out, stderr, code = gauntlet(t, dir, "runs", "--storage", db, "--json")
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, stderr)
	}
	var list []workflow.RunInfo
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("runs: %v %s", err, out)
	}
	r := list[0]
	var s results.ABSummary
	if err := json.Unmarshal(r.Summary, &s); err != nil {
		t.Fatal(err)
	}
	if !s.Stopped || r.Status != "stopped" || s.StoredGames == nil {
		t.Fatalf("stopped %v, status %s, stored %v: want an SPRT stop with the stored count", s.Stopped, r.Status, s.StoredGames)
	}
	stored := *s.StoredGames
	if stored != r.Games || s.Planned != 600 || r.Planned != 600 || s.Games+s.Uncounted != stored || stored+s.Abandoned != s.Planned {
		t.Fatalf("counts disagree: counted %d, stored %d (runs %d), uncounted %d, abandoned %d, planned %d (runs %d)",
			s.Games, stored, r.Games, s.Uncounted, s.Abandoned, s.Planned, r.Planned)
	}
	want := fmt.Sprintf("SPRT stopped at %d games (H1 accepted)", s.Games)
	if s.Uncounted > 0 {
		want += fmt.Sprintf("; %d more finished after the stop are stored but not counted", s.Uncounted)
	}
	want += fmt.Sprintf("; %d planned games abandoned", s.Abandoned)
	if !strings.Contains(text, want) {
		t.Errorf("ab text lacks %q:\n%s", want, text)
	}
	if want := fmt.Sprintf("run stop: %d games stored of 600 planned (%d played by this process, 0 resumed)", stored, stored); !strings.Contains(text, want) {
		t.Errorf("ab text lacks %q:\n%s", want, text)
	}
	if s.Uncounted > 0 && (r.Counted == nil || *r.Counted != s.Games) {
		t.Errorf("runs counted %v, want %d", r.Counted, s.Games)
	}
	out, _, _ = gauntlet(t, dir, "runs", "--storage", db)
	if want := fmt.Sprintf("SPRT H1 at %d games", s.Games); !strings.Contains(out, want) {
		t.Errorf("runs table lacks %q:\n%s", want, out)
	}
	t.Logf("counted %d, stored %d, planned %d", s.Games, stored, s.Planned)
}
