package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/strategies/param"
)

// faulty is a toy game whose bots misbehave by their "fault" parameter: 1
// crashes on odd seeds and times out on even ones, 2 answers commands the
// rules ignore, 0 plays clean; every bot reports answer times.
type faulty struct{}

var faultyLimits = TimeLimits{Turn: 50 * time.Millisecond, FirstTurn: time.Second, Margin: 20 * time.Millisecond, FirstTurnMargin: 250 * time.Millisecond}

func (faulty) Info() GameInfo {
	return GameInfo{Name: "faulty", MinSeats: 1, MaxSeats: 2, HigherIsBetter: true, Limits: faultyLimits,
		CaseSets: []CaseSetInfo{{Name: "seeds:N"}}}
}

func (faulty) Cases(set string) ([]Case, error) {
	var n int
	if _, err := fmt.Sscanf(set, "seeds:%d", &n); err != nil {
		return nil, err
	}
	out := make([]Case, n)
	for i := range out {
		out[i] = Case{ID: fmt.Sprintf("seed:%d", i+1), Seed: uint64(i + 1)}
	}
	return out, nil
}

type faultyBot struct{ fault int }

func (faulty) Play(ctx context.Context, c Case, players []Player, opt PlayOptions) (Outcome, error) {
	lim := opt.Applied(faultyLimits)
	var out Outcome
	for _, p := range players {
		b := p.Bot
		s := SeatResult{Score: 1}
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
		}
		times := []time.Duration{time.Second + time.Duration(c.Seed)*time.Millisecond}
		for i := range 20 {
			times = append(times, time.Duration(40+i)*time.Millisecond)
		}
		s.Times = NewAnswerTimes(times, lim)
		out.Seats = append(out.Seats, s)
	}
	RanksByScore(out.Seats)
	out.Detail = map[string]any{"kept": 1}
	out.KeepAnswers()
	return out, nil
}

func faultyRegistry() *Registry {
	r := NewRegistry()
	r.RegisterGame(faulty{})
	specs := param.Specs{{Name: "fault", Kind: param.Int, Min: 0, Max: 2, Default: 0, Help: "how it misbehaves"}}
	r.RegisterStrategy(&Strategy{Game: "faulty", Name: "bot", Params: specs,
		New: func(v param.Values, seed uint64) (any, error) { return &faultyBot{fault: int(v["fault"])}, nil }})
	return r
}

// TestEvalConductByReason: the eval summary counts forfeits per kind with
// the first example of each, the ignored answers with the first, and the
// answer times with warnings; a run loaded back from the store (every game
// resumed) gives the same.
func TestEvalConductByReason(t *testing.T) {
	r := faultyRegistry()
	g, _ := r.Game("faulty")
	a, err := r.ParseEntrant("faulty", "bot:fault=1")
	if err != nil {
		t.Fatal(err)
	}
	o, err := r.ParseEntrant("faulty", "bot:fault=2")
	if err != nil {
		t.Fatal(err)
	}
	st := openTestStore(t, filepath.Join(t.TempDir(), "c.db"))
	var sums [2]*EvalSummary
	for i := range sums {
		p, err := EvalPlan(g, "seeds:6", a, []*Entrant{o}, "conduct")
		if err != nil {
			t.Fatal(err)
		}
		rs, err := (&Runner{Jobs: 2, Store: st}).Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 && rs.Resumed != 6 {
			t.Fatalf("second run resumed %d games", rs.Resumed)
		}
		sums[i] = SummarizeEval(rs)
	}
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
	if _, ok := s.Cases[0].Detail[AnswersDetailKey]; ok || s.Cases[0].Detail["kept"] == nil {
		t.Fatalf("case detail %v", s.Cases[0].Detail)
	}
	a0, _ := json.Marshal(sums[0].Conduct)
	a1, _ := json.Marshal(sums[1].Conduct)
	if string(a0) != string(a1) {
		t.Fatalf("resumed conduct differs:\n%s\n%s", a0, a1)
	}
}

