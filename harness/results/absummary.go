package results

import (
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/stats"
)

// abTally accumulates the games of a two-or-more-seat ab run in plan order:
// single games (W/D/L), pairs (pentanomial) and the sequential test.
type abTally struct {
	plan    *runner.Plan
	info    contract.GameInfo // the game's direction decides who wins a game
	sprt    stats.SPRT
	early   bool
	wdl     stats.WDL
	pent    stats.Pentanomial
	pending *runner.Result // the first game of the current pair
	status  stats.SPRTStatus
	history []ABPoint
	decided bool
	err     error // the first failure to compute the test
	// every is how many pairs apart the test is evaluated when it cannot
	// stop the run (its status only draws the plots, see historyPoints).
	every int
}

// historyPoints is at most how many points the Elo and LLR plots of an ab run
// without an early stop get. One evaluation of the test costs about 13 µs
// (the MLE of its t-value), so evaluating it after each of a 20,000-game
// run's 10,000 pairs took 0.13 s, an eighth of the run; a run that may stop
// early evaluates it after every pair, as it must.
const historyPoints = 1000

func newABTally(p *runner.Plan, sp SPRTSpec) (*abTally, error) {
	t, err := stats.NewSPRT(sp.Elo0, sp.Elo1, sp.Alpha, sp.Beta, sp.EloModel())
	if err != nil {
		return nil, err
	}
	every := 1
	if !sp.Early {
		every = max((len(p.Matches)/2+historyPoints-1)/historyPoints, 1)
	}
	return &abTally{plan: p, info: p.Game.Info(), sprt: t, early: sp.Early, every: every,
		status: stats.SPRTStatus{Verdict: stats.Continue}}, nil
}

// add takes the next result in plan order; it reports whether the test has
// decided and the run may stop (only when early stopping is on).
func (t *abTally) add(r *runner.Result) bool {
	m := &t.plan.Matches[r.Index]
	pts := gamePoints(t.info, m, &r.Outcome)
	if err := t.wdl.Add(pts); err != nil && t.err == nil {
		t.err = err // gamePoints gives 0, ½ or 1: cannot happen
	}
	if r.Index%2 == 0 {
		t.pending = r
		return false
	}
	first := t.pending
	t.pending = nil
	if first == nil || first.Index != r.Index-1 {
		return false
	}
	if err := t.pent.AddPair(gamePoints(t.info, &t.plan.Matches[first.Index], &first.Outcome), pts); err != nil && t.err == nil {
		t.err = err
	}
	if !t.current() {
		return false
	}
	return t.evaluate()
}

// current reports whether the test's status is that of the pairs so far:
// it is evaluated after every every-th pair.
func (t *abTally) current() bool { return t.pent.Pairs()%t.every == 0 }

// evaluate brings the test's status up to the pairs so far; it reports
// whether the run may stop.
func (t *abTally) evaluate() bool {
	st, err := t.sprt.Status(t.pent)
	if err != nil {
		// Never a silent 0: the run goes on without an early stop and
		// the summary fails with the reason.
		if t.err == nil {
			t.err = fmt.Errorf("after %d games: %w", t.pent.Games(), err)
		}
		return false
	}
	t.status = st
	elo := t.pent.Elo()
	t.history = append(t.history, ABPoint{Games: t.pent.Games(), Score: t.pent.Score(), Elo: elo.Value, LLR: t.status.LLR})
	if t.status.Verdict != stats.Continue && t.early {
		t.decided = true
	}
	return t.decided
}

// sprtStopper stops an ab run once its sequential test decides.
type sprtStopper struct{ t *abTally }

func (s sprtStopper) Add(r *runner.Result) bool { return s.t.add(r) }

// NewSPRTStopper returns the Stopper of an ab plan of two or more seats:
// it stops the run when the SPRT of sp accepts H0 or H1, if sp.Early.
func NewSPRTStopper(p *runner.Plan, sp SPRTSpec) (runner.Stopper, error) {
	t, err := newABTally(p, sp)
	if err != nil {
		return nil, err
	}
	return sprtStopper{t}, nil
}

