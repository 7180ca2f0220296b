package results

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
)

// EvalSummary is the answer of `gauntlet eval`: per-case scores of the
// evaluated entrant (seat 0), per-group official scores where the game
// defines an aggregation, totals and a 95% confidence interval.
type EvalSummary struct {
	Game      string         `json:"game"`
	Strategy  string         `json:"strategy"`
	Params    map[string]any `json:"params"`
	Opponents []string       `json:"opponents,omitempty"`
	CaseSet   string         `json:"case_set"`
	Run       string         `json:"run"`
	Cases     []EvalCase     `json:"cases"`
	Groups    []EvalGroup    `json:"groups,omitempty"`
	Total     float64        `json:"total"`
	Mean      float64        `json:"mean"`
	CI95      [2]float64     `json:"ci95"`
	Games     int            `json:"games"`
	Missing   int            `json:"missing,omitempty"` // cases not played (interrupted run)
	Forfeits  int            `json:"forfeits"`
	// Multi-seat games: how often seat 0 finished first (ties share first
	// place) and its mean rank.
	FirstRate *float64 `json:"first_rate,omitempty"`
	MeanRank  *float64 `json:"mean_rank,omitempty"`
	// Standings, in games of three seats or more, is every entrant's
	// record in seat order, the evaluated one first: who came first most
	// often is the question a line-up answers.
	Standings []EvalStanding `json:"standings,omitempty"`
	// Eliminations is true when the game says why a seat was out before
	// the end (contract.Eliminator): the cases and standings carry it.
	Eliminations bool `json:"eliminations,omitempty"`
	// Conduct is the evaluated entrant's forfeits by reason, ignored
	// answers and answer times, then the opponents' where they have any.
	Conduct []Conduct `json:"conduct"`
	// Direction is Lower for games whose scores are costs (towers: moves):
	// the best mean, total and group score are the lowest. JSON keeps the
	// field's earlier name and form: lower_is_better, a boolean.
	Direction contract.Direction `json:"lower_is_better,omitempty"`
	// Optimum figures, for games that know the best possible score of a
	// case (OptimumFinder; see AddOptima): the cases whose optimum is known,
	// how many of them were played at their optimum, and the mean gap to it
	// over those cases (always >= 0: how far from the best possible).
	OptimumKnown *int     `json:"optimum_known,omitempty"`
	AtOptimum    *int     `json:"at_optimum,omitempty"`
	MeanGap      *float64 `json:"mean_gap,omitempty"`
	// WallSeconds is the summed game time; kept out of --json (not reproducible).
	WallSeconds float64 `json:"-"`
	// RefereeErrors are the games whose referee failed in this process
	// (see RefereeError): not in the summary's figures.
	RefereeErrors []contract.RefereeFailure `json:"referee_errors,omitempty"`
}

// Stored is the summary as Store.FinishRun keeps it with its run: without
// the per-case rows, which the run's games hold (a 20,000-game run's rows
// are 2 MB of JSON).
func (s *EvalSummary) Stored() *EvalSummary {
	c := *s
	c.Cases = nil
	return &c
}

// EvalCase is one case of an eval.
type EvalCase struct {
	Case           string         `json:"case"`
	Group          string         `json:"group,omitempty"`
	Score          float64        `json:"score"`
	Rank           int            `json:"rank,omitempty"`
	Turns          int            `json:"turns"`
	Forfeit        string         `json:"forfeit,omitempty"`
	Eliminated     string         `json:"eliminated,omitempty"` // why the entrant was out before the end (contract.Eliminator)
	Ignored        int            `json:"ignored,omitempty"`    // answers the rules ignored
	OpponentScores []float64      `json:"opponent_scores,omitempty"`
	Detail         map[string]any `json:"detail,omitempty"`
	// Optimum is the best possible score of the case and Gap the distance of
	// Score from it (>= 0), when the game knows it (AddOptima).
	Optimum *float64 `json:"optimum,omitempty"`
	Gap     *float64 `json:"gap,omitempty"`
	WallMS  float64  `json:"-"`
}

