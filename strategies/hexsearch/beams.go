package hexsearch

import (
	"context"
	"math"

	"gauntlet/referees/hextris"
)

// fallBeam plays a game beam of budget nodes (per problem) ranked for the
// points of boards where units fall far: fall_gain per row each unit
// falls (the phrases typed on the way), the lock points' weight times
// fall_points (a line cleared lowers the stack for every later unit), and
// its line picked by move points plus fall_rows per row. It returns ""
// when the budget leaves the beam under minBeam wide.
func (s *Solver) fallBeam(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, nodes int64) (string, error) {
	if s.fallS == nil {
		s.fallS = NewSolver(s.fallConfig())
	}
	f := s.fallS
	f.beamStart(p, seed, phrases)
	w, budget := f.beamWidth(nodes)
	if w == 0 {
		return "", nil
	}
	return f.beamPlay(ctx, p, seed, phrases, w, budget, lastShare)
}

// fallConfig is the configuration of the fall beam's solver.
func (s *Solver) fallConfig() Config {
	c := s.cfg
	c.Portfolio, c.SurvBeams, c.FallBeam = 0, 0, false
	c.BeamFall, c.BeamRows = s.cfg.FallGain, s.cfg.FallRows
	c.Weights.Points *= s.cfg.FallPoints
	c.RestingOnly = !s.cfg.FallHang
	return c
}

// bigFallBeams plays big_beams fall beams of big_nodes each on a board too
// big for the game beam, the first with the fall beam's weights and the
// others with bigVariants', and types the line that the beams' own pick
// ranks first: its move points plus fall_rows per row of fall (on problem
// 24 that estimate and the typed score correlate at 0.95 over 19 lines).
// The line is typed with big_dp_nodes and big_dp_slack: falls of 30 rows
// and more leave the phrase search more paths than dp_nodes holds
// (problem 24: 280,130 with 200,000, 281,912 with 1,000,000), and paths
// that stray further from the straight line (with the hanging locks left
// out, big_dp_slack 16, 32, 48 and 64 gave 282,184, 283,406, 283,420 and
// 283,414 in 184, 253, 296 and 330 s). Under a deadline the first beam
// alone plays, its search taking bigShare of the time left: there the time
// bounds the beam's width, and two beams of half the width are no better
// than one (on problem 24 the picks of five lines at half big_nodes
// averaged 288,800, of twelve at big_nodes 293,800). It returns "" when
// the budget leaves every beam under minBeam wide.
func (s *Solver) bigFallBeams(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	n := min(s.cfg.BigBeams, 1+len(bigVariants))
	if _, timed := ctx.Deadline(); timed {
		n = 1
	}
	for len(s.bigS) < n {
		c := s.fallConfig()
		c.DPNodes, c.DPSlack = s.cfg.BigDPNodes, s.cfg.BigDPSlack
		if i := len(s.bigS); i > 0 {
			bigVariants[i-1](&c)
		}
		s.bigS = append(s.bigS, NewSolver(c))
	}
	var best *Solver
	var bestLine []chosenLock
	bestPick := math.Inf(-1)
	for _, f := range s.bigS[:n] {
		f.beamStart(p, seed, phrases)
		w, budget := f.beamWidth(s.cfg.BigNodes)
		if w == 0 {
			continue
		}
		line, ok := f.searchLine(ctx, w, budget, bigShare)
		if !ok {
			return "", nil
		}
		if len(line) > 0 && f.gb.pick > bestPick {
			best, bestLine, bestPick = f, line, f.gb.pick
		}
	}
	if best == nil {
		return "", nil
	}
	return best.typeLine(ctx, p, seed, phrases, bestLine)
}

// bigVariants change the weights of the fall beams after the first on a
// board too big for the game beam (big_beams). The fall beam's play there
// is chaotic in its weights and width: on problem 24, at big_nodes 1.8,
// 2, 2.2 and 2.4 billion the first beam's lines scored 269,294, 283,406,
// 286,360 and 281,740, the variant's 276,092, 292,920, 276,170 and
// 280,014 (about the same mean), and the two together, the line picked by
// the beams' estimate typed, 276,092, 292,920, 286,360 and 280,014: 3,600
// more on average than one beam. The variant weighs the cells covered on
// both sides (w_dead) as much as holes and bumps half as much. Halving the
// lock points' weight instead (fall_points 5) picked the first beam's
// line again on all 20 boards of small problems where it was tried.
var bigVariants = []func(c *Config){
	func(c *Config) { c.Weights.Dead, c.Weights.Bump = c.Weights.Holes, c.Weights.Bump/2 },
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

// bigShare is lastShare for the fall beams on a board too big for the game
// beam, where typing its line costs about a search of the board per unit
// (problem 24 with -t 28: at 0.8 the line was cut while being typed and
// the quick game's 219,055 was kept; at 0.65 264,000, at 0.5 268,712).
const bigShare = 0.5
