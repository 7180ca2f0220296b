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
	"gauntlet/internal/testjson"
	"gauntlet/reports"
	"gauntlet/strategies/param"
	"gauntlet/tuning"
)

// tunetoy is a single-player toy game registered in this test binary only
// (the CLI tests re-execute it as gauntlet): a bot's score is a smooth
// function of its parameters (best at x=7, k=5, mode=c) plus noise from the
// case seed. GAUNTLET_TUNETOY_DELAY slows every game down (kill tests).
type tunetoy struct{}

type tunetoyBot struct{ quality float64 }

func init() {
	contract.Default.RegisterGame(tunetoy{})
	contract.Default.RegisterStrategy(&contract.Strategy{Game: "tunetoy", Name: "dial", Doc: "toy strategy of the tune tests",
		Params: param.Specs{
			{Name: "x", Kind: param.Float, Min: 0, Max: 10, Default: 2, Help: "best at 7"},
			{Name: "k", Kind: param.Int, Min: 0, Max: 8, Default: 1, Help: "best at 5"},
			{Name: "mode", Kind: param.Categorical, Choices: []string{"a", "b", "c"}, Default: 0, Help: "c is best"},
		},
		New: func(v param.Values, seed uint64) (any, error) {
			q := 100 - 3*(v["x"]-7)*(v["x"]-7) - 2*(v["k"]-5)*(v["k"]-5)
			if v["mode"] == 2 {
				q += 5
			}
			return &tunetoyBot{quality: q}, nil
		}})
}

func (tunetoy) Info() contract.GameInfo {
	return contract.GameInfo{Name: "tunetoy", MinSeats: 1, MaxSeats: 1, Direction: contract.Higher,
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}, {Name: "smoke", Doc: "seeds 1..4"}}}
}

func (tunetoy) Cases(set string) ([]contract.Case, error) {
	if set == "smoke" {
		set = "seeds:4"
	}
	n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
	if err != nil || !strings.HasPrefix(set, "seeds:") || n < 1 {
		return nil, fmt.Errorf("unknown tunetoy case set %q (known: smoke, seeds:N)", set)
	}
	out := make([]contract.Case, n)
	for i := range out {
		out[i] = contract.Case{ID: "seed:" + strconv.Itoa(i+1), Seed: uint64(i + 1)}
	}
	return out, nil
}

func (tunetoy) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	if d, err := time.ParseDuration(os.Getenv("GAUNTLET_TUNETOY_DELAY")); err == nil && d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return contract.Outcome{}, ctx.Err()
		}
	}
	b := players[0].Bot
	r := rand.New(rand.NewPCG(c.Seed, 0))
	out := contract.Outcome{Seats: []contract.SeatResult{{Score: b.(*tunetoyBot).quality + 4*r.Float64()}}}
	contract.RanksByScore(out.Seats)
	return out, nil
}

