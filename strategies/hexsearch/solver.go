package hexsearch

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gauntlet/referees/hextris"
	"gauntlet/strategies/param"
)

// Solver places each unit at the best lock placement its evaluation finds
// (looking Depth units ahead through the known source) and types phrases of
// power on the way there. It is deterministic: the seed is unused, since
// the search has no random choices.
type Solver struct {
	cfg Config

	p      *hextris.Problem
	g      *geom
	rcs    []*reach // one per search level
	pl     *planner
	plKey  string
	ev     *evaluator
	base   base    // features of the board being ranked
	boards []board // scratch boards per level
	cands  [][]cand
	game   hextris.Game
	check  hextris.Game
	cur    board
	src    []int
	out    []byte
	cmds   []hextris.Command
	used   []bool
	nodes  int64           // expansions of the current unit
	ctx    context.Context // the current game's, checked between expansions
	depth  int             // depth of the current deepening iteration
	cut    bool            // the iteration ran out of budget
	spanPh int             // phrase being typed across units, or -1
	spanAt int             // its next character
	tries  []int           // spans started per phrase in this game

	subs       []*Solver // the portfolio's solvers
	quick      *Solver   // a one-unit solver for a quick complete game under a deadline
	deep       *Solver   // the full search with the weights of portfolio entry deepOf
	deepOf     int
	fallS      *Solver      // plays the fall beam (fall_beam) on a board that fits the game beam
	bigS       []*Solver    // play the fall beams on a board too big for it (big_beams)
	gb         *gameBeam    // the game beam's buffers
	survive    []*Solver    // the survival variants' game beams
	wellS      *Solver      // plays the well beam (well_beam)
	replay     *Solver      // plays the game beam's line
	spanReplay *Solver      // plays it again with dp_span (beam_span)
	line       []chosenLock // the game beam's latest line
	spanRc     *reach
	spanBoards [2]board
	spanCands  []cand

	ac      *automaton // the phrases, for the text's state and scoring
	dp      *phraseDP
	acState int32  // the automaton's state after s.out
	dpBuf   []byte // the phrase search's text for the current unit
	seen    []bool // scratch for automaton.score
	dpOff   bool   // leave the phrase search out (a portfolio's ranking pass, or the end of a game short of time)

	// The lock chosen for each unit, by board: a game played again (with
	// the phrase search) reuses the lookahead's choices where the board is
	// the same.
	chosen, prevChosen []chosenLock
	relocks            []lockAt // the live unit's lock placements, for reorder
	reRc               *reach   // reorder's search of the locks left after one
	reBoard            board
	reLv               []*reLevel // reorder's lookahead, by level
	reuse              bool
}

// chosenLock is the lock chosen for a unit on the board of hash board.
type chosenLock struct {
	board uint64
	lock  lockAt
}

var _ hextris.Solver = (*Solver)(nil)

// NewGreedy builds hexgreedy: one unit at a time, weights only.
func NewGreedy(v param.Values, seed uint64) (*Solver, error) {
	c, err := configFrom(GreedyParams, v)
	if err != nil {
		return nil, fmt.Errorf("hexgreedy: %w", err)
	}
	return NewSolver(c), nil
}

// NewLookahead builds hexlookahead: a beam search over the next units.
func NewLookahead(v param.Values, seed uint64) (*Solver, error) {
	c, err := configFrom(LookaheadParams, v)
	if err != nil {
		return nil, fmt.Errorf("hexlookahead: %w", err)
	}
	return NewSolver(c), nil
}

// NewSolver builds a solver from explicit settings.
func NewSolver(c Config) *Solver {
	c.Depth = max(c.Depth, 1)
	c.Beam = max(c.Beam, 1)
	if c.BeamDeep <= 0 {
		c.BeamDeep = c.Beam
	}
	if c.Nodes <= 0 {
		c.Nodes = 1 << 62
	}
	if c.DPNodes <= 0 {
		c.DPNodes = 200000
	}
	c.DPTurns = max(c.DPTurns, 1)
	return &Solver{cfg: c}
}

