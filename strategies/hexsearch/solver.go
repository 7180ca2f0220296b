package hexsearch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gauntlet/referees/hextris"
	"gauntlet/strategies/param"
)

// weightSpecs are the evaluation weights, shared by both strategies.
var weightSpecs = param.Specs{
	{Name: "w_points", Kind: param.Float, Min: 0, Max: 10, Default: 1, Help: "weight of the lock points earned (lines and line bonus included)"},
	{Name: "w_holes", Kind: param.Float, Min: 0, Max: 100, Default: 8, Help: "penalty per empty cell with a filled NW or NE neighbour"},
	{Name: "w_dead", Kind: param.Float, Min: 0, Max: 100, Default: 0, Help: "penalty per empty cell with both NW and NE filled (walls count)"},
	{Name: "w_height", Kind: param.Float, Min: 0, Max: 20, Default: 0.6, Help: "penalty per unit of summed column height"},
	{Name: "w_maxh", Kind: param.Float, Min: 0, Max: 50, Default: 0.5, Help: "penalty per row of the highest column"},
	{Name: "w_bump", Kind: param.Float, Min: 0, Max: 20, Default: 1, Help: "penalty per unit of height difference between adjacent columns"},
	{Name: "w_low", Kind: param.Float, Min: 0, Max: 50, Default: 12, Help: "reward per row of depth of the placed unit (mean row of its cells)"},
	{Name: "w_rowfill", Kind: param.Float, Min: 0, Max: 50, Default: 1, Help: "reward for nearly full rows: sum of squared row fill over the width"},
	{Name: "w_contact", Kind: param.Float, Min: 0, Max: 50, Default: 2, Help: "reward per side the placed cells share with filled cells or walls"},
	{Name: "w_enclosed", Kind: param.Float, Min: 0, Max: 100, Default: 0, Help: "penalty per empty cell that a one-cell unit entering at the top cannot reach (moving E, W, SW, SE): it keeps its row from clearing"},
	{Name: "w_well", Kind: param.Float, Min: 0, Max: 10, Default: 0, Help: "reward per point that the deepest open well would earn: rows one cell short of full whose empty cells lie on a diagonal a straight unit slides into, clearing them together"},
	{Name: "phrases", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "type phrases of power on the way to each lock (1) or take plain shortest paths (0)"},
	{Name: "span", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "type unused phrases that do not fit one unit's fall across several units, a phrase character locking each (1)"},
	{Name: "span_margin", Kind: param.Float, Min: 0, Max: 2000, Default: 20, Help: "how much worse (in evaluation points) than the best a placement may be to carry a phrase across units"},
	{Name: "phrase_dp", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "also search each unit's path to its lock for the most power points by dynamic programming, and keep whichever of it and the greedy planner's text scores more (1)"},
	{Name: "dp_nodes", Kind: param.Int, Min: 1000, Max: 10000000, Default: 200000, Help: "states the phrase search may memoise per unit; past it the greedy planner's text is used"},
	{Name: "dp_repeats", Kind: param.Int, Min: 0, Max: 64, Default: 4, Help: "phrases already used that the phrase search types again, best points per row first (unused ones: see dp_unused)"},
	{Name: "dp_unused", Kind: param.Int, Min: 0, Max: 64, Default: 18, Help: "unused phrases that fit the fall that the phrase search tries (for their 300 points), best points per row first"},
	{Name: "dp_slack", Kind: param.Int, Min: 0, Max: 200, Default: 32, Help: "columns the phrase search's paths may stray from the straight line from the spawn to the lock"},
	{Name: "dp_turns", Kind: param.Int, Min: 1, Max: 5, Default: 1, Help: "rotations the phrase search's paths may make in a row at one column (more is slower)"},
	{Name: "dp_potential", Kind: param.Float, Min: 0, Max: 100, Default: 1, Help: "value per character of a phrase left partly typed at a unit's lock (the next unit may finish it)"},
	{Name: "dp_span", Kind: param.Int, Min: 0, Max: 18, Default: 0, Help: "unused phrases longer than the unit's fall that the phrase search may begin, for the next units to finish (their first use: 300 points)"},
	{Name: "dp_span_potential", Kind: param.Float, Min: 0, Max: 300, Default: 5, Help: "value per character of an unused phrase begun by dp_span and left partly typed at a unit's lock"},
}

// GreedyParams are the parameters of hexgreedy: the evaluation weights and
// the phrase settings. Its phrase search is off by default, to keep it
// fast.
var GreedyParams = withDefault(weightSpecs, "phrase_dp", 0)

// withDefault returns a copy of specs with the default of name changed.
func withDefault(specs param.Specs, name string, v float64) param.Specs {
	specs = slices.Clone(specs)
	for i := range specs {
		if specs[i].Name == name {
			specs[i].Default = v
		}
	}
	return specs
}

