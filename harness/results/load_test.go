package results

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/strategies/param"
)

// A stored run stays readable after its strategy changes: its summary is
// the one the run made, its entrants keep their stored names, and only
// playing them again fails, saying why.
func TestLoadResultsAfterTheStrategyChanged(t *testing.T) {
	ctx := context.Background()
	d := &harnesstest.Duel{Seats: 2}
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "runs.db"))
	then := harnesstest.DuelRegistry(d)
	p, err := runner.EvalPlan(d, "seeds:30", mustEntrant(t, then, "fixed:skill=6"), []*entrant.Entrant{mustEntrant(t, then, "fixed")}, "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := (&runner.Runner{Jobs: 2, Store: st}).Run(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(SummarizeEval(rs))
	if err != nil {
		t.Fatal(err)
	}
	ab := abRun(t, then, d, "fixed:skill=5.5", "fixed", 40, DefaultSPRT, st)

	grown := contract.NewRegistry() // the strategy gained a parameter since
	grown.RegisterGame(d)
	grown.RegisterStrategy(&contract.Strategy{Game: "duel", Name: "fixed",
		Params: param.Specs{
			{Name: "skill", Kind: param.Float, Min: 0, Max: 10, Default: 5, Help: "how good"},
			{Name: "bias", Kind: param.Float, Min: 0, Max: 1, Default: 0.5, Help: "new since"},
		},
		New: func(v param.Values, seed uint64) (any, error) {
			return &harnesstest.DuelBot{Skill: v["skill"] + v["bias"]}, nil
		}})
	gone := contract.NewRegistry() // the strategy was removed
	gone.RegisterGame(d)

	for name, reg := range map[string]*contract.Registry{"grown": grown, "gone": gone} {
		sum, err := LoadEvalSummary(ctx, st, reg, p.Run.ID)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := json.Marshal(sum)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: reloaded summary differs:\n got %s\nwant %s", name, got, want)
		}
		abSum, err := LoadABSummary(ctx, st, reg, ab.Run)
		if err != nil {
			t.Fatalf("%s: ab: %v", name, err)
		}
		if abSum.A != ab.A || abSum.Games != ab.Games || abSum.Pentanomial != ab.Pentanomial {
			t.Errorf("%s: reloaded ab summary %s %d games %v, want %s %d %v", name, abSum.A, abSum.Games, abSum.Pentanomial, ab.A, ab.Games, ab.Pentanomial)
		}
		loaded, _, err := LoadResults(ctx, st, reg, p.Run.ID)
		if err != nil {
			t.Fatal(err)
		}
		e := loaded.Plan.Entrants[0]
		if e.Key() != "fixed:skill=6" || e.Label() != "fixed:skill=6" || e.IsExternal() {
			t.Errorf("%s: entrant key %q label %q external %v", name, e.Key(), e.Label(), e.IsExternal())
		}
		_, err = e.Bot(1)
		wantErr := map[string]string{"grown": "new parameters: bias", "gone": `unknown strategy "fixed"`}[name]
		if err == nil || !strings.Contains(err.Error(), "cannot play again") || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: playing the stored entrant: %v, want an error naming %q", name, err, wantErr)
		}
	}

	// Unchanged, the entrants are parsed again and can play.
	loaded, _, err := LoadResults(ctx, st, then, p.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loaded.Plan.Entrants[0].Bot(1); err != nil {
		t.Errorf("an unchanged strategy cannot play: %v", err)
	}
}
