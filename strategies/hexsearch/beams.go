package hexsearch

import (
	"context"

	"gauntlet/referees/hextris"
)

// fallBeam plays a game beam of budget nodes (per problem) ranked for the
// points of boards where units fall far: fall_gain per row each unit
// falls (the phrases typed on the way), the lock points' weight times
// fall_points (a line cleared lowers the stack for every later unit), and
// its line picked by move points plus fall_rows per row. On a board too
// big for the game beam (big), its line is typed with big_dp_nodes and
// big_dp_slack: falls of 30 rows and more leave the phrase search more
// paths than dp_nodes holds (problem 24: 280,130 with 200,000, 281,912
// with 1,000,000), and paths that stray further from the straight line
// (with the hanging locks left out, big_dp_slack 16, 32, 48 and 64 gave
// 282,184, 283,406, 283,420 and 283,414 in 184, 253, 296 and 330 s). It
// returns "" when the budget leaves the beam under minBeam wide.
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
		c.RestingOnly = !s.cfg.FallHang
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