// LookaheadParams are the parameters of hexlookahead: the weights plus the
// search shape and budget.
var LookaheadParams = append(slices.Clone(weightSpecs), param.Specs{
	{Name: "depth", Kind: param.Int, Min: 1, Max: 3, Default: 3, Help: "units searched ahead, the current one included (iterative deepening: levels past 2 only where the node budget allows)"},
	{Name: "beam", Kind: param.Int, Min: 1, Max: 64, Default: 8, Help: "placements of the current unit expanded (best by one-unit evaluation)"},
	{Name: "beam_deep", Kind: param.Int, Min: 1, Max: 64, Default: 8, Help: "placements expanded at each deeper level (with depth 3)"},
	{Name: "first_bonus", Kind: param.Float, Min: 0, Max: 1, Default: 0.1, Help: "extra weight on the points of the current unit's lock (gains sooner are surer)"},
	{Name: "portfolio", Kind: param.Int, Min: 0, Max: 16, Default: 0, Help: "weight variants also played one unit deep, the best scoring text kept (0: none)"},
	{Name: "nodes", Kind: param.Int, Min: 1000, Max: 10000000, Default: 400000, Help: "search budget per unit in expanded states; deeper levels are skipped once spent"},
	{Name: "game_beam", Kind: param.Int, Min: 0, Max: 16384, Default: 4096, Help: "widest game beam: the whole source searched keeping this many distinct game states per unit, for the fall, well and survival beams (and its own line with game_line) (0: off)"},
	{Name: "game_nodes", Kind: param.Int, Min: 0, Max: 20000000000, Default: 240000000, Help: "work of the game beam per problem (states its searches expand plus placements valued), shared equally among the problem's source seeds; the beam is narrowed to fit, and left out below 16 wide"},
	{Name: "game_line", Kind: param.Int, Min: 0, Max: 1, Default: 0, Help: "play the game beam's own line and keep its text if it scores more (1); 0 leaves it out, the fall, well and survival beams still played at its width and budget"},
	{Name: "beam_rows", Kind: param.Float, Min: 0, Max: 20, Default: 0, Help: "power points per row of the units' falls (phrases typed on the way) that the game beam adds to a line's move points when it picks its best line: longer games and deeper falls win (0: move points only)"},
	{Name: "beam_fall", Kind: param.Float, Min: 0, Max: 50, Default: 0, Help: "gain per row of a unit's fall (room for phrases) added to the game beam's ranking of its states (0: none)"},
	{Name: "fall_beam", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "also play a game beam ranked for falls and lines (fall_gain, fall_rows, fall_points), its text kept if it scores more (1)"},
	{Name: "fall_gain", Kind: param.Float, Min: 0, Max: 50, Default: 2, Help: "the fall beam's gain per row of a unit's fall in ranking its states (as beam_fall)"},
	{Name: "fall_rows", Kind: param.Float, Min: 0, Max: 20, Default: 6, Help: "the fall beam's power points per row of fall in picking its line (as beam_rows)"},
	{Name: "fall_points", Kind: param.Float, Min: 0.1, Max: 100, Default: 10, Help: "the fall beam's factor on w_points: a line cleared lowers the stack for every later unit"},
	{Name: "fall_share", Kind: param.Float, Min: 0, Max: 8, Default: 0.75, Help: "the fall beam's work as a share of game_nodes"},
	{Name: "big_nodes", Kind: param.Int, Min: 0, Max: 20000000000, Default: 2000000000, Help: "the fall beam's work on a problem whose board game_nodes leaves without a game beam (too big for it; 0: none there)"},
	{Name: "big_dp_nodes", Kind: param.Int, Min: 1000, Max: 10000000, Default: 1000000, Help: "dp_nodes of the phrase search typing the fall beam's line on a board too big for the game beam, where units fall far"},
	{Name: "big_dp_slack", Kind: param.Int, Min: 0, Max: 200, Default: 16, Help: "dp_slack of the phrase search typing the fall beam's line on a board too big for the game beam"},
	{Name: "big_portfolio", Kind: param.Int, Min: 0, Max: 1, Default: 0, Help: "also play the lookahead's game and the portfolio on a board too big for the game beam, where the fall beam plays with big_nodes (1); 0 leaves them out there, the lookahead's game played only if the fall beam leaves no text"},
	{Name: "beam_span", Kind: param.Int, Min: 0, Max: 18, Default: 6, Help: "while the best text leaves a phrase unused, the game beam's line is typed again with dp_span set to this (unused phrases begun for the next units to finish), kept if it scores more (0: not)"},
	{Name: "well_beam", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "also play a game beam that builds wells for straight units to clear several lines at once (well_gain, well_rowfill), where the problem's longest straight unit is 2 cells or more and well_width of the board's width, its text kept if it scores more (1)"},
	{Name: "well_width", Kind: param.Float, Min: 0, Max: 1, Default: 0.3, Help: "the least length of the problem's longest straight unit, as a share of the board's width, for the well beam to be played: on wide boards a row takes too many cells for wells to pay"},
	{Name: "well_gain", Kind: param.Float, Min: 0, Max: 2, Default: 0.95, Help: "the well beam's w_well: its reward per point the deepest open well would earn, as a share of the points' weight (below 1, so that filling the well pays)"},
	{Name: "well_rowfill", Kind: param.Float, Min: 0, Max: 50, Default: 5, Help: "the well beam's w_rowfill: nearly full rows are what a well is built of"},
	{Name: "well_share", Kind: param.Float, Min: 0, Max: 8, Default: 1, Help: "the well beam's work as a share of game_nodes"},
	{Name: "survive_beams", Kind: param.Int, Min: 0, Max: 4, Default: 1, Help: "game beams also played, each with the weights of the next survival variant (a heavier height penalty), while the best text so far ends before the source does (0: none)"},
}...)

