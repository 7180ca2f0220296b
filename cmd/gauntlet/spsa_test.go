package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/strategies/param"
	"gauntlet/tuning/spsa"
)

// spsatoy is a two-seat toy game registered in this test binary only: a
// bot's quality is −((x−7)/2)² − ((k−13)/4)² (best at x = 7, k = 13), each
// seat scores its quality plus normal noise from the case and player seeds,
// and the higher score wins. GAUNTLET_SPSATOY_DELAY slows every game down
// (kill tests).
type spsatoy struct{}

type spsatoyBot struct{ q float64 }

var spsatoyParams = param.Specs{
	{Name: "x", Kind: param.Float, Min: 0, Max: 10, Default: 2, Help: "best at 7"},
	{Name: "k", Kind: param.Int, Min: 0, Max: 20, Default: 2, Help: "best at 13"},
	{Name: "mode", Kind: param.Categorical, Choices: []string{"a", "b"}, Default: 0, Help: "no effect"},
}

func init() {
	contract.Default.RegisterGame(spsatoy{})
	contract.Default.RegisterStrategy(&contract.Strategy{Game: "spsatoy", Name: "knob", Doc: "toy strategy of the spsa tests",
		Params: spsatoyParams,
		New: func(v param.Values, seed uint64) (any, error) {
			if _, err := spsatoyParams.Validate(v); err != nil {
				return nil, err
			}
			return &spsatoyBot{q: spsatoyQuality(v["x"], v["k"])}, nil
		}})
}

func spsatoyQuality(x, k float64) float64 { return -math.Pow((x-7)/2, 2) - math.Pow((k-13)/4, 2) }

func (spsatoy) Info() contract.GameInfo {
	return contract.GameInfo{Name: "spsatoy", MinSeats: 2, MaxSeats: 2, Opponents: "knob", Direction: contract.Higher,
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}, {Name: "seeds:A-B", Doc: "seeds A..B"}}}
}

func (spsatoy) Cases(set string) ([]contract.Case, error) {
	rest, ok := strings.CutPrefix(set, "seeds:")
	lo, hi, rng := strings.Cut(rest, "-")
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if !rng {
		a, b, err2 = 1, a, nil
	}
	if !ok || err1 != nil || err2 != nil || a < 1 || b < a {
		return nil, fmt.Errorf("unknown spsatoy case set %q (known: seeds:N, seeds:A-B)", set)
	}
	var out []contract.Case
	for s := a; s <= b; s++ {
		out = append(out, contract.Case{ID: "seed:" + strconv.Itoa(s), Seed: uint64(s)})
	}
	return out, nil
}

func (spsatoy) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	if d, err := time.ParseDuration(os.Getenv("GAUNTLET_SPSATOY_DELAY")); err == nil && d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return contract.Outcome{}, ctx.Err()
		}
	}
	out := contract.Outcome{Seats: make([]contract.SeatResult, len(players))}
	for i, p := range players {
		b := p.Bot
		r := rand.New(rand.NewPCG(c.Seed, p.Seed))
		out.Seats[i].Score = b.(*spsatoyBot).q + r.NormFloat64()
	}
	contract.RanksByScore(out.Seats)
	return out, nil
}

