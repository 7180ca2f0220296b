package results

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
	"gauntlet/internal/testjson"
	"gauntlet/strategies/param"
)

// faulty is a toy game whose bots misbehave by their "fault" parameter: 1
// crashes on odd seeds and times out on even ones, 2 answers commands the
// rules ignore, 3 is out of the game on odd seeds (contract.Eliminator), 0
// plays clean; every bot reports answer times.
type faulty struct{}

var _ contract.Eliminator = faulty{}

var faultyLimits = contract.TimeLimits{Turn: 50 * time.Millisecond, FirstTurn: time.Second, Margin: 20 * time.Millisecond, FirstTurnMargin: 250 * time.Millisecond}

func (faulty) Info() contract.GameInfo {
	return contract.GameInfo{Name: "faulty", MinSeats: 1, MaxSeats: 3, Direction: contract.Higher, Limits: faultyLimits,
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N"}}}
}

func (faulty) Cases(set string) ([]contract.Case, error) {
	var n int
	if _, err := fmt.Sscanf(set, "seeds:%d", &n); err != nil {
		return nil, err
	}
	out := make([]contract.Case, n)
	for i := range out {
		out[i] = contract.Case{ID: fmt.Sprintf("seed:%d", i+1), Seed: uint64(i + 1)}
	}
	return out, nil
}

type faultyBot struct{ fault int }

func (faulty) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	lim := opt.Applied(faultyLimits)
	var out contract.Outcome
	causes := make([]string, len(players))
	for i, p := range players {
		b := p.Bot
		s := contract.SeatResult{Score: 1}
		switch b.(*faultyBot).fault {
		case 1:
			s.Score = 0
			if c.Seed%2 == 1 {
				s.Forfeit = fmt.Sprintf("crashed in round %d: exit status 3; stderr: oops %d", c.Seed, c.Seed)
			} else {
				s.Forfeit = fmt.Sprintf("timeout in round 1: answered after 1,%03d ms, limit 1,000 ms + margin 250 ms", 260+c.Seed)
			}
		case 2:
			s.Ignored, s.IgnoredFirst = int(c.Seed), fmt.Sprintf(`"BANANA": not a command (round %d)`, c.Seed)
		case 3:
			if c.Seed%2 == 1 {
				s.Score, causes[i] = 0.5, fmt.Sprintf("hit the wall in round %d", c.Seed)
			}
		}
		times := []time.Duration{time.Second + time.Duration(c.Seed)*time.Millisecond}
		for i := range 20 {
			times = append(times, time.Duration(40+i)*time.Millisecond)
		}
		s.Times = contract.NewAnswerTimes(times, lim)
		out.Seats = append(out.Seats, s)
	}
	contract.RanksByScore(out.Seats)
	out.Detail = map[string]any{"kept": 1, "out": causes}
	out.KeepAnswers()
	return out, nil
}

// Eliminated reads the seat's cause from the detail.
func (faulty) Eliminated(o *contract.Outcome, seat int) string { return o.SeatString("out", seat) }

func faultyRegistry() *contract.Registry {
	r := contract.NewRegistry()
	r.RegisterGame(faulty{})
	specs := param.Specs{{Name: "fault", Kind: param.Int, Min: 0, Max: 3, Default: 0, Help: "how it misbehaves"}}
	r.RegisterStrategy(&contract.Strategy{Game: "faulty", Name: "bot", Params: specs,
		New: func(v param.Values, seed uint64) (any, error) { return &faultyBot{fault: int(v["fault"])}, nil }})
	return r
}

