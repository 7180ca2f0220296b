package games

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/internal/testbot"
	"gauntlet/referees/hextris"
)

// runTool runs a tool of a registered game with args and returns its
// stdout, stderr and error.
func runTool(t *testing.T, game, verb string, args ...string) (string, string, error) {
	t.Helper()
	g, err := contract.Default.Game(game)
	if err != nil {
		t.Fatal(err)
	}
	tool, err := contract.FindTool(g, verb)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err = tool.Run(context.Background(), cli.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args)
	return out.String(), errb.String(), err
}

// problem3 is problem 3 of the qualifier (five source seeds), as the
// contest gave it.
var problem3 = filepath.Join("..", "referees", "hextris", "data", "problems", "problem_3.json")

// problem11 is the smallest problem of the qualifier with five source
// seeds (10×10, 50 units a seed).
var problem11 = filepath.Join("..", "referees", "hextris", "data", "problems", "problem_11.json")

// problem21 is the smallest problem of the qualifier (10×8, one seed, 20
// units): for tests of the command line rather than of the solving.
var problem21 = filepath.Join("..", "referees", "hextris", "data", "problems", "problem_21.json")

// solveAndScore runs 'hextris solve' on problem (a file) with the given
// extra arguments, then scores the written file with 'hextris score --json' and
// returns the per-seed results.
func solveAndScore(t *testing.T, problem string, args ...string) []hexSeedOut {
	t.Helper()
	out, errb, err := runTool(t, "hextris", "solve", append([]string{"-f", problem}, args...)...)
	if err != nil {
		t.Fatalf("solve: %v: %s", err, errb)
	}
	sol := filepath.Join(t.TempDir(), "solutions.json")
	if err := os.WriteFile(sol, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	js, errb, err := runTool(t, "hextris", "score", sol, "--json")
	if err != nil {
		t.Fatalf("score: %v: %s", err, errb)
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
	seeds := solveAndScore(t, problem11, "--strategy", "hexgreedy", "-c", "2")
	if len(seeds) != 5 {
		t.Fatalf("%d seeds scored, want 5", len(seeds))
	}
	for _, s := range seeds {
		if s.Error != "" || s.Reason != "" || s.EndState == "playing" || s.Score <= 0 {
			t.Errorf("seed %d: %+v", s.Seed, s)
		}
	}
}

// TestHextrisSolveBudgetGivesWholeGames: under a time limit far below
// what a wide search needs for five seeds (a minute or more each), every
// seed still gets a whole game (the time is shared among the games, and a
// quick game is kept when the full search runs out of time). Whether the
// quick games fit depends on the machine's load, so it runs with the
// exact-budget tests, alone.
func TestHextrisSolveBudgetGivesWholeGames(t *testing.T) {
	testbot.Exact(t)
	seeds := solveAndScore(t, problem3, "-t", "20", "-c", "2", "--param", "beam=32", "--param", "beam_deep=32", "--param", "nodes=10000000")
	if len(seeds) != 5 {
		t.Fatalf("%d seeds scored, want 5", len(seeds))
	}
	for _, s := range seeds {
		if s.Error != "" || s.EndState == "playing" || s.Score <= 0 {
			t.Errorf("seed %d: %+v", s.Seed, s)
		}
	}
}

// TestHextrisToolsRefuseBadValues: every numeric flag of the tools is
// checked before a game starts (a usage error naming the value), and its
// valid twin passes.
func TestHextrisToolsRefuseBadValues(t *testing.T) {
	for _, c := range []struct {
		bad  []string
		want string
		good []string
	}{
		{[]string{"-t", "-5"}, "-t -5: want a time limit in seconds >= 0", []string{"-t", "30"}},
		{[]string{"-t", "NaN"}, "-t NaN", []string{"-t", "0"}},
		{[]string{"-t", "+Inf"}, "-t +Inf", []string{"-t", "1e3"}},
		{[]string{"-c", "0"}, "-c 0: want at least 1 core", []string{"-c", "1"}},
		{[]string{"-c", "-2"}, "-c -2", []string{"-c", "2"}},
		{[]string{"-m", "-1"}, "-m -1", []string{"-m", "0"}},
		{[]string{"--even", "1.5"}, "--even 1.5: want a share of the time in [0, 1]", []string{"--even", "1"}},
		{[]string{"--even", "NaN"}, "--even NaN", []string{"--even", "0"}},
		{[]string{"--strategy", "nope"}, `unknown strategy "nope"`, []string{"--strategy", "hexgreedy"}},
		{[]string{"--param", "bogus=1"}, `bogus`, []string{"--param", "phrase_dp=0"}},
		{[]string{"--phrases", "bogus"}, `--phrases: unknown phrase set "bogus"`, []string{"--phrases", "custom"}},
		{[]string{"--phrases", "none", "-p", "ei!"}, "-p and --phrases both given", []string{"-p", "ei!"}},
	} {
		base := []string{"-f", problem21, "--strategy", "hexgreedy"}
		if slices.Contains(c.bad, "--strategy") {
			base = base[:2] // a flag is given once
		}
		_, _, err := runTool(t, "hextris", "solve", append(base, c.bad...)...)
		if !cli.IsUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("solve %v: %v; want a usage error with %q", c.bad, err, c.want)
		}
		if out, errb, err := runTool(t, "hextris", "solve", append(base, c.good...)...); err != nil || !strings.Contains(out, `"solution"`) {
			t.Errorf("solve %v (the valid twin): %v %s", c.good, err, errb)
		}
	}
	if _, _, err := runTool(t, "hextris", "score"); !cli.IsUsage(err) {
		t.Errorf("score without a file: %v; want a usage error", err)
	}
	if _, _, err := runTool(t, "hextris", "score", "--phrases", "bogus", "x.json"); !cli.IsUsage(err) {
		t.Errorf("score --phrases bogus: %v; want a usage error", err)
	}
	if _, _, err := runTool(t, "hextris", "score", "--md", t.TempDir(), "x.json"); !cli.IsUsage(err) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("score --md DIR: %v; want a usage error", err)
	}
}

