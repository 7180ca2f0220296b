package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/reports"
	"gauntlet/tuning"
)

// gauntletIn runs the CLI with stdin.
func gauntletIn(t *testing.T, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestTestGameIsFullyUsable: a game registered only in this test binary
// (pips, fakegames_test.go) is listed with its abilities and tools, and its
// replay, tool and bot protocol work from the command line, with usage
// errors (exit 2) for bad arguments.
func TestTestGameIsFullyUsable(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := gauntlet(t, dir, "list", "--game", "pips")
	if code != 0 || !strings.Contains(out, "abilities: replay, replay reference data, bot protocol, tools") ||
		!strings.Contains(out, "tool: gauntlet pips sum — add the numbers on stdin") {
		t.Fatalf("list --game pips: exit %d\n%s%s", code, out, stderr)
	}
	js, _, code := gauntlet(t, dir, "list", "--json")
	var games []reports.GameListing
	if code != 0 || json.Unmarshal([]byte(js), &games) != nil {
		t.Fatalf("list --json: exit %d\n%s", code, js)
	}
	found := false
	for _, g := range games {
		if g.Name == "dent" {
			found = true
			if g.Direction != "lower is better" || !strings.Contains(strings.Join(g.Abilities, ","), contract.AbilityOptimum) {
				t.Errorf("list --json: dent %+v", g)
			}
		}
	}
	if !found {
		t.Error("list --json lacks the test game dent")
	}
	if _, help, _ := gauntlet(t, dir, "help"); !strings.Contains(help, "pips") || !strings.Contains(help, "sum") {
		t.Errorf("help does not list the test game's tools:\n%s", help)
	}

	// replay
	out, stderr, code = gauntletIn(t, dir, `{"rolls": [1, 5, 3]}`+"\n", "replay", "pipslow")
	if code != 0 || strings.TrimSpace(out) != `{"ranks":[1,3,2]}` {
		t.Errorf("replay pipslow: exit %d, %q %s", code, out, stderr)
	}
	// tool
	out, stderr, code = gauntletIn(t, dir, "1\n2.5\n", "pips", "sum", "--scale", "2")
	if code != 0 || strings.TrimSpace(out) != "7" {
		t.Errorf("pips sum: exit %d, %q %s", code, out, stderr)
	}
	// bot: the served strategy rolls as the built-in one does.
	out, stderr, code = gauntletIn(t, dir, "17 1\n", "bot", "pips", "skill:skill=3")
	want := strconv.FormatFloat(skilled{3}.Roll(17, 1), 'g', -1, 64)
	if code != 0 || strings.TrimSpace(out) != want {
		t.Errorf("bot pips: exit %d, %q (want %s) %s", code, out, want, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pips"}, "usage: gauntlet pips sum"},
		{[]string{"pips", "nope"}, `unknown pips tool "nope" (want sum)`},
		{[]string{"pips", "sum", "--scale", "0"}, "--scale 0: want a finite number > 0"},
		{[]string{"pips", "sum", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"replay", "tunetoy"}, "game tunetoy has no replay (games with one:"},
		{[]string{"replay", "pips", "extra"}, "replay pips takes no arguments"},
		{[]string{"bot", "dent", "dial"}, "game dent has no bot protocol here (games with one:"},
		{[]string{"bot", "pips", "nope"}, `unknown strategy "nope"`},
		{[]string{"bot", "pips", "cmd:sh"}, "external command"},
	} {
		_, stderr, code := gauntlet(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, stderr, c.want)
		}
	}
	if _, _, code := gauntlet(t, dir, "pips", "sum", "-h"); code != 0 {
		t.Errorf("pips sum -h: exit %d, want 0", code)
	}
	// The test game's bot plays as an external entrant: the same scores as
	// the built-in strategy.
	ext, stderr, code := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "cmd:"+os.Args[0]+" bot pips skill:skill=3",
		"--cases", "seeds:3", "--storage", "none", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("eval with the served bot: exit %d: %s", code, stderr)
	}
	in, _, _ := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "skill:skill=3", "--cases", "seeds:3", "--storage", "none", "--json", "--quiet")
	var se, si results.EvalSummary
	if json.Unmarshal([]byte(ext), &se) != nil || json.Unmarshal([]byte(in), &si) != nil || len(se.Cases) != 3 {
		t.Fatalf("eval --json:\n%s\n%s", ext, in)
	}
	for i := range se.Cases {
		if se.Cases[i].Score != si.Cases[i].Score || se.Cases[i].Forfeit != "" {
			t.Errorf("case %s: served bot %v (%s), built-in %v", se.Cases[i].Case, se.Cases[i].Score, se.Cases[i].Forfeit, si.Cases[i].Score)
		}
	}
}