// EvalStanding is one entrant's record over the games of an eval.
type EvalStanding struct {
	Entrant   string  `json:"entrant"`
	Games     int     `json:"games"`
	Firsts    int     `json:"firsts"` // games it finished first (ties share first place)
	MeanRank  float64 `json:"mean_rank"`
	MeanScore float64 `json:"mean_score"`
	Forfeits  int     `json:"forfeits,omitempty"`
	// Eliminated counts the games it was out of before their end, in a
	// game that says so (EvalSummary.Eliminations).
	Eliminated int `json:"eliminated,omitempty"`
}

// EvalGroup is one aggregation group (hextris: one problem).
type EvalGroup struct {
	Group string  `json:"group"`
	Cases int     `json:"cases"`
	Score float64 `json:"score"`
}

// SummarizeEval builds the eval summary from a run's results.
func SummarizeEval(rs *runner.Results) *EvalSummary {
	p := rs.Plan
	e := p.Entrants[0]
	rec := e.Record()
	info := p.Game.Info()
	s := &EvalSummary{Game: info.Name, Strategy: e.Label(), Params: rec.Params, CaseSet: p.Run.CaseSet, Run: p.Run.ID,
		Direction: info.Direction, RefereeErrors: rs.RefereeErrors, Eliminations: contract.Eliminates(p.Game)}
	for _, o := range p.Entrants[1:] {
		s.Opponents = append(s.Opponents, o.Label())
	}
	multi := len(p.Entrants) > 1
	s.Cases = make([]EvalCase, 0, len(p.Matches))
	scores := make([]float64, 0, len(p.Matches))
	var opps []float64 // every case's opponent scores, in one slab
	if multi {
		opps = make([]float64, 0, len(p.Matches)*(len(p.Entrants)-1))
	}
	groups := map[string]map[string]float64{}
	var groupOrder []string
	first, rankSum := 0, 0
	var stand []EvalStanding
	if len(p.Entrants) > 2 {
		stand = make([]EvalStanding, len(p.Entrants))
		for k, e := range p.Entrants {
			stand[k].Entrant = e.Label()
		}
	}
	for i, m := range p.Matches {
		r := rs.Results[i]
		if r == nil {
			s.Missing++
			continue
		}
		for k, st := range r.Outcome.Seats {
			if stand != nil && k < len(m.Seats) {
				addStanding(&stand[m.Seats[k]], st, contract.EliminatedOf(p.Game, &r.Outcome, k))
			}
		}
		seat := r.Outcome.Seats[0]
		c := EvalCase{Case: m.Case.ID, Group: m.Case.Group, Score: seat.Score, Turns: r.Outcome.Turns,
			Forfeit: seat.Forfeit, Eliminated: contract.EliminatedOf(p.Game, &r.Outcome, 0), Ignored: r.Outcome.SeatAnswers(0).Ignored,
			Detail: withoutAnswers(r.Outcome.Detail), WallMS: float64(r.Wall) / 1e6}
		if multi {
			c.Rank = seat.Rank
			lo := len(opps)
			for _, o := range r.Outcome.Seats[1:] {
				opps = append(opps, o.Score)
			}
			c.OpponentScores = opps[lo:len(opps):len(opps)]
			if seat.Rank == 1 {
				first++
			}
			rankSum += seat.Rank
		}
		if seat.Forfeit != "" {
			s.Forfeits++
		}
		s.Cases = append(s.Cases, c)
		scores = append(scores, seat.Score)
		s.WallSeconds += r.Wall.Seconds()
		if m.Case.Group != "" {
			if groups[m.Case.Group] == nil {
				groups[m.Case.Group] = map[string]float64{}
				groupOrder = append(groupOrder, m.Case.Group)
			}
			groups[m.Case.Group][m.Case.ID] = seat.Score
		}
	}
	s.Games = len(scores)
	agg, isAgg := p.Game.(contract.Aggregator)
	if isAgg && len(groupOrder) > 0 {
		sortGroups(groupOrder)
		for _, gname := range groupOrder {
			v := agg.Aggregate(gname, groups[gname])
			s.Groups = append(s.Groups, EvalGroup{Group: gname, Cases: len(groups[gname]), Score: v})
			s.Total += v
		}
	} else {
		for _, x := range scores {
			s.Total += x
		}
	}
	s.Mean, s.CI95[0], s.CI95[1] = meanCI95(scores)
	for i, c := range Conducts(rs) {
		if i == 0 || !c.IsZero() {
			s.Conduct = append(s.Conduct, c)
		}
	}
	if multi && s.Games > 0 {
		fr := float64(first) / float64(s.Games)
		mr := float64(rankSum) / float64(s.Games)
		s.FirstRate, s.MeanRank = &fr, &mr
	}
	for k := range stand {
		if g := float64(stand[k].Games); g > 0 {
			stand[k].MeanRank /= g
			stand[k].MeanScore /= g
		}
	}
	if s.Games > 0 {
		s.Standings = stand
	}
	return s
}

