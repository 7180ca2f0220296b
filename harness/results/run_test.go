package results

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/internal/testjson"
)

func mustEntrant(t testing.TB, r *contract.Registry, spec string) *entrant.Entrant {
	t.Helper()
	return mustParse(t, r, "duel", spec)
}

// mustParse is game's entrant of spec.
func mustParse(t testing.TB, r *contract.Registry, game, spec string) *entrant.Entrant {
	t.Helper()
	e, err := entrant.Parse(r, game, spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// mustGame is r's game of that name.
func mustGame(t testing.TB, r *contract.Registry, name string) contract.Game {
	t.Helper()
	g, err := r.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func evalJSON(t *testing.T, rn *runner.Runner, r *contract.Registry, d *harnesstest.Duel, n int) string {
	t.Helper()
	p, err := runner.EvalPlan(d, "seeds:"+strconv.Itoa(n), mustEntrant(t, r, "fixed:skill=6"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rn.Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	js := testjson.Marshal(t, SummarizeEval(rs))
	return string(js)
}

func TestEvalDeterministicWhateverJobs(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	one := evalJSON(t, &runner.Runner{Jobs: 1}, r, d, 50)
	four := evalJSON(t, &runner.Runner{Jobs: 4}, r, d, 50)
	again := evalJSON(t, &runner.Runner{Jobs: 3}, r, d, 50)
	if one != four || one != again {
		t.Fatalf("results differ with --jobs:\n%s\n%s", one, four)
	}
	var s EvalSummary
	json.Unmarshal([]byte(one), &s)
	if s.Games != 50 || s.FirstRate == nil || *s.FirstRate <= 0.5 {
		t.Fatalf("summary = %+v", s)
	}
}

// stopAfter cancels the context once n results were fed in order.
type stopAfter struct {
	n      int
	cancel func()
	seen   int
}

func (s *stopAfter) Add(*runner.Result) bool {
	s.seen++
	if s.seen == s.n {
		s.cancel()
	}
	return false
}

func TestResumeAfterInterruption(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2, Delay: 2 * time.Millisecond}
	r := harnesstest.DuelRegistry(d)
	path := filepath.Join(t.TempDir(), "g.db")
	st := harnesstest.OpenStore(t, path)
	plan := func() *runner.Plan {
		p, err := runner.EvalPlan(d, "seeds:60", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed:skill=1")}, "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx, cancel := context.WithCancel(context.Background())
	rs, err := (&runner.Runner{Store: st, Jobs: 3}).Run(ctx, plan(), &stopAfter{n: 20, cancel: cancel})
	if err == nil {
		t.Fatal("interrupted run returned no error")
	}
	p1 := d.Played.Load()
	rows, _ := harnesstest.CountGames(t, st, rs.Plan.Run.ID)
	if rows < 20 || rows >= 60 {
		t.Fatalf("after interruption %d games stored, want 20..59", rows)
	}
	d.Played.Store(0)
	rs2, err := (&runner.Runner{Store: st, Jobs: 3}).Run(context.Background(), plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rows2, distinct := harnesstest.CountGames(t, st, rs.Plan.Run.ID)
	if rows2 != 60 || distinct != 60 {
		t.Fatalf("after resume: %d rows, %d distinct, want 60", rows2, distinct)
	}
	if int(d.Played.Load()) != 60-rows || rs2.Resumed != rows {
		t.Fatalf("resume played %d (resumed %d), want %d new games (first run started %d)", d.Played.Load(), rs2.Resumed, 60-rows, p1)
	}
	// The resumed summary equals a fresh, storage-free run.
	fresh, err := (&runner.Runner{Jobs: 2}).Run(context.Background(), plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := testjson.Marshal(t, SummarizeEval(rs2))
	b := testjson.Marshal(t, SummarizeEval(fresh))
	if string(a) != string(b) {
		t.Fatalf("resumed summary differs from a fresh run:\n%s\n%s", a, b)
	}
}