// TestLowerIsBetterThroughTheCLI: with a game scored as a cost, eval shows
// the optimum and the gap, ab calls the lower scorer better (single-player
// and two-seat), tune minimises and finds the minimum, and the reports say
// so.
func TestLowerIsBetterThroughTheCLI(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "g.db")

	// eval: x = 5 costs 4 more than the optimum on every case.
	out, stderr, code := gauntlet(t, dir, "eval", "--game", "dent", "--strategy", "dial:x=5", "--cases", "seeds:6",
		"--storage", db, "--run", "ev", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var ev results.EvalSummary
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Direction == contract.Higher || ev.OptimumKnown == nil || *ev.OptimumKnown != 6 || *ev.AtOptimum != 0 || math.Abs(*ev.MeanGap-4) > 1e-9 {
		t.Fatalf("eval dent: lower %v optimum known %v at %v mean gap %v", ev.Direction == contract.Lower, ev.OptimumKnown, ev.AtOptimum, ev.MeanGap)
	}
	for _, c := range ev.Cases {
		if c.Optimum == nil || math.Abs(*c.Optimum-dentNoise(caseSeed(t, c.Case))) > 1e-12 || math.Abs(*c.Gap-4) > 1e-9 {
			t.Fatalf("case %s: optimum %v gap %v", c.Case, c.Optimum, c.Gap)
		}
	}
	text, _, _ := gauntlet(t, dir, "eval", "--game", "dent", "--strategy", "dial:x=3", "--cases", "seeds:6", "--storage", "none", "--quiet")
	for _, want := range []string{"lower is better", "optimum", "gap", "6 at the optimum", "mean gap 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("eval text lacks %q:\n%s", want, text)
		}
	}
	if _, help, _ := gauntlet(t, dir, "eval", "--game", "dent", "--strategy", "dial", "--no-optimum", "--storage", "none", "--json", "--quiet"); strings.Contains(help, "optimum_known") {
		t.Error("--no-optimum still computed the optimum")
	}
	_, head := runReportJSON(t, dir, "--run", "ev", "--out", filepath.Join(dir, "rep-ev"), "--storage", db)
	if !strings.Contains(strings.Join(head, "|"), "lower is better") || !strings.Contains(strings.Join(head, "|"), "0 of 6") {
		t.Errorf("eval report headline %v", head)
	}
	recs := reportCSV(t, filepath.Join(dir, "rep-ev", "cases.csv"))
	gap := reportColumn(t, recs[0], "gap")
	if recs[1][gap] != "4" {
		t.Errorf("eval report: gap %q, want 4", recs[1][gap])
	}

	// ab, single player: A has the lower costs, so A is better; the default
	// case set is the game's (seeds:12).
	out, stderr, code = gauntlet(t, dir, "ab", "--game", "dent", "--a", "dial:x=3", "--b", "dial:x=6", "--storage", "none", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("ab dent: exit %d: %s", code, stderr)
	}
	var ab results.ABSummary
	if err := json.Unmarshal([]byte(out), &ab); err != nil {
		t.Fatal(err)
	}
	if ab.Direction == contract.Higher || ab.CaseSet != "seeds:12" || *ab.BetterA != 12 || *ab.BetterB != 0 || math.Abs(*ab.MeanDiff+9) > 1e-9 {
		t.Fatalf("ab dent: lower %v cases %s better A %d B %d diff %v", ab.Direction == contract.Lower, ab.CaseSet, *ab.BetterA, *ab.BetterB, *ab.MeanDiff)
	}
	text, _, _ = gauntlet(t, dir, "ab", "--game", "dent", "--a", "dial:x=3", "--b", "dial:x=6", "--storage", "none", "--quiet")
	if !strings.Contains(text, "lower is better") || !strings.Contains(text, "A better on 12, B better on 0: A better") {
		t.Errorf("ab dent text:\n%s", text)
	}

	// ab, two seats: the lower roll wins, so the less skilled player wins.
	out, stderr, code = gauntlet(t, dir, "ab", "--game", "pipslow", "--a", "skill:skill=1", "--b", "skill:skill=9",
		"--games", "200", "--storage", db, "--run", "abl", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("ab pipslow: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &ab); err != nil {
		t.Fatal(err)
	}
	if ab.Wins <= 10*ab.Losses || ab.Score < 0.9 || ab.Elo <= 0 || ab.SPRT != "H1" {
		t.Fatalf("ab pipslow: +%d =%d -%d score %.3f elo %.1f sprt %s", ab.Wins, ab.Draws, ab.Losses, ab.Score, ab.Elo, ab.SPRT)
	}
	_, head = runReportJSON(t, dir, "--ab", "abl", "--out", filepath.Join(dir, "rep-ab"), "--storage", db)
	if !strings.Contains(strings.Join(head, "|"), fmt.Sprintf("+%d =%d −%d", ab.Wins, ab.Draws, ab.Losses)) {
		t.Errorf("ab report headline %v", head)
	}

	// tune minimises: the best x is near 3 and the improvement is default −
	// best, positive.
	out, stderr, code = gauntlet(t, dir, "tune", "--game", "dent", "--strategy", "dial", "--cases", "seeds:4", "--trials", "25",
		"--seed", "2", "--storage", db, "--study", "st", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("tune dent: exit %d: %s", code, stderr)
	}
	var sum tuning.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	x := sum.BestParams["x"].(float64)
	if sum.Direction == contract.Higher || math.Abs(x-3) > 0.6 || *sum.Improvement <= 0 || math.Abs(*sum.Improvement-(*sum.DefaultValue-*sum.BestValue)) > 1e-9 {
		t.Fatalf("tune dent: minimize %v best x %v value %v default %v improvement %v", sum.Direction == contract.Lower, x, *sum.BestValue, *sum.DefaultValue, *sum.Improvement)
	}
	for _, tr := range sum.Trials {
		if tr.State == tuning.StateComplete && *tr.Value < *sum.BestValue {
			t.Fatalf("trial %d costs %v, less than the best %v", tr.Number, *tr.Value, *sum.BestValue)
		}
	}
	t.Logf("tune dent: best x = %.3f, cost %.3f against the default's %.3f", x, *sum.BestValue, *sum.DefaultValue)
	text, _, _ = gauntlet(t, dir, "tune", "--game", "dent", "--strategy", "dial", "--cases", "seeds:4", "--trials", "25",
		"--seed", "2", "--storage", db, "--study", "st", "--quiet")
	if !strings.Contains(text, "improvement (default - best, lower is better") {
		t.Errorf("tune text:\n%s", text)
	}
	_, head = runReportJSON(t, dir, "--study", "st", "--out", filepath.Join(dir, "rep-st"), "--storage", db)
	if !strings.Contains(strings.Join(head, "|"), "minimised (lower is better)") || !strings.Contains(strings.Join(head, "|"), "|"+tuneNum(*sum.BestValue)+"|") {
		t.Errorf("study report headline %v (best %v)", head, *sum.BestValue)
	}
}