// evalTwice plays an eval of a against opp on seeds:n into a fresh store,
// then again (every game resumed from the store), and returns both
// summaries.
func evalTwice(t *testing.T, g contract.Game, a, opp *entrant.Entrant, n int) [2]*EvalSummary {
	t.Helper()
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "e.db"))
	var sums [2]*EvalSummary
	for i := range sums {
		p, err := runner.EvalPlan(g, fmt.Sprintf("seeds:%d", n), a, []*entrant.Entrant{opp}, "twice")
		if err != nil {
			t.Fatal(err)
		}
		rs, err := (&runner.Runner{Jobs: 2, Store: st}).Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 && rs.Resumed != n {
			t.Fatalf("second run resumed %d games of %d", rs.Resumed, n)
		}
		sums[i] = SummarizeEval(rs)
	}
	return sums
}

// abOf plays an ab of a against b on seeds:n (2n games) and summarizes it.
func abOf(t *testing.T, g contract.Game, a, b *entrant.Entrant, n int) *ABSummary {
	t.Helper()
	p, err := runner.ABPlan(g, fmt.Sprintf("seeds:%d", n), a, b, nil, 0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := (&runner.Runner{Jobs: 2}).Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeAB(rs, DefaultSPRT)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestEvalConductByReason: the eval summary counts forfeits per kind with
// the first example of each, the ignored answers with the first, and the
// answer times with warnings; a run loaded back from the store (every game
// resumed) gives the same.
func TestEvalConductByReason(t *testing.T) {
	r := faultyRegistry()
	g := mustGame(t, r, "faulty")
	a, err := entrant.Parse(r, "faulty", "bot:fault=1")
	if err != nil {
		t.Fatal(err)
	}
	o, err := entrant.Parse(r, "faulty", "bot:fault=2")
	if err != nil {
		t.Fatal(err)
	}
	sums := evalTwice(t, g, a, o, 6)
	s := sums[0]
	if len(s.Conduct) != 2 {
		t.Fatalf("conduct of %d entrants", len(s.Conduct))
	}
	c := s.Conduct[0]
	want := []ReasonCount{
		{Kind: "crashed in round #: exit status #", Count: 3, First: "crashed in round 1: exit status 3; stderr: oops 1", Case: "seed:1"},
		{Kind: "timeout in round #: answered after # ms, limit # ms + margin # ms", Count: 3, First: "timeout in round 1: answered after 1,262 ms, limit 1,000 ms + margin 250 ms", Case: "seed:2"},
	}
	if c.Forfeits != 6 || c.Games != 6 || !slices.Equal(c.Reasons, want) {
		t.Fatalf("reasons %+v", c.Reasons)
	}
	opp := s.Conduct[1]
	if opp.Forfeits != 0 || opp.Ignored != 21 || opp.IgnoredGames != 6 || opp.IgnoredFirst != `"BANANA": not a command (round 1)` || opp.IgnoredCase != "seed:1" {
		t.Fatalf("opponent %+v", opp)
	}
	tm := c.Times
	if tm == nil || tm.First.Answers != 6 || tm.Later.Answers != 120 || tm.First.LimitMS != 1000 || tm.First.MarginMS != 250 ||
		tm.Later.LimitMS != 50 || tm.Later.MarginMS != 20 || tm.Later.MaxMS != 59 || math.Abs(tm.Later.MeanMS-49.5) > 1e-9 {
		t.Fatalf("times %+v %+v", tm.First, tm.Later)
	}
	if len(c.Warnings) != 2 || !strings.HasPrefix(c.Warnings[0], "first answers: up to 1,006 ms against a limit of 1,000 ms + 250 ms margin") ||
		!strings.HasPrefix(c.Warnings[1], "later answers: up to 59 ms against a limit of 50 ms + 20 ms margin") {
		t.Fatalf("warnings %q", c.Warnings)
	}
	if _, ok := s.Cases[0].Detail[contract.AnswersDetailKey]; ok || s.Cases[0].Detail["kept"] == nil {
		t.Fatalf("case detail %v", s.Cases[0].Detail)
	}
	a0 := testjson.Marshal(t, sums[0].Conduct)
	a1 := testjson.Marshal(t, sums[1].Conduct)
	if string(a0) != string(a1) {
		t.Fatalf("resumed conduct differs:\n%s\n%s", a0, a1)
	}
}

// TestABConduct: ab keeps A's and B's conduct apart whatever their seats.
func TestABConduct(t *testing.T) {
	r := faultyRegistry()
	g, a, b := mustGame(t, r, "faulty"), mustParse(t, r, "faulty", "bot:fault=1"), mustParse(t, r, "faulty", "bot")
	s := abOf(t, g, a, b, 4)
	if s.ForfeitsA != 8 || s.ConductA.Forfeits != 8 || len(s.ConductA.Reasons) != 2 || s.ConductB.Forfeits != 0 ||
		s.ConductA.Entrant != s.A || s.ConductB.Times == nil || s.ConductB.Times.First.Answers != 8 {
		t.Fatalf("A %+v\nB %+v", s.ConductA, s.ConductB)
	}
}

// TestEliminations: the eval and ab summaries count an entrant's
// eliminations by cause, the same from games played and from games loaded
// back from the store; the opponent, never out, counts none.
func TestEliminations(t *testing.T) {
	r := faultyRegistry()
	g, a, o := mustGame(t, r, "faulty"), mustParse(t, r, "faulty", "bot:fault=3"), mustParse(t, r, "faulty", "bot")
	want := []ReasonCount{{Kind: "hit the wall in round #", Count: 3, First: "hit the wall in round 1", Case: "seed:1"}}
	var js [2][]byte
	for i, s := range evalTwice(t, g, a, o, 6) {
		if len(s.Conduct) != 2 || s.Conduct[0].Eliminated != 3 || !slices.Equal(s.Conduct[0].Causes, want) || s.Conduct[1].Eliminated != 0 {
			t.Fatalf("run %d: conduct %+v", i, s.Conduct)
		}
		if !s.Eliminations || s.Cases[0].Eliminated != "hit the wall in round 1" || s.Cases[1].Eliminated != "" {
			t.Fatalf("run %d: cases %+v", i, s.Cases[:2])
		}
		js[i] = testjson.Marshal(t, s.Conduct)
	}
	// A line-up of three: each entrant's standing counts its eliminations.
	p3, err := runner.EvalPlan(g, "seeds:4", o, []*entrant.Entrant{a, o}, "")
	if err != nil {
		t.Fatal(err)
	}
	rs3, err := (&runner.Runner{Jobs: 2}).Run(context.Background(), p3, nil)
	if err != nil {
		t.Fatal(err)
	}
	s3 := SummarizeEval(rs3)
	if len(s3.Standings) != 3 || s3.Standings[0].Eliminated != 0 || s3.Standings[1].Eliminated != 2 || s3.Standings[2].Eliminated != 0 {
		t.Fatalf("standings %+v", s3.Standings)
	}
	if string(js[0]) != string(js[1]) {
		t.Fatalf("resumed conduct differs:\n%s\n%s", js[0], js[1])
	}
	s := abOf(t, g, a, o, 4)
	if s.ConductA.Eliminated != 4 || len(s.ConductA.Causes) != 1 || s.ConductA.Causes[0].Count != 4 || s.ConductB.Eliminated != 0 {
		t.Fatalf("A %+v\nB %+v", s.ConductA, s.ConductB)
	}
}

func TestReasonKind(t *testing.T) {
	for in, want := range map[string]string{
		"crashed in round 4: exit status 3; stderr: boom | bang":                                    "crashed in round #: exit status #",
		`unparseable line "FOO BAR" (round 12)`:                                                     `unparseable line "…" (round #)`,
		"read timeout error: no answer within 7,000 ms (limit 5,000 ms + margin 1,000 ms) (tick 3)": "read timeout error: no answer within # ms (limit # ms + margin # ms) (tick #)",
		"hextris solver ./s: finished after 1.5 ms, limit 1 ms":                                     "hextris solver ./s: finished after # ms, limit # ms",
	} {
		if got := ReasonKind(in); got != want {
			t.Errorf("ReasonKind(%q) = %q, want %q", in, got, want)
		}
	}
}