// TestSPSAEndToEnd tunes the toy from a spoiled start, checks the summary,
// feeds --best-json to ab against the start on held-out seeds, resumes the
// finished study, and reports it.
func TestSPSAEndToEnd(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "s.db")
	best := filepath.Join(dir, "best.json")
	args := []string{"spsa", "--game", "spsatoy", "--strategy", "knob:mode=b", "--param", "x=0.5", "--param", "k=19", "--games", "4000",
		"--storage", db, "--study", "toy", "--jobs", "2", "--json", "--quiet"}
	out, stderr, code := gauntlet(t, dir, append(args, "--best-json", best)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s spsa.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if s.Applied != 2000 || !s.Complete || s.Wins+s.Draws+s.Losses != 4000 || !s.Reproducible || len(s.Params) != 2 {
		t.Fatalf("summary: applied %d complete %v W/D/L %d/%d/%d reproducible %v params %d", s.Applied, s.Complete, s.Wins, s.Draws, s.Losses, s.Reproducible, len(s.Params))
	}
	x, k := s.Final["x"].(float64), s.Final["k"].(float64) // JSON numbers
	if math.Abs(x-7) > 1 || math.Abs(k-13) > 2 || s.Final["mode"] != "b" {
		t.Fatalf("final x=%v k=%v mode=%v; want near 7 and 13, mode b kept", x, k, s.Final["mode"])
	}
	// The result beats the start on seeds the study never saw.
	abOut, stderr, code := gauntlet(t, dir, "ab", "--game", "spsatoy", "--a", "knob", "--a-params-file", best,
		"--b", "knob:x=0.5,k=19,mode=b", "--cases", "seeds:100001-100200", "--storage", "none", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("ab: exit %d: %s", code, stderr)
	}
	var ab results.ABSummary
	if err := json.Unmarshal([]byte(abOut), &ab); err != nil {
		t.Fatal(err)
	}
	if ab.Score < 0.9 || ab.SPRT != "H1" {
		t.Fatalf("ab of the result against the start: score %.3f, SPRT %s", ab.Score, ab.SPRT)
	}
	// Running the finished study again plays nothing and says the same.
	again, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("again: exit %d: %s", code, stderr)
	}
	var s2 spsa.Summary
	json.Unmarshal([]byte(again), &s2)
	if fmt.Sprint(s2.Params) != fmt.Sprint(s.Params) || s2.Applied != 2000 {
		t.Fatalf("the finished study changed: %+v\n%+v", s2.Params, s.Params)
	}
	// --holdout plays that same A/B once the budget is spent (here the
	// finished study's), stored beside the study: the same games as ab's.
	held := append(slices.Clone(args), "--holdout", "seeds:100001-100200")
	for run := 1; run <= 2; run++ {
		out, stderr, code := gauntlet(t, dir, held...)
		if code != 0 {
			t.Fatalf("--holdout (run %d): exit %d: %s", run, code, stderr)
		}
		var s3 spsa.Summary
		if err := json.Unmarshal([]byte(out), &s3); err != nil {
			t.Fatal(err)
		}
		h := s3.Holdout
		if h == nil || h.Wins != ab.Wins || h.Draws != ab.Draws || h.Losses != ab.Losses || h.Games != ab.Games {
			t.Fatalf("--holdout (run %d): %+v; ab of --best-json against the start: +%d =%d -%d in %d", run, h, ab.Wins, ab.Draws, ab.Losses, ab.Games)
		}
		if run == 2 && (h.StoredGames == nil || *h.StoredGames != ab.Games) {
			t.Errorf("--holdout again: %v games stored, want the %d of the first run", h.StoredGames, ab.Games)
		}
		if want := spsa.HoldoutRun("toy", "seeds:100001-100200"); h.Run != want {
			t.Errorf("--holdout stored as run %q, want %q", h.Run, want)
		}
	}
	for _, c := range []struct{ set, want string }{
		{"seeds:1991-2010", "--holdout seeds:1991-2010 shares 10 case(s) with the study's cases seeds:2000 (seed:1991 first)"},
		{"bogus", "--holdout: unknown spsatoy case set"},
	} {
		_, stderr, code := gauntlet(t, dir, append(slices.Clone(args), "--holdout", c.set)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--holdout %s: exit %d, stderr %q; want exit 2 and %q", c.set, code, stderr, c.want)
		}
	}

	// The terminal summary and the study list.
	text, _, code := gauntlet(t, dir, args[:len(args)-2]...)
	if code != 0 || !strings.Contains(text, "moved % of range") || !strings.Contains(text, "iterations: 2000 of 2000 applied") || !strings.Contains(text, "reproducible") {
		t.Fatalf("terminal summary: exit %d\n%s", code, text)
	}
	list, _, code := gauntlet(t, dir, "spsa", "--list", "--storage", db, "--json")
	var studies []spsa.StudyInfo
	if code != 0 || json.Unmarshal([]byte(list), &studies) != nil || len(studies) != 1 || studies[0].Applied != 2000 || !studies[0].Complete {
		t.Fatalf("spsa --list: exit %d\n%s", code, list)
	}

	// The report: the parameter table holds the summary's figures, the
	// trajectory ends at θ, every plot is drawn, the hold-out is the A/B's.
	repDir := filepath.Join(dir, "rep")
	files, head := runReportJSON(t, dir, "--study", "toy", "--out", repDir, "--storage", db)
	checkReportDir(t, repDir)
	for _, want := range []string{"params.csv", "trajectory.csv", "trajectory.svg", "trajectory.png", "param-x.png", "param-k.svg", "holdout.csv"} {
		if !strings.Contains(" "+strings.Join(files, " ")+" ", " "+want+" ") {
			t.Errorf("SPSA report lacks %s: %v", want, files)
		}
	}
	recs := reportCSV(t, filepath.Join(repDir, "params.csv"))
	fin, start := reportColumn(t, recs[0], "final"), reportColumn(t, recs[0], "start")
	for i, p := range s.Params {
		if row := recs[1+i]; row[0] != p.Name || row[fin] != reports.Num(p.Final) || row[start] != reports.Num(p.Start) {
			t.Errorf("params.csv row %v, want %s start %v final %v", row, p.Name, p.Start, p.Final)
		}
	}
	if held := reportCSV(t, filepath.Join(repDir, "holdout.csv")); len(held) != 2 ||
		held[1][reportColumn(t, held[0], "games")] != strconv.Itoa(ab.Games) ||
		held[1][reportColumn(t, held[0], "score")] != fmt.Sprintf("%.3f", ab.Score) ||
		held[1][reportColumn(t, held[0], "cases")] != "seeds:100001-100200" {
		t.Errorf("holdout.csv %v; the A/B: %d games, score %.3f", held, ab.Games, ab.Score)
	}
	traj := reportCSV(t, filepath.Join(repDir, "trajectory.csv"))
	last := traj[len(traj)-1]
	if last[0] != "4000" || last[1] != strconv.FormatFloat(s.Params[0].Theta, 'g', 5, 64) {
		t.Errorf("trajectory ends with %v; want 4000 games and x = %v", last, s.Params[0].Theta)
	}
	if !strings.Contains(strings.Join(head, " "), "2000 of 2000") {
		t.Errorf("headline %v lacks the iterations", head)
	}
	reportRenders(t, reportBrowser(t), repDir, head)
}

