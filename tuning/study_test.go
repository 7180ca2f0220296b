package tuning

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/internal/testjson"
)

// trialKey is what must replay: state, value and parameters of each trial.
func trialKey(t testing.TB, s *Summary) string {
	t.Helper()
	var b strings.Builder
	for _, tr := range s.Trials {
		p := testjson.Marshal(t, tr.Params)
		v := "-"
		if tr.Value != nil {
			v = fmt.Sprintf("%.12g", *tr.Value)
		}
		fmt.Fprintf(&b, "%d %s %s %s\n", tr.Number, tr.State, v, p)
	}
	return b.String()
}

func TestSeededStudyIsReproducible(t *testing.T) {
	for _, sampler := range []string{"tpe", "random"} {
		t.Run(sampler, func(t *testing.T) {
			reg := toyRegistry(0)
			c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:6", Sampler: sampler, Seed: 42}
			a := runStudy(t, reg, sqliteURL(t), "s", c, 16)
			b := runStudy(t, reg, sqliteURL(t), "s", c, 16)
			ka, kb := trialKey(t, a), trialKey(t, b)
			if ka != kb {
				t.Fatalf("same seed, different trials:\n%s\nvs\n%s", ka, kb)
			}
			if a.Complete != 16 || !a.Reproducible {
				t.Fatalf("complete=%d reproducible=%v (%s)", a.Complete, a.Reproducible, a.ReproducibleNote)
			}
			c.Seed = 43
			other := runStudy(t, reg, sqliteURL(t), "s", c, 16)
			if trialKey(t, other) == ka {
				t.Fatal("seeds 42 and 43 gave the same trials")
			}
			t.Logf("%s: 16 trials replayed identically; best %.3f (default %.3f)", sampler, *a.BestValue, *a.DefaultValue)
		})
	}
}

// TPE must use what it learnt: after its random start-up trials it samples
// near the optimum more often than random search does.
func TestTPEBeatsRandom(t *testing.T) {
	reg := toyRegistry(0)
	meanAfter := func(s *Summary, from int) float64 {
		sum, n := 0.0, 0
		for _, tr := range s.Trials[from:] {
			sum += *tr.Value
			n++
		}
		return sum / float64(n)
	}
	var tpeWins int
	for seed := int64(1); seed <= 3; seed++ {
		c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:2", Sampler: "tpe", Seed: seed}
		tpe := runStudy(t, reg, sqliteURL(t), "s", c, 40)
		c.Sampler = "random"
		rnd := runStudy(t, reg, sqliteURL(t), "s", c, 40)
		mt, mr := meanAfter(tpe, 10), meanAfter(rnd, 10)
		t.Logf("seed %d: mean value of trials 10..39: tpe %.2f, random %.2f; best tpe %.2f random %.2f", seed, mt, mr, *tpe.BestValue, *rnd.BestValue)
		if mt > mr {
			tpeWins++
		}
	}
	if tpeWins < 3 {
		t.Fatalf("TPE beat random search on %d of 3 seeds", tpeWins)
	}
}

func TestSummaryImprovementAndBestParams(t *testing.T) {
	reg := toyRegistry(0)
	c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:9", Space: []string{"x", "k"}, Params: []string{"mode=c"}, Seed: 7}
	s := runStudy(t, reg, sqliteURL(t), "", c, 12)
	if s.BestValue == nil || s.DefaultValue == nil || s.Improvement == nil || s.CI95 == nil {
		t.Fatalf("summary lacks figures: %+v", s)
	}
	if got, want := *s.Improvement, *s.BestValue-*s.DefaultValue; math.Abs(got-want) > 1e-9 {
		t.Fatalf("improvement %v, want best - default = %v", got, want)
	}
	if s.CI95[0] > *s.Improvement || s.CI95[1] < *s.Improvement {
		t.Fatalf("ci95 %v does not contain the improvement %v", *s.CI95, *s.Improvement)
	}
	// Parameters outside the space keep their base values.
	if s.BestParams["mode"] != "c" || s.BestParams["lr"] != 0.01 {
		t.Fatalf("best params %v: mode and lr should keep c and 0.01", s.BestParams)
	}
	for _, tr := range s.Trials {
		if _, ok := tr.Params["mode"]; ok || len(tr.Params) != 2 {
			t.Fatalf("trial %d params %v: want only x and k", tr.Number, tr.Params)
		}
	}
	// The default value is the base configuration's mean score.
	tu, err := New(reg, c)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := tu.Play(context.Background(), tu.Space().Base, 0, 9, 1, hplay)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mean(scores)-*s.DefaultValue) > 1e-9 {
		t.Fatalf("default value %v, replayed %v", *s.DefaultValue, mean(scores))
	}
	if s.BestTotal == nil || s.DefaultTotal == nil {
		t.Fatal("knob aggregates cases: want best_total and default_total")
	}
	if !strings.HasPrefix(s.Study, "tune-knob-dial-") {
		t.Fatalf("default study name %q", s.Study)
	}
}

