package hexsearch

import (
	"context"

	"gauntlet/referees/hextris"
)

// playPortfolio plays the portfolio's variants one unit deep, the winner
// again with the phrase search, and a winning variant with the full
// search, keeping the best text in best and its score in bestScore.
func (s *Solver) playPortfolio(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet,
	best *string, bestScore *int64, keep func(string, error)) {
	winner, won := s, -1
	for i := range min(s.cfg.Portfolio, len(portfolio)) {
		if ctx.Err() != nil {
			break
		}
		if len(s.subs) <= i {
			c := s.cfg
			c.Portfolio = 0
			c.Depth, c.Beam = 1, 1
			c.Weights = portfolio[i].apply(c.Weights)
			s.subs = append(s.subs, NewSolver(c))
		}
		s.subs[i].dpOff = true
		sol, err := s.subs[i].solveOne(ctx, p, seed, phrases)
		s.subs[i].dpOff = false
		if err != nil {
			continue
		}
		if sc := s.check.Run(p, seed, phrases, sol).Score; sc > *bestScore {
			*best, *bestScore, winner, won = sol, sc, s.subs[i], i
		}
	}
	if s.cfg.PhraseDP && ctx.Err() == nil {
		keep(winner.typeAgain(ctx, p, seed, phrases))
	}
	// A variant that won one unit deep is also played with the full
	// search (and the phrase search): its weights suit this problem.
	if won >= 0 && s.cfg.Depth > 1 && ctx.Err() == nil {
		if s.deep == nil || s.deepOf != won {
			c := s.cfg
			c.Portfolio = 0
			c.Weights = portfolio[won].apply(c.Weights)
			s.deep, s.deepOf = NewSolver(c), won
		}
		keep(s.deep.solveOne(ctx, p, seed, phrases))
	}
}

// typeAgain plays the solver's latest game again, unit by unit at the
// locks it chose, with the phrase search (unless dpOff), and returns its
// text.
func (s *Solver) typeAgain(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	s.prevChosen, s.chosen = s.chosen, s.prevChosen
	s.reuse = true
	defer func() { s.reuse = false }()
	return s.solveOne(ctx, p, seed, phrases)
}

// portfolio lists the weight variants that a solver with Portfolio > 0
// also plays (the first Portfolio of them), one unit deep, keeping the
// best scoring text: factors on the Low, Holes, Contact, Height, Bump,
// RowFill and Points weights (a Points factor of 0 keeps the weight).
// They are ordered by how often they won on the qualifier problems
// against the depth-3 search. Those with Points ten times value cleared
// lines more and the height of the stack little or not at all: on boards
// where units fall far, each line cleared early gives every later unit a
// longer fall, with more room for phrases of power (problem 24).
var portfolio = []variant{
	{1, 1, 1, 1, 2, 1, 0},
	{1, 1, 1, 0, 1, 1, 10},
	{1, 1, 1, 2, 1, 1, 0},
	{1, 1, 2, 1, 1, 1, 0},
	{1, 1, 1, 1, 1, 1, 0},
	{2.0 / 3, 1, 1, 1, 1, 1, 0},
	{1, 1.5, 1, 0, 1, 1, 10},
	{1, 1, 1, 1, 1, 1, 10},
	{4.0 / 3, 1, 1, 1, 1, 1, 0},
	{1, 1.5, 1, 1, 1, 1, 0},
	{1.5, 1.5, 1, 1, 1, 1, 0},
	{4.0 / 3, 1, 2, 1, 1, 1, 0},
	{4.0 / 3, 2.0 / 3, 1, 1, 1, 1, 0},
	{1, 1, 1, 1, 1, 4, 0},
	{1.15, 1.25, 1, 1, 1, 1, 0},
	{1, 1, 1, 1.0 / 3, 1, 1, 10},
}

// variant holds the factors of a portfolio entry.
type variant struct{ low, holes, contact, height, bump, rowFill, points float64 }

// apply returns w with the variant's factors applied.
func (m variant) apply(w Weights) Weights {
	w.Low *= m.low
	w.Holes *= m.holes
	w.Contact *= m.contact
	w.Height *= m.height
	w.Bump *= m.bump
	w.RowFill *= m.rowFill
	if m.points > 0 {
		w.Points *= m.points
	}
	return w
}

// surviveVariants are the weight variants of the survival game beams
// (survive_beams), in the order played: a heavier penalty on the summed
// column heights keeps the stack low, so that more units spawn. On
// problem 18 (a 30-wide board with an obstacle across its middle and
// holed 9- and 17-cell units) the game locks 240 units with the
// defaults and 903 with the height weight 2 (the default 0.6 times 10/3).
var surviveVariants = []variant{
	{1, 1, 1, 10.0 / 3, 1, 1, 0},
	{1, 1, 1, 5, 1, 1, 0},
	{1, 1, 1, 2.5, 1, 1, 0},
	{1, 1, 1, 10.0 / 3, 1, 1, 10},
}