// Config returns the solver's settings.
func (s *Solver) Config() Config { return s.cfg }

func (s *Solver) prepare(p *hextris.Problem, phrases hextris.PhraseSet) {
	if s.p != p {
		s.p = p
		s.g = newGeom(p)
		s.rcs = s.rcs[:0]
		for range s.cfg.Depth {
			s.rcs = append(s.rcs, newReach(s.g))
		}
		s.cur = newBoard(p.Width, p.Height)
		s.boards = make([]board, s.cfg.Depth)
		for i := range s.boards {
			s.boards[i] = newBoard(p.Width, p.Height)
		}
		s.cands = make([][]cand, s.cfg.Depth)
		s.ev = newEvaluator(s.cfg.Weights, &s.cur)
		s.ev.wellCap = s.g.longestBar()
		s.pl = nil
		s.spanRc = nil
		s.reRc = nil
	}
	key := phrases.Name() + "\x00" + fmt.Sprint(phrases.Phrases())
	if s.pl == nil || s.plKey != key {
		s.pl = newPlanner(s.g, s.rcs[0], phrases)
		s.plKey = key
		s.ac = newAutomaton(s.pl.phrases)
		s.seen = make([]bool, len(s.pl.phrases))
		s.dp = nil
		if s.cfg.PhraseDP {
			s.dp = newPhraseDP(s.g, s.rcs[0], s.ac, s.pl.phrases, dpConfig{
				repeats: s.cfg.DPRepeats, unused: s.cfg.DPUnused, slack: s.cfg.DPSlack, turns: s.cfg.DPTurns,
				budget: s.cfg.DPNodes, potential: s.cfg.DPPotential, span: s.cfg.DPSpan, spanPotential: s.cfg.DPSpanPot})
		}
	}
	s.pl.reset()
}

// Solve plays the game of p and seed to its end and returns the commands.
// When ctx ends first, it returns the commands of the units placed so far
// (a valid, shorter solution) and no error.
func (s *Solver) Solve(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	if p == nil {
		return "", errors.New("hexsearch: nil problem")
	}
	// Under a deadline, a quick complete game (one unit deep, no phrase
	// search, no beams) comes first: a full search cut short by the
	// deadline leaves the units after it unplayed, and the better of the
	// two is returned.
	if _, ok := ctx.Deadline(); ok && (s.cfg.Depth > 1 || s.cfg.PhraseDP || s.cfg.Portfolio > 0 || s.cfg.GameBeam > 0) {
		if s.quick == nil {
			c := s.cfg
			c.Depth, c.Beam, c.Portfolio, c.PhraseDP = 1, 1, 0, false
			// Beams here would take their deadline shares of the game's
			// time from the full search (on problem 25 they took up to
			// half of a seed's time).
			c.GameBeam, c.FallBeam, c.SurvBeams = 0, false, 0
			s.quick = NewSolver(c)
		}
		quick, err := s.quick.Solve(ctx, p, seed, phrases)
		if err != nil {
			return quick, err
		}
		full, err := s.solveFull(ctx, p, seed, phrases)
		if err != nil || s.check.Run(p, seed, phrases, quick).Score > s.check.Run(p, seed, phrases, full).Score {
			return quick, nil
		}
		return full, nil
	}
	return s.solveFull(ctx, p, seed, phrases)
}

