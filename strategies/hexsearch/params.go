package hexsearch

import (
	"slices"

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
	{Name: "seed_nodes", Kind: param.Int, Min: 0, Max: 1000000000, Default: 12000000, Help: "the least work of the game beam per source seed: a problem of many seeds gets this much for each where game_nodes shared among them would give less (0: none)"},
	{Name: "game_line", Kind: param.Int, Min: 0, Max: 1, Default: 0, Help: "play the game beam's own line and keep its text if it scores more (1); 0 leaves it out, the fall, well and survival beams still played at its width and budget"},
	{Name: "beam_rows", Kind: param.Float, Min: 0, Max: 20, Default: 0, Help: "power points per row of the units' falls (phrases typed on the way) that the game beam adds to a line's move points when it picks its best line: longer games and deeper falls win (0: move points only)"},
	{Name: "beam_fall", Kind: param.Float, Min: 0, Max: 50, Default: 0, Help: "gain per row of a unit's fall (room for phrases) added to the game beam's ranking of its states (0: none)"},
	{Name: "fall_beam", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "also play a game beam ranked for falls and lines (fall_gain, fall_rows, fall_points), its text kept if it scores more (1)"},
	{Name: "fall_gain", Kind: param.Float, Min: 0, Max: 50, Default: 2, Help: "the fall beam's gain per row of a unit's fall in ranking its states (as beam_fall)"},
	{Name: "fall_rows", Kind: param.Float, Min: 0, Max: 20, Default: 6, Help: "the fall beam's power points per row of fall in picking its line (as beam_rows)"},
	{Name: "fall_points", Kind: param.Float, Min: 0.1, Max: 100, Default: 10, Help: "the fall beam's factor on w_points: a line cleared lowers the stack for every later unit"},
	{Name: "fall_hang", Kind: param.Int, Min: 0, Max: 1, Default: 0, Help: "the fall beam also weighs the locks where the unit hangs over empty cells (no filled cell or floor SE or SW of a member) and fills no row (1); 0 leaves them out: on problem 24 three in five of the locks found"},
	{Name: "fall_share", Kind: param.Float, Min: 0, Max: 8, Default: 0.75, Help: "the fall beam's work as a share of game_nodes"},
	{Name: "big_nodes", Kind: param.Int, Min: 0, Max: 20000000000, Default: 2000000000, Help: "the fall beam's work on a problem whose board game_nodes leaves without a game beam (too big for it; 0: none there)"},
	{Name: "big_beams", Kind: param.Int, Min: 1, Max: 2, Default: 2, Help: "fall beams played on a board too big for the game beam, each with big_nodes: the fall beam's weights, then w_dead as w_holes and w_bump halved; only the line with the most move points plus fall_rows per row of fall is typed (under a time limit one beam)"},
	{Name: "big_dp_nodes", Kind: param.Int, Min: 1000, Max: 10000000, Default: 1000000, Help: "dp_nodes of the phrase search typing the fall beam's line on a board too big for the game beam, where units fall far"},
	{Name: "big_dp_slack", Kind: param.Int, Min: 0, Max: 200, Default: 32, Help: "dp_slack of the phrase search typing the fall beam's line on a board too big for the game beam"},
	{Name: "big_portfolio", Kind: param.Int, Min: 0, Max: 1, Default: 0, Help: "also play the lookahead's game and the portfolio on a board too big for the game beam, where the fall beam plays with big_nodes (1); 0 leaves them out there, the lookahead's game played only if the fall beam leaves no text"},
	{Name: "beam_span", Kind: param.Int, Min: 0, Max: 18, Default: 6, Help: "while the best text leaves a phrase unused, the game beam's line is typed again with dp_span set to this (unused phrases begun for the next units to finish), kept if it scores more (0: not)"},
	{Name: "reorder", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "where the source is one unit over and over, type the best text's locks again, each stretch between line clears in the order whose phrases score the most, and keep the text if it scores more (1)"},
	{Name: "reorder_potential", Kind: param.Float, Min: 0, Max: 100, Default: 2, Help: "reorder's value per character of a phrase left partly typed at a unit's lock (dp_potential for the other texts)"},
	{Name: "reorder_depth", Kind: param.Int, Min: 1, Max: 4, Default: 2, Help: "units reorder weighs a lock by: its own text (1), and the best texts of the next units after it"},
	{Name: "reorder_width", Kind: param.Int, Min: 1, Max: 64, Default: 4, Help: "locks of a unit (the best by their own text) that reorder weighs with the next units' texts after them"},
	{Name: "well_beam", Kind: param.Int, Min: 0, Max: 1, Default: 1, Help: "also play a game beam that builds wells for straight units to clear several lines at once (well_gain, well_rowfill), where the problem's longest straight unit is 2 cells or more and well_width of the board's width, its text kept if it scores more (1)"},
	{Name: "well_width", Kind: param.Float, Min: 0, Max: 1, Default: 0.3, Help: "the least length of the problem's longest straight unit, as a share of the board's width, for the well beam to be played: on wide boards a row takes too many cells for wells to pay"},
	{Name: "well_gain", Kind: param.Float, Min: 0, Max: 2, Default: 0.95, Help: "the well beam's w_well: its reward per point the deepest open well would earn, as a share of the points' weight (below 1, so that filling the well pays)"},
	{Name: "well_rowfill", Kind: param.Float, Min: 0, Max: 50, Default: 5, Help: "the well beam's w_rowfill: nearly full rows are what a well is built of"},
	{Name: "well_share", Kind: param.Float, Min: 0, Max: 8, Default: 1, Help: "the well beam's work as a share of game_nodes"},
	{Name: "look_seeds", Kind: param.Int, Min: 0, Max: 100000, Default: 1, Help: "the most source seeds a problem may have for the lookahead's own game (depth, beam, nodes) to be played where the game beam plays, its text kept if it scores more; on a problem of more seeds it is played only where no beam leaves a text (its cost is per seed, the beams' budget per problem)"},
	{Name: "survive_beams", Kind: param.Int, Min: 0, Max: 4, Default: 1, Help: "game beams also played, each with the weights of the next survival variant (a heavier height penalty), while the best text so far ends before the source does (0: none)"},
}...)