// Config is a solver's validated settings.
type Config struct {
	Weights     Weights
	Phrases     bool
	Depth       int
	Beam        int // placements of the current unit expanded
	BeamDeep    int // placements expanded at deeper levels
	FirstBonus  float64
	Nodes       int64
	Span        bool    // carry unused phrases across units
	SpanMargin  float64 // evaluation loss accepted for a span's placement
	Portfolio   int     // weight variants also played one unit deep; the best text wins
	PhraseDP    bool    // search each unit's path for power points by dynamic programming
	DPNodes     int     // memoised states allowed per unit in that search
	DPPotential float64 // value per character of a phrase left partly typed at a lock
	DPRepeats   int     // used phrases the search repeats, best repeat rate first
	DPUnused    int     // unused phrases the search tries to fit, best repeat rate first
	DPSlack     int     // columns the search's paths may stray from the line to the target
	DPTurns     int     // rotations the search's paths may make at one column of a row
	DPSpan      int     // unused phrases longer than the fall the search may begin
	DPSpanPot   float64 // value per character of such a phrase left partly typed at a lock
	GameBeam    int     // widest game beam (0: none)
	GameNodes   int64   // work of the game beam per problem, shared among its seeds (see beamWidth)
	GameLine    bool    // play the game beam's own line
	BeamRows    float64 // power points per row of fall the game beam expects
	BeamFall    float64 // gain per row of fall in the game beam's ranking of states
	FallBeam    bool    // also play the fall beam
	FallGain    float64 // its gain per row of fall (its BeamFall)
	FallRows    float64 // its power points per row in picking its line (its BeamRows)
	FallPoints  float64 // its factor on the lock points' weight
	FallShare   float64 // its budget as a share of GameNodes
	BigNodes    int64   // its budget on a board game_nodes leaves without a game beam
	BigDPNodes  int     // its DPNodes on such a board
	BigDPSlack  int     // its DPSlack on such a board
	BigPortf    bool    // play the portfolio on such a board too
	SurvBeams   int     // survival variants' game beams played while the best game ends early
	WellBeam    bool    // also play the well beam
	WellGain    float64 // its w_well, as a share of w_points
	WellRowFill float64 // its w_rowfill
	WellShare   float64 // its budget as a share of GameNodes
	WellWidth   float64 // the least longest straight unit, over the board's width, where it plays
	BeamSpan    int     // dp_span of a second typing of the game beam's line (0: none)
}

func configFrom(specs param.Specs, v param.Values) (Config, error) {
	v, err := specs.Validate(v)
	if err != nil {
		return Config{}, err
	}
	c := Config{
		Weights: Weights{
			Points: v["w_points"], Holes: v["w_holes"], Dead: v["w_dead"], Height: v["w_height"],
			MaxH: v["w_maxh"], Bump: v["w_bump"], Low: v["w_low"], RowFill: v["w_rowfill"], Contact: v["w_contact"],
			Enclosed: v["w_enclosed"], Well: v["w_well"],
		},
		Phrases: v["phrases"] != 0, Depth: 1, Beam: 1, Nodes: 1 << 62,
		Span: v["span"] != 0, SpanMargin: v["span_margin"],
		PhraseDP: v["phrase_dp"] != 0, DPNodes: specs.Int(v, "dp_nodes"), DPPotential: v["dp_potential"],
		DPRepeats: specs.Int(v, "dp_repeats"), DPUnused: specs.Int(v, "dp_unused"), DPSlack: specs.Int(v, "dp_slack"),
		DPTurns: specs.Int(v, "dp_turns"), DPSpan: specs.Int(v, "dp_span"), DPSpanPot: v["dp_span_potential"],
	}
	if _, ok := specs.Lookup("depth"); ok {
		c.Depth, c.Beam, c.BeamDeep = specs.Int(v, "depth"), specs.Int(v, "beam"), specs.Int(v, "beam_deep")
		c.FirstBonus, c.Nodes = v["first_bonus"], int64(specs.Int(v, "nodes"))
		c.Portfolio = specs.Int(v, "portfolio")
		c.GameBeam, c.GameNodes, c.GameLine = specs.Int(v, "game_beam"), int64(specs.Int(v, "game_nodes")), v["game_line"] != 0
		c.BeamRows, c.BeamFall = v["beam_rows"], v["beam_fall"]
		c.FallBeam, c.FallGain, c.FallRows, c.FallPoints = v["fall_beam"] != 0, v["fall_gain"], v["fall_rows"], v["fall_points"]
		c.FallShare, c.BigNodes, c.BigPortf = v["fall_share"], int64(specs.Int(v, "big_nodes")), v["big_portfolio"] != 0
		c.BigDPNodes, c.BigDPSlack = specs.Int(v, "big_dp_nodes"), specs.Int(v, "big_dp_slack")
		c.SurvBeams = specs.Int(v, "survive_beams")
		c.WellBeam, c.WellGain, c.WellRowFill, c.WellShare = v["well_beam"] != 0, v["well_gain"], v["well_rowfill"], v["well_share"]
		c.WellWidth = v["well_width"]
		c.BeamSpan = specs.Int(v, "beam_span")
	}
	return c, nil
}

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
	fallS      [2]*Solver   // play the fall beam (fall_beam), on a board that fits the game beam and on one too big for it
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
	reuse              bool
}

