package results

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/strategies/param"
)

// slack is the lower-is-better mirror of duel: every seat scores its bot's
// skill plus seeded noise (0..4) as a cost, and the lowest cost wins. The
// optimum of a case is the cost of skill 0: the noise of seat 0.
type slack struct{ seats int }

var _ contract.OptimumFinder = slack{}

func (s slack) Info() contract.GameInfo {
	return contract.GameInfo{Name: "slack", MinSeats: 1, MaxSeats: s.seats, Direction: contract.Lower,
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}}}
}

func (s slack) Cases(set string) ([]contract.Case, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
	if err != nil {
		return nil, err
	}
	out := make([]contract.Case, n)
	for i := range out {
		out[i] = contract.Case{ID: "seed:" + strconv.Itoa(i+1), Seed: uint64(i + 1)}
	}
	return out, nil
}

func slackNoise(caseSeed uint64, seat int) float64 {
	return 4 * rand.New(rand.NewPCG(caseSeed, uint64(seat))).Float64()
}

func (s slack) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	var out contract.Outcome
	for seat, p := range players {
		b := p.Bot
		out.Seats = append(out.Seats, contract.SeatResult{Score: b.(*harnesstest.DuelBot).Skill + slackNoise(c.Seed, seat)})
	}
	contract.Ranks(out.Seats, contract.Lower)
	return out, nil
}

func (slack) Optimum(ctx context.Context, c contract.Case) (float64, bool, error) {
	return slackNoise(c.Seed, 0), c.Seed%5 != 0, nil // unknown for every fifth case
}

func slackRegistry(seats int) (*contract.Registry, slack) {
	g := slack{seats: seats}
	r := contract.NewRegistry()
	r.RegisterGame(g)
	r.RegisterStrategy(&contract.Strategy{Game: "slack", Name: "fixed",
		Params: param.Specs{{Name: "skill", Kind: param.Float, Min: 0, Max: 10, Default: 5, Help: "cost added"}},
		New:    func(v param.Values, seed uint64) (any, error) { return &harnesstest.DuelBot{Skill: v["skill"]}, nil }})
	return r, g
}

func TestEvalLowerIsBetterWithOptima(t *testing.T) {
	r, g := slackRegistry(2)
	e, o := mustParse(t, r, "slack", "fixed:skill=1"), mustParse(t, r, "slack", "fixed")
	p, err := runner.EvalPlan(g, "seeds:40", e, []*entrant.Entrant{o}, "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := (&runner.Runner{Jobs: 2}).Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := SummarizeEval(rs)
	// Skill 1 against 5, noise 0..4: the lower cost wins nearly always.
	if s.Direction == contract.Higher || *s.FirstRate < 0.8 || *s.MeanRank > 1.2 {
		t.Fatalf("lower is better %v, first place %.2f, mean rank %.2f", s.Direction == contract.Lower, *s.FirstRate, *s.MeanRank)
	}
	if err := s.AddOptima(context.Background(), p, 3); err != nil {
		t.Fatal(err)
	}
	if *s.OptimumKnown != 32 || *s.AtOptimum != 0 || math.Abs(*s.MeanGap-1) > 1e-9 {
		t.Fatalf("optimum known %d, at it %d, mean gap %v; want 32, 0, 1", *s.OptimumKnown, *s.AtOptimum, *s.MeanGap)
	}
	for _, c := range s.Cases {
		n, err := strconv.Atoi(strings.TrimPrefix(c.Case, "seed:"))
		if err != nil {
			t.Fatalf("case %s: %v", c.Case, err)
		}
		if unknown := n%5 == 0; (c.Optimum == nil) != unknown {
			t.Fatalf("case %s: optimum %v, want unknown %v", c.Case, c.Optimum, unknown)
		}
		if c.Gap != nil && math.Abs(*c.Gap-1) > 1e-9 {
			t.Fatalf("case %s: gap %v, want 1", c.Case, *c.Gap)
		}
	}
}

func runSlackAB(t *testing.T, seats int, a, b string, sp SPRTSpec) *ABSummary {
	t.Helper()
	r, g := slackRegistry(seats)
	ea, eb := mustParse(t, r, "slack", a), mustParse(t, r, "slack", b)
	p, err := runner.ABPlan(g, "seeds:300", ea, eb, nil, 0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var stop runner.Stopper
	if sp.Early {
		if stop, err = NewSPRTStopper(p, sp); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := (&runner.Runner{Jobs: 2}).Run(context.Background(), p, stop)
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeAB(rs, sp)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// In a lower-is-better game the entrant with the lower costs wins: W/D/L,
// the pentanomial score, Elo and the SPRT all favour it.
func TestABLowerScorerWins(t *testing.T) {
	sp, err := ParseSPRT("0,10")
	if err != nil {
		t.Fatal(err)
	}
	s := runSlackAB(t, 2, "fixed:skill=3", "fixed", sp)
	if s.Direction == contract.Higher || s.Wins <= s.Losses || s.Score <= 0.5 || s.Elo <= 0 || s.SPRT != "H1" || !s.Stopped {
		t.Fatalf("A with lower costs: +%d =%d -%d score %.3f elo %.1f sprt %s stopped %v", s.Wins, s.Draws, s.Losses, s.Score, s.Elo, s.SPRT, s.Stopped)
	}
	for _, c := range s.Cases {
		want := 0.0
		for i := range c.A {
			switch {
			case c.A[i] < c.B[i]:
				want++
			case c.A[i] == c.B[i]:
				want += 0.5
			}
		}
		if c.Points != want {
			t.Fatalf("case %s: A %v B %v, A's points %v, want %v", c.Case, c.A, c.B, c.Points, want)
		}
	}
	// Mirror: B has the lower costs, the SPRT accepts H0 (A not stronger).
	m := runSlackAB(t, 2, "fixed", "fixed:skill=3", sp)
	if m.Wins >= m.Losses || m.Score >= 0.5 || m.Elo >= 0 || m.SPRT != "H0" {
		t.Fatalf("A with higher costs: +%d =%d -%d score %.3f elo %.1f sprt %s", m.Wins, m.Draws, m.Losses, m.Score, m.Elo, m.SPRT)
	}
}

// Single-player: A − B is reported as the scores come (negative when A's
// costs are lower), and the cases won count the lower cost.
func TestABSingleLowerIsBetter(t *testing.T) {
	s := runSlackAB(t, 1, "fixed:skill=3", "fixed", DefaultSPRT)
	if s.Direction == contract.Higher || s.MeanDiff == nil || math.Abs(*s.MeanDiff+2) > 1e-9 || *s.BetterA != 300 || *s.BetterB != 0 {
		t.Fatalf("single lower: diff %v, A better on %d, B on %d", *s.MeanDiff, *s.BetterA, *s.BetterB)
	}
	if s.WilcoxonP == nil || *s.WilcoxonP > 1e-6 {
		t.Fatalf("Wilcoxon p %v: want tiny (every case favours A)", s.WilcoxonP)
	}
}
