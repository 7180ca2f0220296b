package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// solveAndScore runs 'hextris solve' on problem 3 (five source seeds) with
// the given extra arguments, then scores the written file with 'hextris
// score --json' and returns the per-seed results.
func solveAndScore(t *testing.T, args ...string) []hexSeedOut {
	t.Helper()
	dir := t.TempDir()
	prob, err := filepath.Abs(filepath.Join("..", "..", "referees", "hextris", "data", "problems", "problem_3.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(prob); err != nil {
		t.Fatalf("problem file missing: %v", err)
	}
	out, errb, code := gauntlet(t, dir, append([]string{"hextris", "solve", "-f", prob}, args...)...)
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errb)
	}
	sol := filepath.Join(dir, "solutions.json")
	if err := os.WriteFile(sol, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	js, errb, code := gauntlet(t, dir, "hextris", "score", sol, "--json")
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, errb)
	}
	var doc hexScoreJSON
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Problems) != 1 {
		t.Fatalf("score --json: %v: %s", err, js)
	}
	return doc.Problems[0].PerSeed
}

// TestHextrisSolveThenScore: the contest command line writes a solution
// for every source seed, each one a whole game the referee accepts.
func TestHextrisSolveThenScore(t *testing.T) {
	seeds := solveAndScore(t, "--strategy", "hexgreedy", "-c", "2")
	if len(seeds) != 5 {
		t.Fatalf("%d seeds scored, want 5", len(seeds))
	}
	for _, s := range seeds {
		if s.Error != "" || s.Reason != "" || s.EndState == "playing" || s.Score <= 0 {
			t.Errorf("seed %d: %+v", s.Seed, s)
		}
	}
}

// TestHextrisSolveTimeLimitGivesWholeGames: under a time limit far below
// what a wide search needs for five seeds (a minute or more each), every
// seed still gets a whole game (the time is shared among the games, and a
// quick game is kept when the full search runs out of time).
func TestHextrisSolveTimeLimitGivesWholeGames(t *testing.T) {
	if testing.Short() {
		t.Skip("takes the time limit")
	}
	seeds := solveAndScore(t, "-t", "20", "-c", "2", "--param", "beam=32", "--param", "beam_deep=32", "--param", "nodes=10000000")
	for _, s := range seeds {
		if s.Error != "" || s.EndState == "playing" || s.Score <= 0 {
			t.Errorf("seed %d: %+v", s.Seed, s)
		}
	}
}