// chosenLock is the lock chosen for a unit on the board of hash board.
type chosenLock struct {
	board uint64
	lock  lockAt
}

var _ hextris.Solver = (*Solver)(nil)

type cand struct {
	lock lockAt
	v    float64 // one-unit value
	i    int32   // index in the search's order (ties keep it)
}

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
		w, budget = s.beamWidth(s.cfg.GameNodes)
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
	if !big || s.cfg.BigPortf {
		if err := first(); err != nil {
			return best, err
		}
	}
	bestScore := s.check.Run(p, seed, phrases, best).Score
	keep := func(sol string, err error) {
		if err == nil && ctx.Err() == nil {
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
				keep(s.fallBeam(ctx, p, seed, phrases, s.cfg.BigNodes, true))
			} else if w > 0 {
				keep(s.fallBeam(ctx, p, seed, phrases, int64(s.cfg.FallShare*float64(s.cfg.GameNodes)), false))
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
			keep(s.wellBeam(ctx, p, seed, phrases, int64(s.cfg.WellShare*float64(s.cfg.GameNodes))))
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
			if w, budget := sub.beamWidth(sub.cfg.GameNodes); w > 0 {
				keep(sub.beamPlay(ctx, p, seed, phrases, w, budget, lastShare))
			}
		}
	}
	return best, nil
}

// fallBeam plays a game beam of budget nodes (per problem) ranked for the
// points of boards where units fall far: fall_gain per row each unit
// falls (the phrases typed on the way), the lock points' weight times
// fall_points (a line cleared lowers the stack for every later unit), and
// its line picked by move points plus fall_rows per row. On a board too
// big for the game beam (big), its line is typed with big_dp_nodes and
// big_dp_slack: falls of 30 rows and more leave the phrase search more
// paths than dp_nodes holds (problem 24: 280,130 with 200,000, 281,912
// with 1,000,000). It returns "" when the budget leaves the beam under
// minBeam wide.
func (s *Solver) fallBeam(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, nodes int64, big bool) (string, error) {
	i := 0
	if big {
		i = 1
	}
	if s.fallS[i] == nil {
		c := s.cfg
		c.Portfolio, c.SurvBeams, c.FallBeam = 0, 0, false
		c.BeamFall, c.BeamRows = s.cfg.FallGain, s.cfg.FallRows
		c.Weights.Points *= s.cfg.FallPoints
		if big {
			c.DPNodes, c.DPSlack = s.cfg.BigDPNodes, s.cfg.BigDPSlack
		}
		s.fallS[i] = NewSolver(c)
	}
	f := s.fallS[i]
	f.beamStart(p, seed, phrases)
	w, budget := f.beamWidth(nodes)
	if w == 0 {
		return "", nil
	}
	share := lastShare
	if big {
		share = bigShare
	}
	return f.beamPlay(ctx, p, seed, phrases, w, budget, share)
}

// wellBeam plays a game beam of budget nodes (per problem) that builds
// wells: rows one cell short of full, their empty cells on a diagonal
// that a straight unit slides into, clearing them together for
// 100·k(k+1)/2 points where one by one they earn 100·k (Weights.Well,
// at well_gain times the points' weight, and nearly full rows rewarded
// at well_rowfill). On problem 8 (10×8, a 4-cell bar one unit in eight,
// the rest single cells) the game beam clears every line on its own,
// about 6,100 move points a seed; the well beam's lines earn 11,000 to
// 12,500, mostly four lines at a time, and its texts score 22,003 on the
// problem against 18,810 (the higher stack leaves the phrases shorter
// falls). It returns "" when the budget leaves the beam under minBeam
// wide.
func (s *Solver) wellBeam(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, nodes int64) (string, error) {
	if s.wellS == nil {
		c := s.cfg
		c.Portfolio, c.SurvBeams, c.FallBeam, c.WellBeam = 0, 0, false, false
		c.Weights.Well = s.cfg.WellGain * c.Weights.Points
		c.Weights.RowFill = s.cfg.WellRowFill
		s.wellS = NewSolver(c)
	}
	f := s.wellS
	f.beamStart(p, seed, phrases)
	w, budget := f.beamWidth(nodes)
	if w == 0 {
		return "", nil
	}
	return f.beamPlay(ctx, p, seed, phrases, w, budget, lastShare)
}