// SummarizeAB builds the ab summary from a run's results: for games of two
// or more seats the W/D/L, pentanomial, Elo ± 95% CI, LOS and the SPRT of
// sp over the decided pairs; for single-player games the paired per-case
// differences A − B (mean ± 95% t-interval, Wilcoxon signed-rank p) and the
// official aggregation per group.
func SummarizeAB(rs *runner.Results, sp SPRTSpec) (*ABSummary, error) {
	p := rs.Plan
	if len(p.Entrants) < 2 {
		return nil, fmt.Errorf("ab summary: the plan has %d entrants", len(p.Entrants))
	}
	info := p.Game.Info()
	s := &ABSummary{
		Game: info.Name, A: p.Entrants[0].Label(), B: p.Entrants[1].Label(),
		CaseSet: p.Run.CaseSet, Run: p.Run.ID, Stopped: rs.Stopped, Direction: info.Direction, Planned: len(p.Matches),
		RefereeErrors: rs.RefereeErrors,
	}
	spc := sp
	s.SPRTConfig = &spc
	if info.MaxSeats == 1 {
		return summarizeSingleAB(rs, s)
	}
	t, err := newABTally(p, sp)
	if err != nil {
		return nil, err
	}
	ca, cb := ConductTally{Entrant: s.A, Game: p.Game}, ConductTally{Entrant: s.B, Game: p.Game}
	defer func() { s.ConductA, s.ConductB = ca.Conduct(), cb.Conduct() }()
	// The pairs of the games before the first gap, their cases and scores
	// allocated at once: appending made 2 million slices for a million
	// games and grew the cases by doubling (the dashboard's live figures,
	// BenchmarkPagesMillionGames/livestats-follow: 1.0 s and 325 MB a
	// computation before, 0.85 s and 92 MB after).
	played := 0
	for played < len(rs.Results) && rs.Results[played] != nil {
		played++
	}
	s.Cases = make([]ABCase, 0, (played+1)/2)
	scores := make([]float64, 4*cap(s.Cases))
	for _, r := range rs.Results {
		if r == nil {
			// A gap: later games cannot enter a sequential test.
			s.Notes = append(s.Notes, "some games of the plan were not played; the summary uses the games before the first gap")
			break
		}
		m := &p.Matches[r.Index]
		if r.Index%2 == 0 {
			k := 4 * len(s.Cases)
			s.Cases = append(s.Cases, ABCase{Case: m.Case.ID, Group: m.Case.Group, A: scores[k : k : k+2], B: scores[k+2 : k+2 : k+4]})
		}
		c := &s.Cases[len(s.Cases)-1]
		c.A = append(c.A, r.Outcome.Seats[runner.SeatOf(m, 0)].Score)
		c.B = append(c.B, r.Outcome.Seats[runner.SeatOf(m, 1)].Score)
		c.Points += gamePoints(info, m, &r.Outcome)
		if r.Outcome.Seats[runner.SeatOf(m, 0)].Forfeit != "" {
			s.ForfeitsA++
		}
		if r.Outcome.Seats[runner.SeatOf(m, 1)].Forfeit != "" {
			s.ForfeitsB++
		}
		ca.Add(m.Case.ID, &r.Outcome, runner.SeatOf(m, 0))
		cb.Add(m.Case.ID, &r.Outcome, runner.SeatOf(m, 1))
		if t.add(r) {
			s.Stopped = true
			break
		}
	}
	if !t.current() {
		t.evaluate()
	}
	if n := len(s.Cases); n > 0 && len(s.Cases[n-1].A) < 2 {
		s.Cases = s.Cases[:n-1] // an unpaired last game is left out
	}
	s.Wins, s.Draws, s.Losses = 0, 0, 0
	for _, c := range s.Cases {
		for i := range c.A {
			switch {
			case info.Better(c.A[i], c.B[i]):
				s.Wins++
			case info.Better(c.B[i], c.A[i]):
				s.Losses++
			default:
				s.Draws++
			}
		}
	}
	s.Games = s.Wins + s.Draws + s.Losses
	s.Pentanomial = t.pent
	s.Score = t.pent.Score()
	elo := t.pent.Elo()
	s.Elo, s.EloCI95 = elo.Value, [2]float64{elo.Lo, elo.Hi}
	if elo.Note != "" {
		s.Notes = append(s.Notes, elo.Note)
	}
	s.LOS = t.pent.LOS()
	if t.err != nil {
		return nil, fmt.Errorf("ab summary: the sequential test: %w", t.err)
	}
	s.LLR = t.status.LLR
	s.SPRT = string(t.status.Verdict)
	if s.SPRT == "" {
		s.SPRT = string(stats.Continue)
	}
	s.History = t.history
	if s.Games == 0 {
		s.Notes = append(s.Notes, "no complete pair of games yet")
	}
	return s, nil
}