func TestResumeExtendsStudy(t *testing.T) {
	reg := toyRegistry(0)
	url := sqliteURL(t)
	c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Seed: 1}
	first := runStudy(t, reg, url, "grow", c, 5)
	second := runStudy(t, reg, url, "grow", c, 8)
	if len(first.Trials) != 5 || len(second.Trials) != 8 {
		t.Fatalf("trials %d then %d, want 5 then 8", len(first.Trials), len(second.Trials))
	}
	// The first five trials are those of a study run to 8 at once.
	whole := runStudy(t, reg, sqliteURL(t), "grow", c, 8)
	if trialKey(t, whole) != trialKey(t, second) {
		t.Fatalf("extended study differs from one run at once:\n%s\nvs\n%s", trialKey(t, second), trialKey(t, whole))
	}
	c.Seed = 2
	tu, err := New(reg, c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tu.Run(context.Background(), openStorage(t, url), RunOptions{Study: "grow", Trials: 8})
	if err == nil || !strings.Contains(err.Error(), "different configuration") {
		t.Fatalf("reusing a study name with another seed: err = %v", err)
	}
}

func TestPoolObjective(t *testing.T) {
	reg := toyRegistry(0)
	c := Config{Game: "duel", Strategy: "dial", Cases: "seeds:5", Opponents: "fixed:q=60,fixed:q=90", Seed: 3, Sampler: "random"}
	tu, err := New(reg, c)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tu.Units()); n != 10 {
		t.Fatalf("%d units, want 5 cases x 2 opponents", n)
	}
	best := map[string]float64{"x": 7, "k": 5, "mode": 2, "lr": 0.1} // quality 105: beats both
	worst := map[string]float64{"x": 0, "k": 0, "mode": 0, "lr": 0.001}
	for _, tc := range []struct {
		v    map[string]float64
		want float64
	}{{best, 1}, {worst, 0}} {
		s, err := tu.Play(context.Background(), tc.v, 0, 10, 2, hplay)
		if err != nil {
			t.Fatal(err)
		}
		if mean(s) != tc.want {
			t.Fatalf("score fraction %v for %v, want %v", mean(s), tc.v, tc.want)
		}
	}
	// Quality 90 beats q=60 whatever the noise (it is below 4) and equals
	// q=90: with the seats swapped on each case, the seat's noise favours
	// each side once, so every pair against q=90 is one win and one loss.
	// This checks that the pairs really swap seats.
	mid := map[string]float64{"x": 7, "k": 5, "mode": 0, "lr": 0.01} // quality 90
	s, err := tu.Play(context.Background(), mid, 0, 10, 2, hplay)
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range tu.Units() {
		want := 1.0
		if u.Opponent == "fixed:q=90" {
			want = 0.5
		}
		if s[i] != want {
			t.Fatalf("unit %s: quality 90 scored %v, want %v", u.Key, s[i], want)
		}
	}
	url := sqliteURL(t)
	sum := runStudy(t, reg, url, "pool", c, 4)
	if sum.Units != 10 || !strings.Contains(sum.Objective, "fraction") {
		t.Fatalf("summary units %d objective %q", sum.Units, sum.Objective)
	}
	// The stored study's summary (what report reads) words the objective
	// as the run's summary and the tuner do.
	rec, err := LoadStudy(context.Background(), url, "pool")
	if err != nil {
		t.Fatal(err)
	}
	if got := BuildSummary(rec).Objective; got != sum.Objective || got != tu.Objective() {
		t.Fatalf("stored study's objective %q; run's %q, tuner's %q", got, sum.Objective, tu.Objective())
	}
}

func TestBadInput(t *testing.T) {
	reg := toyRegistry(0)
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"x", "nope"}}, `--space: unknown param "nope" (known: x, k, mode, lr)`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Sampler: "grid"}, `unknown sampler "grid" (want tpe|cmaes|random)`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Pruner: "hyperband"}, `unknown pruner "hyperband"`},
		{Config{Game: "knob", Strategy: "dial", Cases: "bogus"}, `unknown case set "bogus"`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Params: []string{"x=11"}}, `param "x": 11 is outside [0, 10]`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Opponents: "fixed"}, `single-player`},
		{Config{Game: "duel", Strategy: "dial", Cases: "seeds:3", Opponents: "nobody"}, `unknown strategy "nobody"`},
		{Config{Game: "duel", Strategy: "dial", Cases: "seeds:3"}, `needs opponents`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Pruner: "wilcoxon", PruneP: 0.7}, `want a value in (0, 0.5)`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"mode=a:b"}}, `--space: mode=a:b: a categorical parameter (a|b|c) takes no range`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"x=4"}}, `--space: x=4: want NAME=LO:HI, e.g. x=0:10`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"x=6:4"}}, `--space: x=6:4: the low end 6 is not below the high end 4`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"x=1:12"}}, `--space: x=1:12: param "x": 12 is outside [0, 10]`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"k=0:2.5"}}, `--space: k=0:2.5: param "k"`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"x=4:9"}}, `--space: x=4:9: the base value 2 lies outside the range (set it inside with --param x=...)`},
		{Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Space: []string{"x=1:9", "x"}}, `--space: param "x" listed twice`},
	} {
		_, err := New(reg, tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", tc.c, err, tc.want)
		}
	}
	tu, err := New(reg, Config{Game: "knob", Strategy: "dial", Cases: "seeds:3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tu.Run(context.Background(), openStorage(t, sqliteURL(t)), RunOptions{Trials: 0}); err == nil || !strings.Contains(err.Error(), "trials 0") {
		t.Fatalf("Run with 0 trials: %v", err)
	}
}