// The shares of the time left to a deadline that a game beam's search may
// take: the game beam leaves time for the fall beam after it; the fall
// beam and the survival beams, played last, for typing their lines.
const (
	gameShare = 0.5
	lastShare = 0.8
)

// bigShare is lastShare for the fall beam on a board too big for the game
// beam, where typing its line costs about a search of the board per unit
// (problem 24 with -t 28: at 0.8 the line was cut while being typed and
// the quick game's 219,055 was kept; at 0.65 264,000, at 0.5 268,712).
const bigShare = 0.5

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

// solveOne plays the game with the solver's own settings.
func (s *Solver) solveOne(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	s.ctx = ctx
	defer func() { s.ctx = nil }()
	s.prepare(p, phrases)
	s.game.Reset(p, seed)
	s.src = hextris.SourceUnits(p, seed, s.src[:0])
	s.out = s.out[:0]
	s.chosen = s.chosen[:0]
	s.acState = 0
	s.spanPh = -1
	s.tries = append(s.tries[:0], make([]int, len(s.pl.phrases))...)
	// Under a deadline the phrase search, a unit's costliest part, is left
	// out for the rest of the game once the units left would not all be
	// played in half the time left at the pace so far (units cost more as
	// the stack grows, and the search for their locks remains): a whole
	// game with plainer text scores more than a prefix of one.
	deadline, timed := ctx.Deadline()
	start, fast := time.Now(), false
	defer func() {
		if fast {
			s.dpOff = false
		}
	}()
	for !s.game.Over() {
		if ctx.Err() != nil {
			break
		}
		if k := s.game.SourceIndex(); timed && s.dp != nil && !s.dpOff && k > 0 {
			per := time.Since(start) / time.Duration(k)
			if time.Until(deadline) < 2*per*time.Duration(len(s.src)-k) {
				fast, s.dpOff = true, true
			}
		}
		if err := s.placeOne(); err != nil {
			return string(s.out), err
		}
	}
	return string(s.out), nil
}

// placeOne chooses the live unit's lock, writes its commands and plays them.
func (s *Solver) placeOne() error {
	u, pos, _ := s.game.Live()
	k := s.game.SourceIndex()
	s.cur.loadGame(&s.game)
	from := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot))
	s.nodes = 0
	best, ok := s.choose(&s.cur, u, k, from)
	if !ok {
		return fmt.Errorf("hexsearch: unit %d of the source has no lock placement", k)
	}
	n0 := len(s.out)
	if s.cfg.Phrases && s.cfg.Span && s.trySpan(u, k, from, best) {
		return nil
	}
	if s.cfg.Phrases {
		s.used = append(s.used[:0], s.pl.used...)
		out, ok := s.pl.plan(&s.cur, u, from, best.State, best.Cmd, s.out)
		if ok && s.replays(out[n0:]) {
			s.out = out
		} else {
			copy(s.pl.used, s.used)
			s.out = s.out[:n0]
		}
		if s.dp != nil && !s.dpOff {
			s.phraseSearch(u, from, best.State, n0)
		}
	}
	if len(s.out) == n0 {
		// Plain path: redo the search from the spawn (choose may have run
		// later searches on this reach).
		s.rcs[0].searchTree(&s.cur, u, from)
		s.cmds = s.rcs[0].path(best.State, best.Cmd, s.cmds[:0])
		for _, c := range s.cmds {
			s.out = append(s.out, c.Char())
		}
		if !s.replays(s.out[n0:]) {
			return fmt.Errorf("hexsearch: internal error: the path of unit %d does not lock where planned", k)
		}
	}
	s.play(n0)
	return nil
}

// play steps the game through s.out[n0:], and follows the text with the
// automaton, marking the phrases that occur as used.
func (s *Solver) play(n0 int) {
	a := s.acState
	for _, ch := range s.out[n0:] {
		c, _, _ := hextris.DecodeChar(rune(ch))
		s.game.Step(c)
		a = s.ac.step(a, ch)
		for _, i := range s.ac.ends(a) {
			s.pl.used[i] = true
		}
	}
	s.acState = a
}

// phraseSearch runs the phrase search for the path of unit u from state
// from to the lock at target (the planner's distances are set for it) and
// replaces the unit's text s.out[n0:] by its text if that scores more
// power points (a partial phrase at the end counted at DPPotential per
// character) and replays.
//
// The search counts the 300 points of an unused phrase at each of its
// occurrences in the unit's text; the exact count decides between the
// two texts. (Searching again without the bonus of a phrase it typed
// twice was tried: it made no difference on the qualifier problems.)
func (s *Solver) phraseSearch(u int, from, target int32, n0 int) {
	s.pl.rc.toTarget(&s.cur, u, target)
	text, _, ok := s.dp.solve(&s.cur, u, from, target, s.acState, s.used, s.dpBuf[:0])
	s.dpBuf = text
	if !ok {
		return
	}
	if len(s.out) > n0 && s.textValue(s.out[n0:]) >= s.textValue(text) {
		return
	}
	if !s.replays(text) {
		return
	}
	copy(s.pl.used, s.used)
	s.out = append(s.out[:n0], text...)
}