// CountStored records n, the games stored for the run, and what the
// summary leaves of them: the stored games it does not count (after an
// early stop, those that finished beyond the stop point: in flight when the
// test decided, or ahead of it in plan order; otherwise an unpaired last
// game or games after a gap) and, after an early stop, the planned games
// abandoned (never played).
func (s *ABSummary) CountStored(n int) {
	s.StoredGames = &n
	s.Uncounted = max(n-s.Games, 0)
	s.Abandoned = 0
	if s.Stopped {
		s.Abandoned = max(s.Planned-n, 0)
	}
}

func summarizeSingleAB(rs *runner.Results, s *ABSummary) (*ABSummary, error) {
	p := rs.Plan
	ca, cb := ConductTally{Entrant: s.A, Game: p.Game}, ConductTally{Entrant: s.B, Game: p.Game}
	defer func() { s.ConductA, s.ConductB = ca.Conduct(), cb.Conduct() }()
	var a, b []float64
	groupsA := map[string]map[string]float64{}
	groupsB := map[string]map[string]float64{}
	var order []string
	betterA, betterB := 0, 0
	for i := 0; i+1 < len(p.Matches); i += 2 {
		ra, rb := rs.Results[i], rs.Results[i+1]
		if ra == nil || rb == nil {
			continue
		}
		c := p.Matches[i].Case
		sa, sb := ra.Outcome.Seats[0].Score, rb.Outcome.Seats[0].Score
		s.Cases = append(s.Cases, ABCase{Case: c.ID, Group: c.Group, A: []float64{sa}, B: []float64{sb}, Points: sa - sb})
		a, b = append(a, sa), append(b, sb)
		switch info := p.Game.Info(); {
		case info.Better(sa, sb):
			betterA++
		case info.Better(sb, sa):
			betterB++
		}
		if ra.Outcome.Seats[0].Forfeit != "" {
			s.ForfeitsA++
		}
		if rb.Outcome.Seats[0].Forfeit != "" {
			s.ForfeitsB++
		}
		ca.Add(c.ID, &ra.Outcome, 0)
		cb.Add(c.ID, &rb.Outcome, 0)
		if c.Group != "" {
			if groupsA[c.Group] == nil {
				groupsA[c.Group], groupsB[c.Group] = map[string]float64{}, map[string]float64{}
				order = append(order, c.Group)
			}
			groupsA[c.Group][c.ID] = sa
			groupsB[c.Group][c.ID] = sb
		}
	}
	s.Games = 2 * len(a)
	s.BetterA, s.BetterB = &betterA, &betterB
	ma, mb := stats.MeanCI95(a).Value, stats.MeanCI95(b).Value
	s.MeanA, s.MeanB = &ma, &mb
	if len(a) > 0 {
		d, err := stats.PairedMeanCI95(a, b)
		if err != nil {
			return nil, err
		}
		s.MeanDiff, s.CI95 = &d.Value, &[2]float64{d.Lo, d.Hi}
		if d.Note != "" {
			s.Notes = append(s.Notes, d.Note)
		}
		if pv, ok := wilcoxonTwoSided(a, b); ok {
			s.WilcoxonP = &pv
		}
	} else {
		s.Notes = append(s.Notes, "no case played by both entrants yet")
	}
	if agg, ok := p.Game.(contract.Aggregator); ok {
		for _, g := range order {
			s.Groups = append(s.Groups, ABGroups{Group: g, A: agg.Aggregate(g, groupsA[g]), B: agg.Aggregate(g, groupsB[g])})
		}
	}
	s.SPRT = "n/a"
	s.SPRTConfig = nil
	return s, nil
}