func TestTuneEndToEnd(t *testing.T) {
	dir := t.TempDir()
	best := filepath.Join(dir, "best.json")
	args := []string{"tune", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:8", "--trials", "15",
		"--seed", "3", "--pruner", "wilcoxon", "--chunk", "4", "--json", "--quiet"}
	out, stderr, code := gauntlet(t, dir, append(args, "--storage", "sqlite:"+filepath.Join(dir, "a.db"), "--best-json", best)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	for _, k := range []string{"study", "trials", "best_params", "best_value", "default_value", "improvement", "ci95", "sampler", "seed", "reproducible"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("--json lacks %q", k)
		}
	}
	var s tuning.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Trials) != 15 || s.BestValue == nil || s.DefaultValue == nil || s.Improvement == nil || !s.Reproducible {
		t.Fatalf("summary: %d trials, best %v default %v improvement %v reproducible %v", len(s.Trials), s.BestValue, s.DefaultValue, s.Improvement, s.Reproducible)
	}
	if math.Abs(*s.Improvement-(*s.BestValue-*s.DefaultValue)) > 1e-9 || s.CI95[0] > *s.Improvement || s.CI95[1] < *s.Improvement {
		t.Fatalf("improvement %v ci %v, best %v default %v", *s.Improvement, *s.CI95, *s.BestValue, *s.DefaultValue)
	}
	// The same command on a fresh database replays the same study.
	again, stderr, code := gauntlet(t, dir, append(args, "--storage", "sqlite:"+filepath.Join(dir, "b.db"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s2 tuning.Summary
	json.Unmarshal([]byte(again), &s2)
	for i := range s.Trials { // the worker names (host:pid) differ
		s.Trials[i].Worker = ""
	}
	for i := range s2.Trials {
		s2.Trials[i].Worker = ""
	}
	a := testjson.Marshal(t, s.Trials)
	b := testjson.Marshal(t, s2.Trials)
	if string(a) != string(b) {
		t.Fatalf("same seed, different trials:\n%s\n%s", a, b)
	}
	// eval --params-file reads --best-json and scores the best value again.
	ev, stderr, code := gauntlet(t, dir, "eval", "--game", "tunetoy", "--strategy", "dial", "--params-file", best,
		"--cases", "seeds:8", "--storage", "none", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("eval --params-file: exit %d: %s", code, stderr)
	}
	var es results.EvalSummary
	if err := json.Unmarshal([]byte(ev), &es); err != nil {
		t.Fatal(err)
	}
	if math.Abs(es.Mean-*s.BestValue) > 1e-9 {
		t.Fatalf("eval of the best params: mean %v, tune said %v", es.Mean, *s.BestValue)
	}
	// The terminal summary names the best trial and the improvement.
	text, stderr, code := gauntlet(t, dir, append(args[:len(args)-2], "--storage", "sqlite:"+filepath.Join(dir, "a.db"), "--quiet")...)
	if code != 0 || !strings.Contains(text, "best trial") || !strings.Contains(text, "improvement (best - default") || !strings.Contains(text, "reproducible") {
		t.Fatalf("terminal summary: exit %d\n%s\n%s", code, text, stderr)
	}
	list, _, code := gauntlet(t, dir, "tune", "--list", "--json", "--storage", "sqlite:"+filepath.Join(dir, "a.db"))
	var studies []tuning.StudyInfo
	if code != 0 || json.Unmarshal([]byte(list), &studies) != nil || len(studies) != 1 || studies[0].Trials != 15 {
		t.Fatalf("tune --list: exit %d\n%s", code, list)
	}
	fmt.Printf("tune: 15 trials replayed identically; best %.3f, default %.3f, improvement %.3f [%.3f, %.3f]\n",
		*s.BestValue, *s.DefaultValue, *s.Improvement, s.CI95[0], s.CI95[1])
}

func TestTuneBadInputIsOneClearLine(t *testing.T) {
	dir := t.TempDir()
	base := []string{"tune", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:3"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--trials", "0"}, `--trials 0: want at least 1`},
		{[]string{"--trials", "3", "--space", "x,nope"}, `--space: unknown param "nope" (known: x, k, mode)`},
		{[]string{"--trials", "3", "--space", "x=20:30"}, `--space: x=20:30: param "x": 20 is outside [0, 10]`},
		{[]string{"--trials", "3", "--space", "mode=a:b"}, `--space: mode=a:b: a categorical parameter (a|b|c) takes no range`},
		{[]string{"--trials", "3", "--sampler", "grid"}, `unknown sampler "grid" (want tpe|cmaes|random)`},
		{[]string{"--trials", "3", "--pruner", "asha"}, `unknown pruner "asha"`},
		{[]string{"--trials", "3", "--param", "x=11"}, `x`},
		{[]string{"--trials", "3", "--cases", "bogus"}, `unknown tunetoy case set "bogus"`},
		{[]string{"--trials", "3", "--opponents", "dial"}, `single-player`},
		{[]string{"--trials", "3", "--storage", "mysql://x"}, `--storage`},
	} {
		args := base
		if slices.Contains(c.args, "--cases") {
			args = base[:5] // a flag is given once
		}
		_, stderr, code := gauntlet(t, dir, append(slices.Clip(args), c.args...)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code == 0 || !strings.Contains(stderr, c.want) || len(lines) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gauntlet.db")); err == nil {
		t.Error("bad input left a database behind")
	}
}

// TestTuneKilledWorkerResumes kills 'gauntlet tune' with SIGKILL in the
// middle of a trial and runs the same command again: the restarted worker
// finds the dead trial's heartbeat stale, marks it lost, re-runs its
// parameters, and the study ends with exactly its budget of complete trials.
func TestTuneKilledWorkerResumes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"tune", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:4", "--trials", "5", "--seed", "1",
		"--sampler", "random", "--storage", "sqlite:" + db, "--study", "killme", "--heartbeat", "200ms", "--jobs", "1", "--json"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1", "GAUNTLET_TUNETOY_DELAY=100ms")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	progress := func() (complete, running int) {
		rec, err := tuning.LoadStudy(ctx, "sqlite:"+db, "killme")
		if err != nil {
			return 0, 0
		}
		for _, tr := range rec.Trials {
			switch tr.State {
			case tuning.StateComplete:
				complete++
			case tuning.StateRunning:
				// Running with its parameters drawn: it is playing games.
				if len(tr.Params) == 3 {
					running++
				}
			}
		}
		return complete, running
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, r := progress()
		if c >= 1 && r == 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the worker never got to its second trial")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("restart: exit %d: %s", code, stderr)
	}
	var s tuning.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Complete != 5 || s.Lost != 1 || len(s.Trials) != 6 {
		t.Fatalf("after restart: %d complete, %d lost, %d trials; want 5, 1, 6", s.Complete, s.Lost, len(s.Trials))
	}
	// The kill may land while the trial's parameters are still being
	// drawn: every parameter the lost trial recorded must be re-run with
	// the same value (the others were never decided).
	var lost, rerun map[string]any
	for _, tr := range s.Trials {
		js := testjson.Marshal(t, tr.Params)
		if tr.State == tuning.StateLost {
			json.Unmarshal(js, &lost)
		}
		if tr.RetryOf != nil {
			json.Unmarshal(js, &rerun)
		}
	}
	if len(lost) == 0 || rerun == nil {
		t.Fatalf("lost trial params %v, re-run params %v", lost, rerun)
	}
	for k, v := range lost {
		if fmt.Sprint(rerun[k]) != fmt.Sprint(v) {
			t.Fatalf("lost trial params %v, re-run params %v: %s differs", lost, rerun, k)
		}
	}
	if !strings.Contains(stderr, "trial lost") {
		t.Fatalf("the restarted worker did not report the lost trial:\n%s", stderr)
	}
}