// textValue is what text earns in power points when typed after s.out's
// units so far (the used flags of before the current unit), plus
// DPPotential per character of a phrase it leaves partly typed.
func (s *Solver) textValue(text []byte) float64 {
	pts, a := s.ac.score(s.acState, text, s.used, s.seen)
	v := float64(pts) + s.cfg.DPPotential*float64(s.ac.cont[a])
	if s.cfg.DPSpan > 0 {
		// A phrase still unused, begun at the lock, as the search values it.
		for n := a; n != 0; n = s.ac.fail[n] {
			if m := s.ac.longer[n]; m != 0 {
				for i := range s.used {
					if m&(1<<uint(i)) != 0 && !s.used[i] {
						v = max(v, float64(pts)+s.cfg.DPSpanPot*float64(s.ac.depth[n]))
						break
					}
				}
				break
			}
		}
	}
	return v
}

// lockValue returns the one-unit value of locking at state st (from the
// latest ranking of the live unit), or false if st is not a lock placement.
func (s *Solver) lockValue(st int32) (float64, bool) {
	for _, c := range s.cands[0] {
		if c.lock.State == st {
			return c.v, true
		}
	}
	return 0, false
}

// trySpan types part of a phrase of power that one unit's fall cannot hold:
// it continues the phrase in progress, or starts an unused one, as long as
// the placement where a phrase character locks the unit is within
// SpanMargin of the best one. It reports whether it placed the unit.
func (s *Solver) trySpan(u, k int, from int32, best lockAt) bool {
	pl := s.pl
	cs := s.cands[0]
	floor := cs[0].v - s.cfg.SpanMargin
	n0 := len(s.out)
	if s.spanPh >= 0 {
		i := s.spanPh
		s.spanPh = -1
		ph := &pl.phrases[i]
		pl.hist = append(pl.hist[:0], from)
		res, j, end := pl.simulate(&s.cur, u, from, pl.hist, ph.cmds[s.spanAt:])
		switch res {
		case spanLocks:
			if v, ok := s.lockValue(end); ok && v >= floor {
				s.out = append(s.out, ph.text[s.spanAt:s.spanAt+j+1]...)
				if s.replays(s.out[n0:]) {
					s.spanPh, s.spanAt = i, s.spanAt+j+1
					s.play(n0)
					return true
				}
				s.out = s.out[:n0]
			}
		case spanFinish:
			pl.hist = append(pl.hist[:0], pl.hist2...)
			lockCmd, ok := s.reachTarget(u, end, best)
			if !ok {
				return false
			}
			s.out = append(s.out, ph.text[s.spanAt:]...)
			was := pl.used[i]
			pl.used[i] = true
			out, ok := pl.planFrom(&s.cur, u, end, lockCmd, s.out)
			if ok && s.replays(out[n0:]) {
				s.out = out
				s.play(n0)
				return true
			}
			pl.used[i] = was
			s.out = s.out[:n0]
		}
		return false
	}
	// Start an unused phrase that the planner has not fitted so far.
	bestScore, bestI, bestPre, bestJ := -1e300, -1, 0, 0
	for i := range pl.phrases {
		ph := &pl.phrases[i]
		if pl.used[i] || s.tries[i] >= maxSpanTries || (2*ph.downs < s.g.h && k < 5) {
			continue
		}
		for pre := -min(s.g.w, 12); pre <= min(s.g.w, 12); pre++ {
			cur, ok := from, true
			pl.hist = append(pl.hist[:0], from)
			c := hextris.MoveE
			if pre < 0 {
				c = hextris.MoveW
			}
			for range abs(pre) {
				t, fine := s.g.next(u, cur, c)
				if !fine || !s.cur.fits(s.g, u, t) {
					ok = false
					break
				}
				cur = t
				pl.hist = append(pl.hist, t)
			}
			if !ok {
				continue
			}
			res, j, end := pl.simulate(&s.cur, u, cur, pl.hist, ph.cmds)
			if res != spanLocks || j == 0 {
				continue
			}
			v, ok := s.lockValue(end)
			if !ok || v < floor {
				continue
			}
			if score := v + 20*float64(j); score > bestScore {
				bestScore, bestI, bestPre, bestJ = score, i, pre, j
			}
		}
	}
	if bestI < 0 {
		return false
	}
	if !s.spanCompletes(k, from, bestI, bestPre) {
		s.tries[bestI]++
		return false
	}
	c := hextris.MoveE
	if bestPre < 0 {
		c = hextris.MoveW
	}
	for range abs(bestPre) {
		s.out = append(s.out, c.Char())
	}
	ph := &pl.phrases[bestI]
	s.out = append(s.out, ph.text[:bestJ+1]...)
	if !s.replays(s.out[n0:]) {
		s.out = s.out[:n0]
		return false
	}
	s.spanPh, s.spanAt = bestI, bestJ+1
	s.tries[bestI]++
	s.play(n0)
	return true
}