// Config is a solver's validated settings.
type Config struct {
	Weights      Weights
	Phrases      bool
	Depth        int
	Beam         int // placements of the current unit expanded
	BeamDeep     int // placements expanded at deeper levels
	FirstBonus   float64
	Nodes        int64
	Span         bool    // carry unused phrases across units
	SpanMargin   float64 // evaluation loss accepted for a span's placement
	Portfolio    int     // weight variants also played one unit deep; the best text wins
	PhraseDP     bool    // search each unit's path for power points by dynamic programming
	DPNodes      int     // memoised states allowed per unit in that search
	DPPotential  float64 // value per character of a phrase left partly typed at a lock
	DPRepeats    int     // used phrases the search repeats, best repeat rate first
	DPUnused     int     // unused phrases the search tries to fit, best repeat rate first
	DPSlack      int     // columns the search's paths may stray from the line to the target
	DPTurns      int     // rotations the search's paths may make at one column of a row
	DPSpan       int     // unused phrases longer than the fall the search may begin
	DPSpanPot    float64 // value per character of such a phrase left partly typed at a lock
	GameBeam     int     // widest game beam (0: none)
	GameNodes    int64   // work of the game beam per problem, shared among its seeds (see beamWidth)
	SeedNodes    int64   // the least work of the game beam per seed (see gameNodes)
	GameLine     bool    // play the game beam's own line
	BeamRows     float64 // power points per row of fall the game beam expects
	BeamFall     float64 // gain per row of fall in the game beam's ranking of states
	FallBeam     bool    // also play the fall beam
	FallGain     float64 // its gain per row of fall (its BeamFall)
	FallRows     float64 // its power points per row in picking its line (its BeamRows)
	FallPoints   float64 // its factor on the lock points' weight
	FallShare    float64 // its budget as a share of GameNodes
	FallHang     bool    // it weighs hanging locks too (see RestingOnly)
	BigNodes     int64   // its budget on a board game_nodes leaves without a game beam
	BigBeams     int     // fall beams played on such a board (see bigVariants)
	BigDPNodes   int     // its DPNodes on such a board
	BigDPSlack   int     // its DPSlack on such a board
	BigPortf     bool    // play the portfolio on such a board too
	SurvBeams    int     // survival variants' game beams played while the best game ends early
	LookSeeds    int     // the most source seeds for the lookahead's own game where the game beam plays
	WellBeam     bool    // also play the well beam
	Reorder      bool    // type the best text's locks again in the order that scores the most
	ReorderPot   float64 // its value per character of a phrase left partly typed
	ReorderWidth int     // its locks weighed with the next units' texts
	ReorderDepth int     // units it weighs a lock by
	WellGain     float64 // its w_well, as a share of w_points
	WellRowFill  float64 // its w_rowfill
	WellShare    float64 // its budget as a share of GameNodes
	WellWidth    float64 // the least longest straight unit, over the board's width, where it plays
	BeamSpan     int     // dp_span of a second typing of the game beam's line (0: none)

	// RestingOnly: the placements weighed leave out the locks where the
	// unit hangs over empty cells (see valueInto); the fall beam's solver
	// sets it unless FallHang.
	RestingOnly bool
}

// configFrom validates v against specs and reads the settings (those of
// the lookahead only where specs has them).
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
		c.SeedNodes = int64(specs.Int(v, "seed_nodes"))
		c.BeamRows, c.BeamFall = v["beam_rows"], v["beam_fall"]
		c.FallBeam, c.FallGain, c.FallRows, c.FallPoints = v["fall_beam"] != 0, v["fall_gain"], v["fall_rows"], v["fall_points"]
		c.FallShare, c.BigNodes, c.BigPortf = v["fall_share"], int64(specs.Int(v, "big_nodes")), v["big_portfolio"] != 0
		c.FallHang = v["fall_hang"] != 0
		c.BigBeams, c.BigDPNodes, c.BigDPSlack = specs.Int(v, "big_beams"), specs.Int(v, "big_dp_nodes"), specs.Int(v, "big_dp_slack")
		c.SurvBeams = specs.Int(v, "survive_beams")
		c.LookSeeds = specs.Int(v, "look_seeds")
		c.WellBeam, c.WellGain, c.WellRowFill, c.WellShare = v["well_beam"] != 0, v["well_gain"], v["well_rowfill"], v["well_share"]
		c.Reorder, c.ReorderPot, c.ReorderWidth, c.ReorderDepth = v["reorder"] != 0, v["reorder_potential"], specs.Int(v, "reorder_width"), specs.Int(v, "reorder_depth")
		c.WellWidth = v["well_width"]
		c.BeamSpan = specs.Int(v, "beam_span")
	}
	return c, nil
}
