package results

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/internal/testjson"
)

// costedDuel is the duel game with a cost per case (the seed modulo 5) and
// a log of the order in which cases start.
type costedDuel struct {
	*harnesstest.Duel
	mu      sync.Mutex
	started []uint64
}

func (d *costedDuel) Cost(c contract.Case) float64 { return float64(c.Seed % 5) }

func (d *costedDuel) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	d.mu.Lock()
	d.started = append(d.started, c.Seed)
	d.mu.Unlock()
	return d.Duel.Play(ctx, c, players, opt)
}

var _ contract.Coster = (*costedDuel)(nil)

func TestCostliestCasesStartFirst(t *testing.T) {
	base := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(base)
	plain := evalJSON(t, &runner.Runner{Jobs: 1}, r, base, 20)
	for _, storage := range []string{"none", "sqlite"} {
		t.Run(storage, func(t *testing.T) {
			d := &costedDuel{Duel: base}
			rn := &runner.Runner{Jobs: 1}
			if storage == "sqlite" {
				rn.Store = harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "g.db"))
			}
			p, err := runner.EvalPlan(d, "seeds:20", mustEntrant(t, r, "fixed:skill=6"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "")
			if err != nil {
				t.Fatal(err)
			}
			rs, err := rn.Run(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Seeds 4, 9, 14, 19 cost 4; then 3, 8, 13, 18; ... plan order within a cost.
			var want []uint64
			for c := uint64(4); ; c-- {
				for s := uint64(1); s <= 20; s++ {
					if s%5 == c {
						want = append(want, s)
					}
				}
				if c == 0 {
					break
				}
			}
			if !slices.Equal(d.started, want) {
				t.Fatalf("start order %v, want %v", d.started, want)
			}
			js := testjson.Marshal(t, SummarizeEval(rs))
			if string(js) != plain {
				t.Fatalf("results depend on the launch order:\n%s\n%s", js, plain)
			}
		})
	}
}

func TestEarlyStopKeepsPlanOrder(t *testing.T) {
	d := &costedDuel{Duel: &harnesstest.Duel{Seats: 2}}
	r := harnesstest.DuelRegistry(d.Duel)
	p, err := runner.EvalPlan(d, "seeds:10", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&runner.Runner{Jobs: 1}).Run(context.Background(), p, &stopAfter{n: 100, cancel: func() {}}); err != nil {
		t.Fatal(err)
	}
	for i, s := range d.started {
		if s != uint64(i+1) {
			t.Fatalf("with a stopper, start order %v, want plan order", d.started)
		}
	}
}
