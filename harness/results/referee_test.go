package results

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
)

// flaky is a duel whose referee fails the games of some seeds while
// failing is set.
type flaky struct {
	*harnesstest.Duel
	mu      sync.Mutex
	failing map[uint64]bool
	played  []uint64
}

func (f *flaky) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	f.mu.Lock()
	f.played = append(f.played, c.Seed)
	fail := f.failing[c.Seed]
	f.mu.Unlock()
	if fail {
		return contract.Outcome{}, &contract.RefereeError{Reason: "the referee ended before ###End (exit status 1)", Stderr: "boom"}
	}
	return f.Duel.Play(ctx, c, players, opt)
}

// A game whose referee fails is recorded apart: not in the results, not
// stored, in the store's referee errors; a rerun plays exactly those games
// and says so.
func TestRefereeErrorsAreRetriedByARerun(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	g := &flaky{Duel: d, failing: map[uint64]bool{3: true, 7: true, 8: true}}
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "g.db"))
	plan := func() *runner.Plan {
		p, err := runner.EvalPlan(g, "seeds:20", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed:skill=1")}, "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx := context.Background()
	rs, err := (&runner.Runner{Store: st, Jobs: 3, Log: log}).Run(ctx, plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	run := rs.Plan.Run.ID
	results := 0
	for i, res := range rs.Results {
		if res == nil {
			continue
		}
		results++
		if g.failing[rs.Plan.Matches[i].Case.Seed] {
			t.Errorf("%s: a game whose referee failed is among the results", rs.Plan.Matches[i].Case.ID)
		}
	}
	if results != 17 || rs.Played != 17 || len(rs.RefereeErrors) != 3 {
		t.Fatalf("%d results, %d played, %d referee errors; want 17, 17, 3", results, rs.Played, len(rs.RefereeErrors))
	}
	if rows, _ := harnesstest.CountGames(t, st, run); rows != 17 {
		t.Fatalf("%d games stored, want 17", rows)
	}
	stored, err := st.RefereeErrors(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, f := range stored {
		cases = append(cases, f.CaseID)
		if f.Reason != "the referee ended before ###End (exit status 1)" || f.Stderr != "boom" {
			t.Errorf("stored referee error %+v", f)
		}
	}
	if strings.Join(cases, " ") != "seed:3 seed:7 seed:8" {
		t.Errorf("stored referee errors of %v, want seeds 3, 7, 8", cases)
	}
	if line := contract.RefereeErrorsLine(stored); !strings.HasPrefix(line, "referee errors: 3 games (not stored; rerun to play them again); first in seed:3: ") {
		t.Errorf("RefereeErrorsLine: %s", line)
	}

	// The rerun, with the referee mended, plays those three alone.
	g.failing, g.played = nil, nil
	logs.Reset()
	rs2, err := (&runner.Runner{Store: st, Jobs: 3, Log: log}).Run(ctx, plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs2.Played != 3 || rs2.Resumed != 17 || len(rs2.RefereeErrors) != 0 || len(g.played) != 3 {
		t.Fatalf("rerun: %d played (seeds %v), %d resumed, %d referee errors; want 3, 17, 0", rs2.Played, g.played, rs2.Resumed, len(rs2.RefereeErrors))
	}
	if rows, distinct := harnesstest.CountGames(t, st, run); rows != 20 || distinct != 20 {
		t.Fatalf("after the rerun %d rows, %d distinct games; want 20", rows, distinct)
	}
	if left, err := st.RefereeErrors(ctx, run); err != nil || len(left) != 0 {
		t.Errorf("referee errors left after the rerun played them: %v (%v)", left, err)
	}
	msg := logs.String()
	if !strings.Contains(msg, "retrying 3 games whose referee failed; first in seed:3") || strings.Contains(msg, "finished blocks") {
		t.Errorf("the rerun's log does not say it retries the referee's errors:\n%s", msg)
	}
}

// Without a store, a referee's error is still apart from the results.
func TestRefereeErrorsWithoutStore(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	g := &flaky{Duel: d, failing: map[uint64]bool{2: true}}
	p, err := runner.EvalPlan(g, "seeds:5", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed:skill=1")}, "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := (&runner.Runner{Jobs: 2, Log: slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil))}).Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Played != 4 || len(rs.RefereeErrors) != 1 || rs.RefereeErrors[0].CaseID != "seed:2" {
		t.Fatalf("%d played, referee errors %+v; want 4 and seed:2", rs.Played, rs.RefereeErrors)
	}
	s := SummarizeEval(rs)
	if s.Games != 4 {
		t.Errorf("summary of %d games, want 4", s.Games)
	}
}