// TestTuneHoldout: --holdout plays the best trial and the default on cases
// the study did not see, paired per case, in the study's direction (dent
// minimises: its default x=8 costs about 25 more than the best near 3 on
// every case); the same command resumes the stored hold-out without playing
// it again; a hold-out set that shares cases with --cases, or that the game
// does not know, is refused before any game.
func TestTuneHoldout(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "h.db")
	args := []string{"tune", "--game", "dent", "--strategy", "dial", "--cases", "seeds:4", "--trials", "12", "--seed", "2",
		"--storage", db, "--study", "h", "--holdout", "seeds:11-30", "--quiet"}
	out, stderr, code := gauntlet(t, dir, append(slices.Clip(args), "--json")...)
	if code != 0 {
		t.Fatalf("tune --holdout: exit %d: %s", code, stderr)
	}
	var s tuning.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	h := s.Holdout
	if h == nil || s.BestTrial == nil {
		t.Fatalf("no hold-out in the summary:\n%s", out)
	}
	if h.Cases != "seeds:11-30" || h.Units != 20 || h.BestTrial != *s.BestTrial || !h.Minimize {
		t.Errorf("hold-out %+v (best trial %d)", *h, *s.BestTrial)
	}
	if h.Better != 20 || h.Worse != 0 || h.Diff >= -10 || h.DiffHi >= 0 || h.SignP > 1e-5 || math.Abs(h.BestValue-h.BaseValue-h.Diff) > 1e-9 {
		t.Errorf("hold-out: best %v default %v, difference %v [%v, %v], %d better %d worse, sign p %v",
			h.BestValue, h.BaseValue, h.Diff, h.DiffLo, h.DiffHi, h.Better, h.Worse, h.SignP)
	}
	text, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("tune --holdout again: exit %d: %s", code, stderr)
	}
	want := fmt.Sprintf("held out (seeds:11-30, 20 scored cases): best trial %d %s, default %s", h.BestTrial, reports.Num(h.BestValue), reports.Num(h.BaseValue))
	if !strings.Contains(text, want) || !strings.Contains(text, "20 better, 0 worse, 0 equal") {
		t.Errorf("tune text lacks %q:\n%s", want, text)
	}
	// The study's report holds its hold-out as a table of its own.
	if _, stderr, code := gauntlet(t, dir, "report", "--study", "h", "--storage", db, "--out", filepath.Join(dir, "rep")); code != 0 {
		t.Fatalf("report --study: exit %d: %s", code, stderr)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "rep", "holdout.csv"))
	if err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf("seeds:11-30,20,%d,%s,%s,%s,", h.BestTrial, reports.Num(h.BestValue), reports.Num(h.BaseValue), reports.Num(h.Diff))
	if !strings.Contains(string(csv), row) || !strings.Contains(string(csv), ",20,0,0,") {
		t.Errorf("the report's hold-out table lacks %q and the counts 20, 0, 0:\n%s", row, csv)
	}
	list, _, _ := gauntlet(t, dir, "tune", "--list", "--storage", db, "--json")
	var studies []tuning.StudyInfo
	if err := json.Unmarshal([]byte(list), &studies); err != nil {
		t.Fatal(err)
	}
	if len(studies) != 3 {
		t.Fatalf("%d studies, want the study and its two hold-out studies:\n%s", len(studies), list)
	}
	for _, st := range studies[1:] {
		if st.Trials != 1 || st.Complete != 1 || !slices.Contains(h.Studies[:], st.Name) {
			t.Errorf("hold-out study %+v (want one of %v, one complete trial: the rerun played nothing)", st, h.Studies)
		}
	}

	for _, c := range []struct{ holdout, want string }{
		{"seeds:3-10", "--holdout seeds:3-10 shares 2 case(s) with --cases seeds:4 (seed:3 first)"},
		{"bogus", `--holdout: unknown dent case set "bogus"`},
	} {
		a := slices.Clone(args)
		a[len(a)-2] = c.holdout
		a[slices.Index(a, "h")] = "other"
		_, stderr, code := gauntlet(t, dir, a...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--holdout %s: exit %d, stderr %q; want exit 2 and %q", c.holdout, code, stderr, c.want)
		}
	}
	if list, _, _ := gauntlet(t, dir, "tune", "--list", "--storage", db); strings.Contains(list, "other") {
		t.Errorf("a refused hold-out left a study behind:\n%s", list)
	}
}
