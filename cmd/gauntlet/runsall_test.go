package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/workflow"
)

// TestRunsListsRunsAndStudies: runs lists an eval, an ab run with an SPRT,
// a tuning study and an SPSA study of one store in one table, oldest
// first, with the ab run's test and differing parameter and the study's
// best; tune --list and spsa --list still list their own.
func TestRunsListsRunsAndStudies(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	for _, args := range [][]string{
		{"eval", "--game", "pips", "--strategy", "skill:skill=6", "--opponents", "skill", "--cases", "seeds:4", "--run", "ev"},
		{"ab", "--game", "pips", "--a", "skill:skill=8", "--b", "skill", "--games", "400", "--sprt", "0,10", "--run", "sprt"},
		{"tune", "--game", "dent", "--strategy", "dial", "--cases", "seeds:2", "--trials", "3", "--study", "tu"},
		{"spsa", "--game", "spsatoy", "--strategy", "knob", "--games", "20", "--study", "sp"},
	} {
		if _, stderr, code := gauntlet(t, dir, append(args, "--storage", db, "--quiet", "--json")...); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
	}
	out, stderr, code := gauntlet(t, dir, "runs", "--storage", db, "--json")
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, stderr)
	}
	var list []workflow.RunInfo
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range list {
		kinds = append(kinds, r.Kind+":"+r.ID)
	}
	if strings.Join(kinds, " ") != "eval:ev ab:sprt tune:tu spsa:sp" {
		t.Fatalf("runs lists %v, want the eval, the ab run, the tuning and the SPSA study, oldest first", kinds)
	}
	ab, tu, sp := list[1], list[2], list[3]
	if ab.SPRT == nil || !ab.SPRT.Early || ab.SPRT.Elo1 != 10 || strings.Join(ab.Differs, ";") != "skill: 8 vs 5" {
		t.Errorf("ab run: sprt %+v, differs %q; want the early-stopping test and skill: 8 vs 5", ab.SPRT, ab.Differs)
	}
	if tu.Trials == nil || tu.Trials.All != 3 || tu.Best == nil || tu.BestTrial == nil || tu.Entrants[0] != "dial" {
		t.Errorf("tuning study listed as %+v", tu)
	}
	if sp.Games != 20 || sp.Planned != 20 || sp.Status != "complete" || len(sp.Differs) != 1 {
		t.Errorf("SPSA study listed as %+v", sp)
	}
	text, _, code := gauntlet(t, dir, "runs", "--storage", db)
	for _, want := range []string{"skill: 8 vs 5", "nElo [0, 10]", "early stop", "3 trials", "best ", "20 of 20 games", "tunes: "} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("runs table lacks %q:\n%s", want, text)
		}
	}
	for _, kind := range []string{"tune", "spsa"} {
		if out, stderr, code := gauntlet(t, dir, kind, "--list", "--storage", db); code != 0 || strings.Count(out, "\n") < 4 {
			t.Errorf("%s --list: exit %d: %s%s", kind, code, out, stderr)
		}
	}
}