// addStanding counts one game's seat in its entrant's record (rank and
// score summed; SummarizeEval divides); out is why the seat was out before
// the end ("" for none).
func addStanding(st *EvalStanding, r contract.SeatResult, out string) {
	st.Games++
	if r.Rank == 1 {
		st.Firsts++
	}
	st.MeanRank += float64(r.Rank)
	st.MeanScore += r.Score
	if r.Forfeit != "" {
		st.Forfeits++
	}
	if out != "" {
		st.Eliminated++
	}
}

// withoutAnswers is a game's Detail without the seats' Answers (shown
// apart, in the summary's Conduct).
func withoutAnswers(d map[string]any) map[string]any {
	if _, ok := d[contract.AnswersDetailKey]; !ok {
		return d
	}
	out := make(map[string]any, len(d))
	for k, v := range d {
		if k != contract.AnswersDetailKey {
			out[k] = v
		}
	}
	return out
}

// AddOptima computes the optimum of every played case of p when its game
// is an OptimumFinder (jobs cases at once; nothing otherwise) and fills in
// the optimum figures of s: per case the optimum and the gap, in all the
// cases with a known optimum, those played at it and the mean gap. The
// optimum is computed afresh on every call (it is not stored with the run):
// the game's solver must be fast enough for that, and its time is not part
// of the games' wall time.
func (s *EvalSummary) AddOptima(ctx context.Context, p *runner.Plan, jobs int) error {
	of, ok := p.Game.(contract.OptimumFinder)
	if !ok {
		return nil
	}
	byID := map[string]contract.Case{}
	for _, m := range p.Matches {
		byID[m.Case.ID] = m.Case
	}
	best := make([]float64, len(s.Cases))
	known := make([]bool, len(s.Cases))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(jobs, 1))
	for i, c := range s.Cases {
		cs, ok := byID[c.Case]
		if !ok {
			continue
		}
		g.Go(func() error {
			v, ok, err := of.Optimum(gctx, cs)
			if err != nil {
				return fmt.Errorf("optimum of case %s: %w", cs.ID, err)
			}
			best[i], known[i] = v, ok && !math.IsNaN(v) && !math.IsInf(v, 0)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	higher := s.Direction == contract.Higher
	n, at, gaps := 0, 0, 0.0
	for i := range s.Cases {
		if !known[i] {
			continue
		}
		c := &s.Cases[i]
		gap := c.Score - best[i]
		if higher {
			gap = -gap
		}
		o := best[i]
		c.Optimum, c.Gap = &o, &gap
		n++
		gaps += gap
		if gap <= 0 {
			at++
		}
	}
	s.OptimumKnown, s.AtOptimum = &n, &at
	if n > 0 {
		mg := gaps / float64(n)
		s.MeanGap = &mg
	}
	return nil
}

// sortGroups orders group names numerically when they are numbers.
func sortGroups(gs []string) {
	sort.SliceStable(gs, func(i, j int) bool {
		a, ea := strconv.Atoi(gs[i])
		b, eb := strconv.Atoi(gs[j])
		if ea == nil && eb == nil {
			return a < b
		}
		return gs[i] < gs[j]
	})
}