// overrunSolver ignores its context for the first game (running over the
// whole time limit) and records how much time each game was given.
type overrunSolver struct {
	first time.Duration
	given *[]time.Duration
}

func (s overrunSolver) Solve(ctx context.Context, p *hextris.Problem, seed uint32, _ hextris.PhraseSet) (string, error) {
	dl, ok := ctx.Deadline()
	if !ok {
		return "", fmt.Errorf("problem %d: no deadline", p.ID)
	}
	*s.given = append(*s.given, time.Until(dl))
	if len(*s.given) == 1 {
		time.Sleep(s.first)
	}
	return "", nil
}

// TestSolveCasesFloor: with a time limit, a game started after the games
// before it used up the limit still gets its even part of the limit (time
// for its quick complete game); with --even 0 it gets none.
func TestSolveCasesFloor(t *testing.T) {
	g, err := contract.Default.Game("hextris")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := g.Cases("problem:10,29,30")
	if err != nil || len(cs) != 3 {
		t.Fatalf("%d cases, %v", len(cs), err)
	}
	const seconds = 0.2
	for _, even := range []float64{0.5, 0} {
		var given []time.Duration
		build := func() (hextris.Solver, error) {
			return overrunSolver{first: 250 * time.Millisecond, given: &given}, nil
		}
		if _, err := solveCases(context.Background(), cs, build, seconds, even, 1); err != nil {
			t.Fatal(err)
		}
		floor := time.Duration(seconds * 0.9 * even / 3 * float64(time.Second))
		if len(given) != 3 {
			t.Fatalf("even %v: %d games played", even, len(given))
		}
		for i, d := range given[1:] {
			if even > 0 && d < floor*3/4 || even == 0 && d > 0 {
				t.Errorf("even %v: game %d after the overrun was given %v; want about the floor %v", even, i+2, d, floor)
			}
		}
	}
}

// TestHextrisKeepsWhatTheRefereeRead: of a solution far longer than its
// game, the outcome, the record and the moves keep only the prefix the
// referee read (up to the first command after the end of the game), which
// replays to the same result, and say how many characters were ignored.
func TestHextrisKeepsWhatTheRefereeRead(t *testing.T) {
	p, err := hextris.Official(21)
	if err != nil {
		t.Fatal(err)
	}
	power, err := hextris.OfficialPhrases("power")
	if err != nil {
		t.Fatal(err)
	}
	c := hexCaseOf(p, p.SourceSeeds[0], power)
	const n = 1 << 20 // 'a' moves south-west: units drop and lock until the game ends
	dir := t.TempDir()
	solver := filepath.Join(dir, "long.sh")
	script := `#!/bin/sh
. ` + filepath.Join(testbotDir(t), "common.sh") + `
printf '[{"problemId":%s,"seed":%s,"solution":"' "$id" "$seed"
head -c ` + fmt.Sprint(n) + ` /dev/zero | tr '\0' a
printf '"}]\n'
`
	if err := os.WriteFile(solver, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ent, err := entrant.Parse(contract.Default, "hextris", "cmd:"+solver)
	if err != nil {
		t.Fatal(err)
	}
	var rec bytes.Buffer
	g := mustGame(t, "hextris")
	pl, err := ent.Player(0, ent.Label())
	if err != nil {
		t.Fatal(err)
	}
	out, err := g.Play(context.Background(), c, []contract.Player{pl}, contract.PlayOptions{Record: &rec, RecordMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	sol, _ := out.Detail["solution"].(string)
	ignored, _ := out.Detail["ignored_chars"].(int)
	if len(sol) == 0 || len(sol) >= 10000 || len(sol)+ignored != n || out.Detail["error"] != "command-after-end" {
		t.Fatalf("kept %d characters, %d ignored, error %v; want the game's prefix and the rest counted", len(sol), ignored, out.Detail["error"])
	}
	if len(out.Moves) > len(sol)+2 || rec.Len() > 20000 {
		t.Fatalf("moves of %d bytes, record of %d: the whole text was kept", len(out.Moves), rec.Len())
	}
	if a := out.Seats[0].Answers; a.Ignored != 1 || !strings.Contains(a.IgnoredFirst, fmt.Sprintf("last %d characters", ignored)) {
		t.Fatalf("answers %+v; want the ignored characters said", a)
	}
	again := hextris.Play(p, p.SourceSeeds[0], power, sol)
	if again.Error != "command-after-end" || again.MovesExecuted != out.Turns || again.MoveScore != out.Detail["move_score"] || again.PowerScore != out.Detail["power_score"] {
		t.Fatalf("the kept prefix replays to %+v; the outcome said %v", again, out.Detail)
	}
}

// testbotDir is the directory of the hextris test solvers.
func testbotDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "referees", "hextris", "testdata", "solvers"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