// TestABConduct: ab keeps A's and B's conduct apart whatever their seats.
func TestABConduct(t *testing.T) {
	r := faultyRegistry()
	g, _ := r.Game("faulty")
	a, _ := r.ParseEntrant("faulty", "bot:fault=1")
	b, _ := r.ParseEntrant("faulty", "bot")
	p, err := ABPlan(g, "seeds:4", a, b, nil, 0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := (&Runner{Jobs: 2}).Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := SummarizeAB(rs, DefaultSPRT)
	if err != nil {
		t.Fatal(err)
	}
	if s.ForfeitsA != 8 || s.ConductA.Forfeits != 8 || len(s.ConductA.Reasons) != 2 || s.ConductB.Forfeits != 0 ||
		s.ConductA.Entrant != s.A || s.ConductB.Times == nil || s.ConductB.Times.First.Answers != 8 {
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

// TestTimeStatsQuantiles: the histogram's quantiles are within 2% of the
// exact ones, merging games gives the same figures as one sample, and a
// JSON round trip keeps them.
func TestTimeStatsQuantiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var all []float64
	var whole, merged TimeStats
	for range 30 {
		var game TimeStats
		for range 200 {
			d := time.Duration(math.Exp(rng.NormFloat64()+3) * float64(time.Millisecond))
			all = append(all, float64(d)/1e6)
			game.Add(d)
			whole.Add(d)
		}
		data, _ := json.Marshal(game)
		var back TimeStats
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		merged.Merge(back)
	}
	slices.Sort(all)
	for _, q := range []float64{0.5, 0.9, 0.99, 1} {
		exact := all[int(math.Ceil(q*float64(len(all))))-1]
		got := merged.QuantileMS(q)
		if got < exact || got > exact*1.0201 {
			t.Errorf("q %v: %v, exact %v", q, got, exact)
		}
		if whole.QuantileMS(q) != got {
			t.Errorf("q %v: merged %v, whole %v", q, got, whole.QuantileMS(q))
		}
	}
	if merged.N != len(all) || math.Abs(merged.MeanMS()-whole.MeanMS()) > 1e-9 || merged.MaxMS != all[len(all)-1] {
		t.Errorf("merged %d %v %v", merged.N, merged.MeanMS(), merged.MaxMS)
	}
	var empty TimeStats
	if empty.QuantileMS(0.99) != 0 || empty.MeanMS() != 0 {
		t.Error("empty stats")
	}
}

// TestTimeLimitOptions: every option applies or is refused with the reason;
// Applied and LimitKey give what a run is held to.
func TestTimeLimitOptions(t *testing.T) {
	paper := TimeLimits{Turn: 5 * time.Second, Total: 120 * time.Second, Margin: time.Second, NoFirstTurnTime: "no first-turn limit"}
	hex := TimeLimits{Turn: 10 * time.Minute, Margin: time.Second, Step: time.Second}
	for _, c := range []struct {
		l    TimeLimits
		o    PlayOptions
		want string
	}{
		{faultyLimits, PlayOptions{TurnTime: 60 * time.Millisecond, FirstTurnTime: 2 * time.Second, TimeMargin: 0, MarginSet: true}, ""},
		{faultyLimits, PlayOptions{TurnTime: -time.Second}, "--turn-time -1s: must not be negative"},
		{faultyLimits, PlayOptions{TimeMargin: -time.Millisecond, MarginSet: true}, "--time-margin -1ms: must not be negative"},
		{faultyLimits, PlayOptions{NoTimeLimit: true, TurnTime: time.Second}, "--turn-time 1s with --no-time-limit"},
		{faultyLimits, PlayOptions{NoTimeLimit: true}, ""},
		{faultyLimits, PlayOptions{TurnTime: time.Microsecond}, "--turn-time 1µs: must be between 1ms and 24h0m0s"},
		{paper, PlayOptions{FirstTurnTime: time.Second}, "--first-turn-time 1s: no first-turn limit"},
		{paper, PlayOptions{TurnTime: time.Second}, ""},
		{hex, PlayOptions{TurnTime: 1500 * time.Millisecond}, "--turn-time 1.5s: this game's limit is in whole multiples of 1s"},
		{TimeLimits{}, PlayOptions{TurnTime: time.Second}, "the game declares no time limit"},
		{TimeLimits{}, PlayOptions{}, ""},
	} {
		err := c.l.Check(c.o)
		if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	a := PlayOptions{TurnTime: 60 * time.Millisecond, TimeMargin: 5 * time.Millisecond, MarginSet: true}.Applied(faultyLimits)
	if a.Turn != 60*time.Millisecond || a.FirstTurn != time.Second || a.Margin != 5*time.Millisecond || a.FirstTurnMargin != 5*time.Millisecond {
		t.Errorf("applied %+v", a)
	}
	if a := (PlayOptions{NoTimeLimit: true}).Applied(paper); a.Turn != 0 || a.Total != 0 || a.Margin != 0 {
		t.Errorf("no limit applied %+v", a)
	}
	keys := map[string]bool{}
	for _, o := range []PlayOptions{{}, {TurnTime: 60 * time.Millisecond}, {FirstTurnTime: 2 * time.Second}, {MarginSet: true}, {NoTimeLimit: true}} {
		keys[o.LimitKey(faultyLimits)] = true
	}
	if len(keys) != 5 {
		t.Errorf("limit keys not distinct: %v", keys)
	}
	if got := (PlayOptions{}).LimitKey(faultyLimits); got != "turn=50ms first=1s total=0s margin=20ms first-margin=250ms" {
		t.Errorf("default key %q", got)
	}
	if got := paper.String(); got != "5,000 ms an answer + 1,000 ms margin, 120,000 ms all answers of a game + 1,000 ms margin" {
		t.Errorf("String %q", got)
	}
}