// maxSpanUnits is how many units one span may take.
const maxSpanUnits = 4

// spanCompletes reports whether phrase i, typed after pre E (W if negative)
// moves from state from of source unit k, would be completed within
// maxSpanUnits units, every lock within SpanMargin of the best placement of
// its unit, on boards simulated from the current one.
func (s *Solver) spanCompletes(k int, from int32, i, pre int) bool {
	pl := s.pl
	if s.spanRc == nil {
		s.spanRc = newReach(s.g)
		s.spanBoards = [2]board{newBoard(s.g.w, s.g.h), newBoard(s.g.w, s.g.h)}
	}
	ph := &pl.phrases[i]
	b := &s.spanBoards[0]
	b.copyFrom(&s.cur)
	cs := s.cands[0]
	at := 0
	for n := range maxSpanUnits {
		u := s.src[k+n]
		cur := from
		pl.hist = append(pl.hist[:0], from)
		if n == 0 {
			c := hextris.MoveE
			if pre < 0 {
				c = hextris.MoveW
			}
			for range abs(pre) {
				cur, _ = s.g.next(u, cur, c)
				pl.hist = append(pl.hist, cur)
			}
		} else {
			locks := s.spanRc.search(b, u, from)
			if len(locks) == 0 {
				return false
			}
			s.spanCands = s.rankInto(s.spanCands[:0], &s.spanBoards[1], b, u, k+n, locks)
			cs = s.spanCands
		}
		res, j, end := pl.simulate(b, u, cur, pl.hist, ph.cmds[at:])
		switch res {
		case spanFinish:
			return true
		case spanFails:
			return false
		}
		v, ok := -1e300, false
		for _, c := range cs {
			if c.lock.State == end {
				v, ok = c.v, true
				break
			}
		}
		if !ok || v < cs[0].v-s.cfg.SpanMargin || k+n+1 >= len(s.src) {
			return false
		}
		b.lock(s.g, u, end)
		at += j + 1
		next := s.src[k+n+1]
		from = s.g.spawn[next]
		if !b.fits(s.g, next, from) {
			return false
		}
	}
	return false
}

// maxSpanTries is how many times one phrase may be started across units in
// one game.
const maxSpanTries = 3

// reachTarget finds the lock placement to head for from state cur (with the
// row history in the planner): best if it is still reachable, else the
// best ranked reachable one among the first few. It leaves the planner's
// distances set for that target.
func (s *Solver) reachTarget(u int, cur int32, best lockAt) (hextris.Command, bool) {
	pl := s.pl
	pl.rc.toTarget(&s.cur, u, best.State)
	if _, ok := pl.feasible(&s.cur, u, cur, pl.hist); ok {
		return best.Cmd, true
	}
	for _, c := range s.cands[0][:min(16, len(s.cands[0]))] {
		pl.rc.toTarget(&s.cur, u, c.lock.State)
		if _, ok := pl.feasible(&s.cur, u, cur, pl.hist); ok {
			return c.lock.Cmd, true
		}
	}
	return 0, false
}

// replays checks on a copy of the game that text moves the live unit
// without error and locks it with its last command, and no sooner.
func (s *Solver) replays(text []byte) bool {
	s.check.CopyFrom(&s.game)
	locked := s.game.UnitsLocked()
	for i, ch := range text {
		c, ok, _ := hextris.DecodeChar(rune(ch))
		if !ok {
			return false
		}
		r := s.check.Step(c)
		switch r {
		case hextris.StepMoved:
			if i == len(text)-1 {
				return false
			}
		case hextris.StepLocked, hextris.StepEnded:
			if i != len(text)-1 || s.check.UnitsLocked() != locked+1 {
				return false
			}
		default:
			return false
		}
	}
	return len(text) > 0
}

// choose returns the best lock placement of unit u (source index k) on b.
func (s *Solver) choose(b *board, u, k int, from int32) (lockAt, bool) {
	locks := s.rcs[0].search(b, u, from)
	if len(locks) == 0 {
		return lockAt{}, false
	}
	cs := s.rank(0, b, u, k, locks)
	best := cs[0].lock
	h := b.hash()
	if s.reuse && k < len(s.prevChosen) && s.prevChosen[k].board == h {
		if _, ok := s.lockValue(s.prevChosen[k].lock.State); ok {
			best = s.prevChosen[k].lock
			s.chosen = append(s.chosen, chosenLock{h, best})
			return best, true
		}
	}
	if s.cfg.Depth > 1 && k+1 < len(s.src) {
		best = s.deepen(b, u, k, cs[:min(s.cfg.Beam, len(cs))], best)
	}
	s.chosen = append(s.chosen, chosenLock{h, best})
	return best, true
}