func tuneNum(x float64) string { return reports.Num(x) }

// caseSeed reads the seed of a "seed:N" case.
func caseSeed(t *testing.T, id string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(strings.TrimPrefix(id, "seed:"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFlagValuesAreChecked: every bad value is refused before any game
// starts (exit 2, a message naming the value and what is allowed), and its
// valid twin passes.
func TestFlagValuesAreChecked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"x": 3}`)
	eval := []string{"eval", "--game", "dent", "--strategy", "dial", "--cases", "seeds:2", "--storage", "none", "--quiet"}
	tune := []string{"tune", "--game", "dent", "--strategy", "dial", "--cases", "seeds:2", "--trials", "2", "--storage", "none", "--quiet"}
	ab := []string{"ab", "--game", "pips", "--a", "skill", "--b", "skill:skill=4", "--storage", "none", "--quiet"}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	for _, c := range []struct {
		bad  []string
		want string
		good []string
	}{
		{with(eval, "--jobs", "0"), "--jobs 0: want at least 1", with(eval, "--jobs", "1")},
		{with(eval, "--jobs", "-3"), "--jobs -3: want at least 1", with(eval, "--jobs", "3")},
		{with(eval, "--rows", "-1"), "--rows -1: want 0 (all) or more", with(eval, "--rows", "0")},
		{with(ab, "--jobs", "0"), "--jobs 0", with(ab, "--jobs", "2")},
		{[]string{"play", "--game", "pips", "--case", "seed:1", "--entrants", "skill,skill", "--jobs", "-1"}, "--jobs -1",
			[]string{"play", "--game", "pips", "--case", "seed:1", "--entrants", "skill,skill"}},
		{with(ab, "--games", "-2"), "--games -2: want a number of games >= 0", with(ab, "--games", "4")},
		{with(tune, "--jobs", "0"), "--jobs 0", with(tune, "--jobs", "2")},
		{with(tune, "--timeout", "-5s"), "--timeout -5s: want a duration of at least 0", with(tune, "--timeout", "5m")},
		{with(tune, "--space", ",,"), `--space ",,": name 1 is empty`, with(tune, "--space", "x")},
		{with(tune, "--space", "x,"), `--space "x,": name 2 is empty`, with(tune, "--space", "x")},
		{with(tune, "--chunk", "-1"), "--chunk -1: want at least 0", with(tune, "--chunk", "1")},
		{with(tune, "--fillers", "dial"), "fillers: game dent is single-player: no fillers", tune},
		{[]string{"tune", "--game", "pips", "--strategy", "skill", "--opponents", "skill", "--fillers", "skill", "--cases", "seeds:2", "--trials", "1", "--storage", "none", "--quiet"},
			"fillers: game pips has two seats: no other seats to fill",
			[]string{"tune", "--game", "pips", "--strategy", "skill", "--opponents", "skill", "--cases", "seeds:2", "--trials", "1", "--storage", "none", "--quiet"}},
		{with(tune, "--heartbeat", "5ms"), "--heartbeat 5ms: want at least 100ms", with(tune, "--heartbeat", "1s")},
		{with(tune[:7], "--trials", "-4", "--storage", "none"), "--trials -4: want at least 1", with(tune[:7], "--trials", "1", "--storage", "none")},
		{with(tune, "--pruner", "wilcoxon", "--prune-p", "0.7"), "--prune-p 0.7: want a one-sided p-value in (0, 0.5)", with(tune, "--pruner", "wilcoxon", "--prune-p", "0.05")},
		{with(tune, "--pruner", "wilcoxon", "--prune-p", "NaN"), "--prune-p NaN", with(tune, "--pruner", "wilcoxon")},
		{with(tune, "--pruner", "wilcoxon", "--prune-min", "0"), "--prune-min 0: want at least 1", with(tune, "--pruner", "wilcoxon", "--prune-min", "3")},
		{with(tune, "--pruner", "median", "--prune-p", "0.05"), "--prune-p applies only to --pruner wilcoxon", with(tune, "--pruner", "median")},
		{with(tune, "--sampler", "grid"), `unknown sampler "grid"`, with(tune, "--sampler", "random")},
		{with(tune, "--best-json", filepath.Join(dir, "no-dir", "b.json")), "--best-json " + filepath.Join(dir, "no-dir", "b.json") + ": directory " + filepath.Join(dir, "no-dir") + ": no such file",
			with(tune, "--best-json", filepath.Join(dir, "b.json"))},
		{with(eval, "--csv", dir), "--csv " + dir + ": is a directory", with(eval, "--csv", filepath.Join(dir, "t.csv"))},
		{with(ab, "--md", filepath.Join(dir, "good.json", "t.md")), "is not a directory", with(ab, "--md", filepath.Join(dir, "t.md"))},
		{[]string{"list", "--game", "nope"}, `--game: unknown game "nope"`, []string{"list", "--game", "dent"}},
		// params files
		{with(eval, "--params-file", write("null.json", "null")), "holds null; want a JSON object of parameter values", with(eval, "--params-file", good)},
		{with(eval, "--params-file", write("num.json", "5")), "holds a number; want a JSON object", with(eval, "--params-file", good)},
		{with(eval, "--params-file", write("arr.json", "[1]")), "holds an array", with(eval, "--params-file", good)},
		{with(eval, "--params-file", write("h.json", "hello")), "not JSON: invalid character 'h' at line 1, column 1", with(eval, "--params-file", good)},
		{with(eval, "--params-file", write("l3.json", "{\n  \"x\": 3,\n  \"x\" 4\n}")), "at line 3, column 7", with(eval, "--params-file", good)},
		{with(eval, "--params-file", write("cut.json", `{"x": 3`)), "not JSON: unexpected end of JSON input at line 1, column 7", with(eval, "--params-file", good)},
		{with(eval, "--params-file", write("inner.json", `{"params": null}`)), `"params" holds null`, with(eval, "--params-file", write("best.json", `{"params": {"x": 3}}`))},
		{with(eval, "--params-file", write("val.json", `{"x": null}`)), `parameter "x" holds null; want a number, a string or a boolean`, with(eval, "--params-file", good)},
		{with(eval, "--params-file", filepath.Join(dir, "none.json")), "none.json: no such file", with(eval, "--params-file", good)},
		{with(eval, "--params-file", dir), "is a directory", with(eval, "--params-file", good)},
		{with(tune, "--params-file", filepath.Join(dir, "null.json")), "holds null", with(tune, "--params-file", good)},
		{with(ab, "--a-params-file", filepath.Join(dir, "null.json")), "--a-params-file: params file", with(ab, "--a-params-file", write("skill.json", `{"skill": 2}`))},
		{[]string{"bot", "pips", "skill", "--params-file", filepath.Join(dir, "h.json")}, "not JSON", []string{"bot", "pips", "skill", "--params-file", filepath.Join(dir, "skill.json")}},
	} {
		_, stderr, code := inProcess(t, c.bad...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.bad, code, stderr, c.want)
		}
		if _, stderr, code := inProcess(t, c.good...); code != 0 {
			t.Errorf("%v (the valid twin): exit %d: %s", c.good, code, stderr)
		}
	}
}

// TestUnreadableFileSaysPermissionDenied: a file that exists but cannot be
// read is "permission denied", not "not found".
func TestUnreadableFileSaysPermissionDenied(t *testing.T) {
	pe := &fs.PathError{Op: "open", Path: "p.json", Err: syscall.EACCES}
	if got := cli.FileProblem(pe); got != "permission denied" {
		t.Errorf("cli.FileProblem(EACCES) = %q", got)
	}
	if got := cli.FileProblem(&fs.PathError{Op: "open", Path: "p.json", Err: syscall.ENOENT}); got != "no such file" {
		t.Errorf("cli.FileProblem(ENOENT) = %q", got)
	}
	if os.Geteuid() == 0 {
		t.Log("running as root: file modes do not stop reads, so only the error mapping is checked")
		return
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(p, []byte(`{"x": 3}`), 0); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := gauntlet(t, dir, "eval", "--game", "dent", "--strategy", "dial", "--params-file", p, "--storage", "none")
	if code != 2 || !strings.Contains(stderr, "permission denied") {
		t.Errorf("unreadable params file: exit %d, %q", code, stderr)
	}
	db := filepath.Join(dir, "locked.db")
	if err := os.WriteFile(db, nil, 0); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = gauntlet(t, dir, "report", "--run", "x", "--out", filepath.Join(dir, "o"), "--storage", "sqlite:"+db)
	if code == 0 || !strings.Contains(stderr, "permission denied") || strings.Contains(stderr, "no database") {
		t.Errorf("unreadable database: exit %d, %q", code, stderr)
	}
}

// TestEvalRowsCapsTheTerminalTable: --rows shows that many per-case rows
// and counts the rest; the CSV keeps every row.
func TestEvalRowsCapsTheTerminalTable(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "t.csv")
	out, stderr, code := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "skill", "--opponents", "skill",
		"--cases", "seeds:30", "--storage", "none", "--quiet", "--rows", "4", "--csv", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "seed:4 ") || strings.Contains(out, "seed:5 ") || !strings.Contains(out, "… and 26 more cases") {
		t.Errorf("--rows 4:\n%s", out)
	}
	data, err := os.ReadFile(csv)
	if err != nil || !strings.Contains(string(data), "seed:30,") {
		t.Errorf("the CSV lost rows (%v):\n%s", err, data)
	}
}