func TestLoadAndListStudies(t *testing.T) {
	reg := toyRegistry(0)
	url := sqliteURL(t)
	c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:4", Seed: 5, Pruner: "median"}
	runStudy(t, reg, url, "one", c, 6)
	c.Strategy, c.Space = "dial", []string{"x"}
	runStudy(t, reg, url, "two", c, 3)
	list, err := ListStudies(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "one" || list[0].Trials != 6 || list[1].Trials != 3 || list[0].Best == nil {
		t.Fatalf("studies = %+v", list)
	}
	rec, err := LoadStudy(context.Background(), url, "one")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Units) != 4 || len(rec.DefaultScores) != 4 || len(rec.Trials) != 6 {
		t.Fatalf("record: %d units, %d default scores, %d trials", len(rec.Units), len(rec.DefaultScores), len(rec.Trials))
	}
	for _, tr := range rec.Trials {
		if tr.State == StateComplete && (len(tr.Scores) != 4 || len(tr.Intermediate) == 0 || tr.Intermediate[len(tr.Intermediate)-1].Step != 4) {
			t.Fatalf("trial %d: scores %v intermediate %v", tr.Number, tr.Scores, tr.Intermediate)
		}
		if math.Abs(mean(tr.Scores)-tr.Value) > 1e-9 && tr.State == StateComplete {
			t.Fatalf("trial %d value %v is not the mean of its scores %v", tr.Number, tr.Value, tr.Scores)
		}
		if _, ok := tr.Params["mode"].(string); !ok || tr.End.Before(tr.Start) {
			t.Fatalf("trial %d: params %v (mode should be a choice name), %v..%v", tr.Number, tr.Params, tr.Start, tr.End)
		}
	}
	if _, err := LoadStudy(context.Background(), url, "three"); err == nil || !strings.Contains(err.Error(), "stored: one, two") {
		t.Fatalf("loading a missing study: %v", err)
	}
}