// deepen searches the placements cs of unit u (source index k) on b ever
// deeper, by iterative deepening: depth 2 (the next unit) for every one,
// then depth 3, and so on up to Depth, each iteration started only if its
// estimated cost (its searches times the states of the current unit's
// search) fits in what is left of the unit's node budget. So small boards
// are searched deep and big ones at depth 2. An iteration beyond depth 2
// that runs out of budget all the same is discarded; at depth 2 the
// placements expanded before the budget ran out are compared. It returns
// the best placement of the deepest iteration (def if none ran).
func (s *Solver) deepen(b *board, u, k int, cs []cand, def lockAt) lockAt {
	best := def
	per := float64(max(s.rcs[0].last, 1))
	searches, width := 0.0, float64(len(cs))
	for d := 2; d <= s.cfg.Depth && k+d-1 < len(s.src); d++ {
		searches += width
		width *= float64(s.cfg.BeamDeep)
		if d > 2 && float64(s.nodes)+searches*per > float64(s.cfg.Nodes) {
			break
		}
		s.depth, s.cut = d, false
		lock, bestV := def, -1e300
		for i, c := range cs {
			if i > 0 && (s.nodes >= s.cfg.Nodes || s.stopped()) {
				s.cut = true
				break // budget or time spent: compare the placements expanded so far
			}
			nb := &s.boards[0]
			nb.copyFrom(b)
			pts, _ := nb.lock(s.g, u, c.lock.State)
			v := (1+s.cfg.FirstBonus)*s.cfg.Weights.Points*float64(pts) + s.ev.placement(s.g, b, u, c.lock.State)
			v += s.value(1, nb, k+1)
			if v > bestV {
				lock, bestV = c.lock, v
			}
		}
		if d > 2 && s.cut {
			break
		}
		best = lock
	}
	return best
}

// value is the best value of the placements of source unit k on b, searched
// to the depth of the current iteration (see deepen); once the unit's node
// budget is spent, only the first placement of each level is expanded
// further (and the iteration is marked cut).
func (s *Solver) value(level int, b *board, k int) float64 {
	u := s.src[k]
	spawn := s.g.spawn[u]
	if !b.fits(s.g, u, spawn) {
		return -1e9
	}
	rc := s.rcs[level]
	n0 := rc.nodes
	locks := rc.search(b, u, spawn)
	s.nodes += rc.nodes - n0
	if len(locks) == 0 {
		return s.ev.static(b)
	}
	cs := s.rank(level, b, u, k, locks)
	if level+1 >= s.depth || k+1 >= len(s.src) {
		return cs[0].v
	}
	bestV := -1e300
	for i := range min(s.cfg.BeamDeep, len(cs)) {
		if i > 0 && (s.nodes >= s.cfg.Nodes || s.stopped()) {
			s.cut = true
			break
		}
		c := cs[i]
		nb := &s.boards[level]
		nb.copyFrom(b)
		pts, _ := nb.lock(s.g, u, c.lock.State)
		v := s.cfg.Weights.Points*float64(pts) + s.ev.placement(s.g, b, u, c.lock.State)
		v += s.value(level+1, nb, k+1)
		bestV = max(bestV, v)
	}
	return bestV
}

// rank evaluates every lock one unit deep and sorts them best first, in the
// level's candidate buffer.
func (s *Solver) rank(level int, b *board, u, k int, locks []lockAt) []cand {
	cs := s.rankInto(s.cands[level][:0], &s.boards[level], b, u, k, locks)
	s.cands[level] = cs
	return cs
}

// rankInto appends to cs the one-unit values of locks on b, best first,
// using nb as scratch. A lock that clears no line is evaluated by updating
// the features of b where the unit touches it; one that does is played on
// nb and evaluated in full.
func (s *Solver) rankInto(cs []cand, nb, b *board, u, k int, locks []lockAt) []cand {
	cs = s.valueInto(cs, nb, b, u, k, locks)
	slices.SortFunc(cs, func(a, b cand) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return cmp.Compare(a.i, b.i)
	})
	return cs
}

// valueInto appends to cs the one-unit values of locks on b, in the order
// of locks (see rankInto).
func (s *Solver) valueInto(cs []cand, nb, b *board, u, k int, locks []lockAt) []cand {
	next := -1
	if k+1 < len(s.src) {
		next = s.src[k+1]
	}
	s.ev.setBase(&s.base, b)
	for i, l := range locks {
		pl := s.ev.placement(s.g, b, u, l.State)
		var v float64
		st, fits, ok := s.ev.after(&s.base, s.g, u, l.State, next)
		if ok {
			v = s.cfg.Weights.Points*float64(lockPoints(s.g.size[u], 0, b.lastLines)) + pl + st
		} else {
			nb.copyFrom(b)
			pts, _ := nb.lock(s.g, u, l.State)
			v = s.cfg.Weights.Points*float64(pts) + pl + s.ev.static(nb)
			fits = next < 0 || nb.fits(s.g, next, s.g.spawn[next])
		}
		if !fits {
			v -= 1e9
		}
		cs = append(cs, cand{l, v, int32(i)})
	}
	return cs
}

// stopped reports whether the current game's context has ended.
func (s *Solver) stopped() bool { return s.ctx != nil && s.ctx.Err() != nil }