func TestSPSABadInputIsOneClearLine(t *testing.T) {
	dir := t.TempDir()
	gains := filepath.Join(dir, "gains.json")
	if err := os.WriteFile(gains, []byte(`{"x": {"c_end": 1, "rend": 2}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"spsa", "--game", "spsatoy", "--strategy", "knob"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, `--games is required`},
		{[]string{"--games", "7"}, `--games 7: want an even number`},
		{[]string{"--games", "10", "--space", "x,mode"}, `param "mode" is categorical (a|b)`},
		{[]string{"--games", "10", "--space", "x,nope"}, `unknown param "nope" (known: x, k, mode)`},
		{[]string{"--games", "10", "--space", "x=1:2"}, `takes names only (a narrowed range, NAME=LO:HI, is tune's)`},
		{[]string{"--games", "10", "--param", "x=11"}, `param "x": 11 is outside [0, 10]`},
		{[]string{"--games", "10", "--c-end", "x=abc"}, `--c-end "x=abc": want X or NAME=X`},
		{[]string{"--games", "10", "--r-end", "-1"}, `r_end of every parameter: -1`},
		{[]string{"--games", "10", "--c-end", "zz=1"}, `unknown param "zz"`},
		{[]string{"--games", "10", "--gains-file", gains}, `unknown field "rend"`},
		{[]string{"--games", "10", "--cases", "bogus"}, `unknown spsatoy case set "bogus"`},
		{[]string{"--games", "10", "--seats", "3"}, `--seats 3: game spsatoy takes 2 to 2 players`},
		{[]string{"--games", "10", "--alpha", "0"}, `--alpha 0`},
		{[]string{"--games", "10", "--jobs", "0"}, `--jobs 0`},
		{[]string{"--games", "10", "--storage", "mysql://x"}, `--storage`},
	} {
		_, stderr, code := gauntlet(t, dir, append(base, c.args...)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || !strings.Contains(stderr, c.want) || len(lines) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"spsa", "--game", "tunetoy", "--strategy", "dial", "--games", "10"}, `single-player`},
		{[]string{"spsa", "--game", "spsatoy", "--strategy", "cmd:./bot {w=1}", "--games", "10"}, `bot command "./bot" not found`},
		{[]string{"spsa", "--game", "spsatoy", "--strategy", "cmd:sh -c 'echo {w=1}'", "--games", "10"}, `declares no parameter to tune`},
		{[]string{"spsa", "--game", "spsatoy", "--strategy", "nope", "--games", "10"}, `unknown strategy "nope"`},
		{[]string{"spsa", "--strategy", "knob", "--games", "10"}, `--game is required`},
	} {
		_, stderr, code := gauntlet(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gauntlet.db")); err == nil {
		t.Error("bad input left a database behind")
	}
}

// spsaIterations counts a study's stored iterations and distinct
// iteration numbers.
func spsaIterations(t *testing.T, db, study string) (rows, distinct, applied int) {
	t.Helper()
	st, err := store.Open(context.Background(), "sqlite:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.DB().QueryRow(`SELECT COUNT(*), COUNT(DISTINCT iter) FROM spsa_iterations WHERE study = ?`, study).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if err := st.DB().QueryRow(`SELECT applied FROM spsa_studies WHERE name = ?`, study).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	return rows, distinct, applied
}

// TestSPSAKilledRunResumes kills 'gauntlet spsa' with SIGKILL in the middle
// of a study, runs the same command again, and checks that the study ends
// with every iteration exactly once, at the θ an uninterrupted run reaches.
func TestSPSAKilledRunResumes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "k.db")
	const games = 600
	args := func(db string) []string {
		return []string{"spsa", "--game", "spsatoy", "--strategy", "knob", "--games", strconv.Itoa(games), "--seed", "4",
			"--storage", "sqlite:" + db, "--study", "killme", "--jobs", "1", "--json", "--quiet"}
	}
	cmd := exec.Command(os.Args[0], args(db)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1", "GAUNTLET_SPSATOY_DELAY=2ms")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	applied := func() int {
		rec, err := spsa.LoadStudy(context.Background(), "sqlite:"+db, "killme")
		if err != nil {
			return 0
		}
		return rec.Applied
	}
	deadline := time.Now().Add(60 * time.Second)
	for applied() < 40 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before := applied()
	if before == 0 || before >= games/2 {
		t.Fatalf("%d iterations applied before the kill; want some but not all", before)
	}
	out, stderr, code := gauntlet(t, dir, args(db)...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	var s spsa.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	rows, distinct, app := spsaIterations(t, db, "killme")
	if s.Applied != games/2 || rows != games/2 || distinct != games/2 || app != games/2 || s.Wins+s.Draws+s.Losses != games {
		t.Fatalf("after resume: summary %d iterations, %d rows, %d distinct, applied %d, %d games; want %d iterations, %d games",
			s.Applied, rows, distinct, app, s.Wins+s.Draws+s.Losses, games/2, games)
	}
	// An uninterrupted run of the same study ends at the same θ.
	ref, stderr, code := gauntlet(t, dir, args(filepath.Join(dir, "ref.db"))...)
	if code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	var r spsa.Summary
	json.Unmarshal([]byte(ref), &r)
	if fmt.Sprint(r.Params) != fmt.Sprint(s.Params) || !s.Reproducible {
		t.Fatalf("killed and resumed: %+v (reproducible %v)\nuninterrupted: %+v", s.Params, s.Reproducible, r.Params)
	}
	fmt.Printf("spsa: killed after %d of %d iterations (%d block(s) played again); resumed to %d distinct iterations, θ as uninterrupted\n",
		before, games/2, s.Replayed, distinct)
}

// TestSPSATwoWorkerProcesses runs the same study in two processes on one
// SQLite file: exactly the budget of iterations, none twice, both workers
// contributing.
func TestSPSATwoWorkerProcesses(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	const games = 400
	args := []string{"spsa", "--game", "spsatoy", "--strategy", "knob", "--games", strconv.Itoa(games), "--storage", "sqlite:" + db,
		"--study", "shared", "--jobs", "1", "--json", "--quiet"}
	// Create the database first: two processes switching a new SQLite file
	// to WAL at the same moment may find it locked.
	if _, err := spsa.OpenStorage(context.Background(), "sqlite:"+db); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for range 2 {
		go func() {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1", "GAUNTLET_SPSATOY_DELAY=1ms")
			out, err := cmd.CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%v: %s", err, out)
			}
			done <- err
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	rows, distinct, applied := spsaIterations(t, db, "shared")
	if rows != games/2 || distinct != games/2 || applied != games/2 {
		t.Fatalf("%d rows, %d distinct iterations, applied %d; want %d each", rows, distinct, applied, games/2)
	}
	rec, err := spsa.LoadStudy(context.Background(), "sqlite:"+db, "shared")
	if err != nil {
		t.Fatal(err)
	}
	workers := map[string]int{}
	for _, it := range rec.Iterations {
		workers[it.Worker]++
	}
	if len(workers) != 2 {
		t.Fatalf("iterations by worker %v; want two workers", workers)
	}
}