// TestOpponentCmds: an opponent given alone (--opponent) keeps the commas
// of its command, which the lineup (--opponents) splits into two entrants;
// it joins the pool after the lineup's opponents.
func TestOpponentCmds(t *testing.T) {
	reg := toyRegistry(0)
	const bot = "cmd:sh -c 'echo 1,2'"
	if _, err := New(reg, Config{Game: "duel", Strategy: "dial", Cases: "seeds:2", Opponents: bot}); err == nil {
		t.Fatalf("a command with a comma in --opponents: no error, want the lineup split to fail")
	} else if !strings.Contains(err.Error(), "--opponent of its own") {
		t.Fatalf("a command with a comma in --opponents: %v, want a hint at --opponent", err)
	}
	tu, err := New(reg, Config{Game: "duel", Strategy: "dial", Cases: "seeds:2", Opponents: "fixed:q=60", OpponentCmds: []string{bot}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range tu.Units() {
		if !slices.Contains(got, u.Opponent) {
			got = append(got, u.Opponent)
		}
	}
	if want := []string{"fixed:q=60", bot}; !slices.Equal(got, want) {
		t.Fatalf("opponents of the units %q, want %q", got, want)
	}
	if _, err := New(reg, Config{Game: "knob", Strategy: "dial", Cases: "seeds:2", OpponentCmds: []string{bot}}); err == nil || !strings.Contains(err.Error(), "single-player") {
		t.Fatalf("an --opponent for a single-player game: %v, want a single-player error", err)
	}
}

// An external opponent under time limits may forfeit on a busier machine:
// its study is not deterministic, so a repeated configuration is played
// again rather than given the stored scores; without time limits it is.
func TestExternalOpponentUnderClockIsNotDeterministic(t *testing.T) {
	reg := toyRegistry(0)
	const bot = "cmd:sh -c 'echo 1'"
	tu, err := New(reg, Config{Game: "duel", Strategy: "dial", Cases: "seeds:2", OpponentCmds: []string{bot}})
	if err != nil {
		t.Fatal(err)
	}
	ok, why := tu.deterministic(tu.space.Base, contract.PlayOptions{})
	if ok || !strings.Contains(why, "plays under time limits") || !strings.Contains(why, "echo 1") {
		t.Fatalf("under time limits: deterministic %v (%s), want false naming the opponent", ok, why)
	}
	if ok, why := tu.deterministic(tu.space.Base, contract.PlayOptions{NoTimeLimit: true}); !ok {
		t.Fatalf("with --no-time-limit: deterministic false (%s)", why)
	}
}

// The time limits an external opponent plays under are part of the study's
// definition: games under another clock are another study, so that a
// resumed study never mixes them. A study of built-in bots alone has none.
func TestExternalOpponentLimitsAreTheStudys(t *testing.T) {
	reg := toyRegistry(0)
	const bot = "cmd:sh -c 'echo 1'"
	spec := func(opp string, play contract.PlayOptions) Spec {
		t.Helper()
		c := Config{Game: "duel", Strategy: "dial", Cases: "seeds:2", Play: play}
		if strings.HasPrefix(opp, "cmd:") {
			c.OpponentCmds = []string{opp}
		} else {
			c.Opponents = opp
		}
		tu, err := New(reg, c)
		if err != nil {
			t.Fatal(err)
		}
		return tu.Spec()
	}
	wall, cpu, none := spec(bot, contract.PlayOptions{}), spec(bot, contract.PlayOptions{CPUClock: true}), spec(bot, contract.PlayOptions{NoTimeLimit: true})
	if wall.Limits == "" || none.Limits != "none" || !strings.Contains(cpu.Limits, "clock=cpu") {
		t.Fatalf("limits %q, %q, %q: want the wall clock's, the CPU clock's and none", wall.Limits, cpu.Limits, none.Limits)
	}
	if wall.DefaultName() == cpu.DefaultName() || wall.DefaultName() == none.DefaultName() {
		t.Fatalf("default names %s, %s, %s: another clock must be another study", wall.DefaultName(), cpu.DefaultName(), none.DefaultName())
	}
	if b := spec("fixed:q=60", contract.PlayOptions{CPUClock: true}); b.Limits != "" {
		t.Fatalf("built-in opponents only: limits %q, want none (the study's name as before)", b.Limits)
	}
}

// A narrowed range (--space NAME=LO:HI) is what every sampler draws from,
// is stored with the study, so that the same command resumes it and another
// range makes another study, and is what the summary and the listing show.
func TestSpaceRanges(t *testing.T) {
	reg := toyRegistry(0)
	for _, sampler := range []string{"tpe", "cmaes", "random"} {
		t.Run(sampler, func(t *testing.T) {
			url := sqliteURL(t)
			c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Sampler: sampler, Seed: 5,
				Space: []string{"x=1.5:3", "k=0:2", "lr"}}
			first := runStudy(t, reg, url, "narrow", c, 6)
			sum := runStudy(t, reg, url, "narrow", c, 12)
			if len(first.Trials) != 6 || len(sum.Trials) != 12 {
				t.Fatalf("trials %d then %d, want 6 then 12", len(first.Trials), len(sum.Trials))
			}
			inside := 0
			for _, tr := range sum.Trials {
				x, k, lr := tr.Params["x"].(float64), tr.Params["k"], tr.Params["lr"].(float64)
				ki, ok := k.(int)
				if !ok {
					t.Fatalf("trial %d: k = %v (%T), want an int", tr.Number, k, k)
				}
				if x < 1.5 || x > 3 || ki < 0 || ki > 2 || lr < 0.001 || lr > 1 {
					t.Fatalf("trial %d outside the space: %v", tr.Number, tr.Params)
				}
				if x != 2 {
					inside++ // a drawn value, not the base's
				}
			}
			if inside == 0 {
				t.Fatal("every trial kept the base value of x: nothing was drawn")
			}
			want := map[string][2]float64{"x": {1.5, 3}, "k": {0, 2}}
			if fmt.Sprint(sum.Ranges) != fmt.Sprint(want) {
				t.Fatalf("summary ranges %v, want %v", sum.Ranges, want)
			}
			list, err := ListStudies(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || strings.Join(list[0].Space, ",") != "x=1.5:3,k=0:2,lr" {
				t.Fatalf("listed space %v", list)
			}
			c.Space = []string{"x=1.5:4", "k=0:2", "lr"}
			tu, err := New(reg, c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tu.Run(context.Background(), openStorage(t, url), RunOptions{Study: "narrow", Trials: 12}); err == nil || !strings.Contains(err.Error(), "different configuration") {
				t.Fatalf("the same study name with another range: err = %v", err)
			}
		})
	}
}