// solveFull is Solve without the quick fallback.
func (s *Solver) solveFull(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	// The game beam's width, from the start of the game: 0 where
	// game_nodes leaves it out. On a board too big for it (big), the fall
	// beam plays with big_nodes, and the portfolio is left out unless
	// big_portfolio: there (problem 24) its variants, a third of the
	// game's time, have not beaten the fall beam's text. Measured on
	// problem 24 (runs beside others on 2 cores): the lookahead alone 52 s
	// for 222,342, with the portfolio 202 s for 251,968; the fall beam
	// 280,130.
	var w int
	var budget int64
	if s.cfg.GameBeam > 0 {
		s.beamStart(p, seed, phrases)
		w, budget = s.beamWidth(s.gameNodes(p))
	}
	big := s.cfg.GameBeam > 0 && w == 0 && s.cfg.FallBeam && s.cfg.BigNodes > 0
	// On such a board the lookahead's game is left out too, unless
	// big_portfolio, and played only where the fall beam leaves no text:
	// on problem 24 it took about 35 s of the problem's 460 (one core,
	// pprof) for 222,342 against the fall beam's 281,912. Under a deadline that
	// also leaves the fall beam all the time, where the lookahead's game
	// (about 25 s of the final round's) would leave it none; the quick
	// game (Solve) is the fallback there. Measured on problem 24 with
	// -t 28: the lookahead's game, even cut to a quarter of the time,
	// left the fall beam 6.7 s, too little to end its line (219,055, the
	// quick game's score).
	var best string
	first := func() error {
		// With a portfolio, the variants are ranked without the phrase
		// search (in each variant it would cost about three times the
		// variant's own game), and the winner is played again with it.
		s.dpOff = s.cfg.PhraseDP && s.cfg.Portfolio > 0 && (!big || s.cfg.BigPortf)
		var err error
		best, err = s.solveOne(ctx, p, seed, phrases)
		s.dpOff = false
		return err
	}
	// Where the game beam plays (w > 0) on a problem of more than
	// look_seeds source seeds, the lookahead's own game is left out too,
	// and played only where no beam leaves a text: its cost is per seed,
	// while the beams share a budget per problem, so on problems of many
	// seeds it is a large part of the time (problem 4, 50 seeds: 96 s of
	// 243, one core, pprof) and its text rarely the best. Measured on the
	// qualifier (each problem alone, without it against with it): 4 -10
	// (30,665) in 148 s of CPU instead of 242, 6 -18 in 134 s instead of
	// 186, 7 -17, 2, 3, 5, 8, 9, 11 and 12 the same; of the one-seed
	// problems, where it is cheap beside a beam of the whole budget, 16
	// lost 312 and 1 46 without it.
	if (!big || s.cfg.BigPortf) && (w == 0 || len(p.SourceSeeds) <= s.cfg.LookSeeds) {
		if err := first(); err != nil {
			return best, err
		}
	}
	bestScore := s.check.Run(p, seed, phrases, best).Score
	var texts []string // every text played, for reorder
	keep := func(sol string, err error) {
		if err == nil && ctx.Err() == nil {
			if sol != "" && !slices.Contains(texts, sol) {
				texts = append(texts, sol)
			}
			if sc := s.check.Run(p, seed, phrases, sol).Score; sc > bestScore {
				best, bestScore = sol, sc
			}
		}
	}
	if s.cfg.Portfolio > 0 && (s.cfg.BigPortf || !big) {
		s.playPortfolio(ctx, p, seed, phrases, &best, &bestScore, keep)
	}
	// The game beam's line, as wide as its budget allows, with
	// game_line. Left out by default: measured on the qualifier (each
	// part of every solve timed, its own text scored), the line and its
	// second typing took 32% of the solve time and gave the best text on
	// 8 problems by 13 to 281 points; without it the set scored 1,007
	// less (with portfolio=0) in 45% less CPU time.
	if s.cfg.GameBeam > 0 && ctx.Err() == nil {
		if w > 0 && s.cfg.GameLine {
			s.beamStart(p, seed, phrases) // the portfolio has played since
			keep(s.beamPlay(ctx, p, seed, phrases, w, budget, gameShare))
			if s.cfg.BeamSpan > 0 && s.cfg.Phrases && s.cfg.PhraseDP && ctx.Err() == nil && s.leavesUnused(best) {
				if s.spanReplay == nil {
					s.spanReplay = s.lineTyper(s.cfg.BeamSpan)
				}
				keep(s.retype(ctx, p, seed, phrases, s.spanReplay))
			}
		}
		// The fall beam, with fall_share of the game beam's budget, or
		// big_nodes on a board too big for that (problem 24: 100×40,
		// 1,620 units).
		if s.cfg.FallBeam && ctx.Err() == nil {
			if big {
				keep(s.bigFallBeams(ctx, p, seed, phrases))
			} else if w > 0 {
				keep(s.fallBeam(ctx, p, seed, phrases, int64(s.cfg.FallShare*float64(s.gameNodes(p)))))
			}
		}
		// The well beam, where the problem has a straight unit long for
		// the board's width to fill wells with. Measured on the qualifier
		// (each problem's score with and without it): on the 10-wide
		// boards whose longest straight unit has 3 or 4 cells, problems
		// 0, 4, 6, 8, 9 and 23, it gains 226 to 8,666; on 3, 5, 7 (30 and
		// 40 wide, 4 cells), 16 (15 wide, 3 cells), 10 and 22 (10 wide, 2
		// cells) nothing, and 2 (15 wide, 5 cells) 15.
		// (w > 0: beamStart has prepared the problem and its evaluator.)
		if bar := s.ev.wellCap; s.cfg.WellBeam && w > 0 && bar >= 2 && float64(bar) >= s.cfg.WellWidth*float64(p.Width) && ctx.Err() == nil {
			keep(s.wellBeam(ctx, p, seed, phrases, int64(s.cfg.WellShare*float64(s.gameNodes(p)))))
		}
		if best == "" && ctx.Err() == nil {
			if err := first(); err != nil {
				return best, err
			}
			bestScore = s.check.Run(p, seed, phrases, best).Score
		}
		// Where the best game dies before its source ends, what it
		// lacks is survival: more units locked is more falls for the
		// phrases. Beams with a heavier height penalty are tried.
		for i := range min(s.cfg.SurvBeams, len(surviveVariants)) {
			if ctx.Err() != nil || s.check.Run(p, seed, phrases, best).End == hextris.SourceExhausted {
				break
			}
			if len(s.survive) <= i {
				c := s.cfg
				c.Portfolio, c.SurvBeams = 0, 0
				c.Weights = surviveVariants[i].apply(c.Weights)
				s.survive = append(s.survive, NewSolver(c))
			}
			sub := s.survive[i]
			sub.beamStart(p, seed, phrases)
			if w, budget := sub.beamWidth(sub.gameNodes(p)); w > 0 {
				keep(sub.beamPlay(ctx, p, seed, phrases, w, budget, lastShare))
			}
		}
	}
	// Every text's locks, the best's and the other beams', taken again in
	// the order that types the most, where the source is one cell over and
	// over (reorder): on problem 19 the fall beam's text reordered scored
	// 7,548, the best text reordered 7,506.
	if s.cfg.Reorder {
		if best != "" && !slices.Contains(texts, best) {
			texts = append(texts, best)
		}
		for _, t := range texts { // the texts reorder adds are not reordered again
			if ctx.Err() != nil {
				break
			}
			keep(s.reorder(ctx, p, seed, phrases, t))
		}
	}
	return best, nil
}

// gameNodes is the game beam's work on problem p, shared among its source
// seeds: game_nodes, or seed_nodes a seed where that is more (problems 4
// and 6 of the qualifier, 50 seeds each). Measured there (each problem
// alone, two at a time on the 2 cores): with 6 million a seed, 1.25 times
// game_nodes, 4 30,665 to 30,831 and 6 16,537 to 16,602 (the best team
// 16,565); with 7.2 million 31,003 and 16,606, but the whole qualifier then
// took 602 s on 2 cores, past its 10 minutes; with 9.6 million 31,341 and
// 16,705. With the fall beam's hanging locks left out (fall_hang) the
// beams cost less: 12 million gave 31,766 and 16,727 for 104 s of CPU
// more than 6 million, and the qualifier 464 and 492 s.
func (s *Solver) gameNodes(p *hextris.Problem) int64 {
	if s.cfg.GameNodes <= 0 {
		return s.cfg.GameNodes
	}
	return max(s.cfg.GameNodes, s.cfg.SeedNodes*int64(len(p.SourceSeeds)))
}

// stopped reports whether the current game's context has ended.
func (s *Solver) stopped() bool { return s.ctx != nil && s.ctx.Err() != nil }
