package hexsearch

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"gauntlet/referees/hextris"
)

// The game beam plays the whole source as one beam search over units: after
// each unit it keeps the Width best distinct game states, ranked by the
// gains of their line (points and placement terms, as the lookahead sums
// them) plus the static value of their board. Where the lookahead commits
// to one placement per unit, the beam keeps alternatives alive until later
// units show which of them survive and clear lines; on small boards with
// long sources that is what decides the score. The best line, by the
// referee's move points, is then typed with the phrase search (Solver.solveFull).

// beamNode is one game state of the beam: a placement of source unit k on
// its parent's board.
type beamNode struct {
	parent int32   // index in the previous level's nodes (-1: none)
	lock   lockAt  // where the unit locks
	board  uint64  // hash of the board the unit was placed on
	acc    float64 // summed gains of the line
	score  int     // the referee's move points of the line
	rows   int     // rows the line's units fell, spawn to lock
	live   bool    // the next unit of the source spawns on the board after it
}

// beamCand is a child not yet played: a placement of a live node's unit.
type beamCand struct {
	parent int32
	lock   lockAt
	key    float64 // parent's gains plus the placement's one-unit value
}

// gameBeam holds the beam's buffers, reused from one game to the next.
type gameBeam struct {
	levels [][]beamNode // nodes per source index
	boards [2][]board   // boards of the live nodes of the current and the next level
	pool   []beamCand
	seen   map[uint64]struct{}
	cs     []cand
	scr    board
	pick   float64 // the pick value of the line beamLine returned last (move points plus BeamRows per row)
}

// minBeam is the narrowest game beam played: a narrower one rarely beats
// the lookahead, which is played in any case.
const minBeam = 16

// beamFan is how many placements of one state the game beam considers
// for the next level (its best by one-unit value).
const beamFan = 8

// beamLine returns the chosen locks of the best line the game beam finds
// from the start set up by beamStart, by source index, with the board
// hashes the replay checks (see Solver.choose), and the line's move points;
// ok is false when the context ended first. The beam starts width states
// wide and is narrowed, unit by unit, so that its work (states expanded by
// its searches plus placements valued) stays within budget.
//
// Under a deadline (until not zero) the beam is also narrowed so that it
// ends by until, at the mean time of a state so far.
func (s *Solver) beamLine(width int, budget int64, until time.Time) (line []chosenLock, score int, ok bool) {
	gb := s.gb
	if gb == nil {
		gb = &gameBeam{seen: map[uint64]struct{}{}}
		s.gb = gb
	}
	for i := range gb.boards {
		for len(gb.boards[i]) < width {
			gb.boards[i] = append(gb.boards[i], newBoard(s.p.Width, s.p.Height))
		}
	}
	if gb.scr.rows == nil || gb.scr.w != s.p.Width || gb.scr.h != s.p.Height {
		gb.scr = newBoard(s.p.Width, s.p.Height)
	}
	gb.levels = gb.levels[:0]
	cur, nxt := gb.boards[0], gb.boards[1]
	cur[0].copyFrom(&s.cur)
	live := []int32{-1}              // by board slot in cur: the node of the previous level (-1: the start)
	hashes := []uint64{s.cur.hash()} // by board slot in cur: the board's hash
	rc := s.rcs[0]
	var spent, expanded int64
	w0 := width
	start := time.Now()
	for k := 0; k < len(s.src) && len(live) > 0; k++ {
		if s.stopped() {
			return nil, 0, false
		}
		if expanded > 0 {
			// What is left of the budget, spread over the units left at
			// the mean cost of a state so far.
			per := float64(spent) / float64(expanded)
			left := float64(budget-spent) / float64(len(s.src)-k)
			width = max(1, min(w0, int(left/per)))
			if !until.IsZero() {
				now := time.Now()
				perT := float64(now.Sub(start)) / float64(expanded)
				leftT := float64(until.Sub(now)) / float64(len(s.src)-k)
				width = max(1, min(width, int(leftT/perT)))
			}
		}
		u := s.src[k]
		spawn := s.g.spawn[u]
		gb.pool = gb.pool[:0]
		var prev []beamNode
		if k > 0 {
			prev = gb.levels[k-1]
		}
		for slot, pi := range live {
			b := &cur[slot]
			n0 := rc.nodes
			locks := rc.search(b, u, spawn)
			spent += rc.nodes - n0 + int64(len(locks))
			expanded++
			acc := 0.0
			if pi >= 0 {
				acc = prev[pi].acc
			}
			gb.cs = s.valueInto(gb.cs[:0], &gb.scr, b, u, k, locks)
			if s.cfg.BeamFall != 0 {
				for i := range gb.cs {
					gb.cs[i].v += s.cfg.BeamFall * float64(s.fall(u, gb.cs[i].lock.State))
				}
			}
			gb.pool = appendBest(gb.pool, gb.cs, int32(slot), acc)
		}
		slices.SortFunc(gb.pool, func(a, b beamCand) int { return cmp.Compare(b.key, a.key) })
		clear(gb.seen)
		var nodes []beamNode
		var nextLive []int32
		var nextHashes []uint64
		for _, c := range gb.pool {
			if len(nextLive) >= width {
				break
			}
			slot := int(c.parent)
			pb := &cur[slot]
			// A finished line's board (or a duplicate's) is not kept: its
			// slot in nxt goes to the next child, so that nxt[i] is the
			// board of the i-th live node.
			nb := &nxt[len(nextLive)]
			nb.copyFrom(pb)
			pts, _ := nb.lock(s.g, u, c.lock.State)
			h := nb.hash()
			if _, dup := gb.seen[h]; dup {
				continue
			}
			gb.seen[h] = struct{}{}
			fall := s.fall(u, c.lock.State)
			n := beamNode{parent: live[slot], lock: c.lock, board: hashes[slot], score: pts, rows: fall}
			if n.parent >= 0 {
				p := &prev[n.parent]
				n.acc, n.score, n.rows = p.acc, p.score+pts, p.rows+fall
			}
			n.acc += s.cfg.Weights.Points*float64(pts) + s.ev.placement(s.g, pb, u, c.lock.State) + s.cfg.BeamFall*float64(fall)
			n.live = k+1 < len(s.src) && nb.fits(s.g, s.src[k+1], s.g.spawn[s.src[k+1]])
			if n.live {
				nextLive = append(nextLive, int32(len(nodes)))
				nextHashes = append(nextHashes, h)
			}
			nodes = append(nodes, n)
		}
		gb.levels = append(gb.levels, nodes)
		live, hashes = nextLive, nextHashes
		cur, nxt = nxt, cur
	}
	// The best line by move points and the power points expected from
	// its falls: a finished node or one of the last level.
	bk, bi, best, bestV := -1, -1, -1, -1.0
	for k, nodes := range gb.levels {
		for i, n := range nodes {
			v := float64(n.score) + s.cfg.BeamRows*float64(n.rows)
			if (!n.live || k == len(gb.levels)-1) && v > bestV {
				bk, bi, best, bestV = k, i, n.score, v
			}
		}
	}
	gb.pick = bestV
	if bk < 0 {
		return nil, 0, true
	}
	line = make([]chosenLock, bk+1)
	for k, i := bk, int32(bi); k >= 0; k-- {
		n := gb.levels[k][i]
		line[k] = chosenLock{n.board, n.lock}
		i = n.parent
	}
	return line, best, true
}

// fall is the number of rows unit u falls from its spawn to lock state st.
func (s *Solver) fall(u int, st int32) int {
	_, y, _ := s.g.unpack(st)
	_, y0, _ := s.g.unpack(s.g.spawn[u])
	return max(y-y0, 0)
}

// appendBest appends to pool the beamFan best of cs (by value, the first
// in cs on ties) as children of parent, whose line has gains acc.
func appendBest(pool []beamCand, cs []cand, parent int32, acc float64) []beamCand {
	n0 := len(pool)
	for _, c := range cs {
		key := acc + c.v
		if len(pool)-n0 == beamFan {
			if key <= pool[len(pool)-1].key {
				continue
			}
			pool = pool[:len(pool)-1]
		}
		// Insert in order, best first.
		pool = append(pool, beamCand{})
		i := len(pool) - 1
		for ; i > n0 && pool[i-1].key < key; i-- {
			pool[i] = pool[i-1]
		}
		pool[i] = beamCand{parent, c.lock, key}
	}
	return pool
}

// beamPlay plays the game set up by beamStart along the game beam's best
// line with the given width and budget, typing phrases on the way as the
// solver does, and returns its text ("" when the context ended first).
// Under a deadline the beam's search takes at most share of the time left
// (the rest is for typing its line and what is played after it).
func (s *Solver) beamPlay(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, width int, budget int64, share float64) (string, error) {
	line, ok := s.searchLine(ctx, width, budget, share)
	if !ok {
		s.line = s.line[:0]
		return "", nil
	}
	return s.typeLine(ctx, p, seed, phrases, line)
}

// searchLine runs beamLine under ctx (ok is false when it ended first),
// the search ending by share of the time left to ctx's deadline, if any.
func (s *Solver) searchLine(ctx context.Context, width int, budget int64, share float64) (line []chosenLock, ok bool) {
	s.ctx = ctx
	defer func() { s.ctx = nil }()
	var until time.Time
	if d, ok := ctx.Deadline(); ok {
		until = time.Now().Add(time.Duration(share * float64(time.Until(d))))
	}
	line, _, ok = s.beamLine(width, budget, until)
	return line, ok
}

// typeLine types line, a line of the game beam's, with the phrase search
// and returns its text ("" for an empty line).
func (s *Solver) typeLine(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, line []chosenLock) (string, error) {
	s.line = append(s.line[:0], line...)
	if len(line) == 0 {
		return "", nil
	}
	if s.replay == nil {
		s.replay = s.lineTyper(s.cfg.DPSpan)
	}
	return s.retype(ctx, p, seed, phrases, s.replay)
}

// lineTyper returns a one-unit solver for retype, its phrase search
// beginning up to dpSpan unused phrases too long for a fall.
func (s *Solver) lineTyper(dpSpan int) *Solver {
	c := s.cfg
	c.Depth, c.Beam, c.Portfolio, c.Span, c.DPSpan = 1, 1, 0, false, dpSpan
	return NewSolver(c)
}

// retype types the game beam's latest line (beamPlay's) with the phrase
// settings of the one-unit solver r, and returns its text ("" without a
// line).
func (s *Solver) retype(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, r *Solver) (string, error) {
	if len(s.line) == 0 {
		return "", nil
	}
	r.prevChosen = append(r.prevChosen[:0], s.line...)
	r.reuse = true
	defer func() { r.reuse = false }()
	return r.solveOne(ctx, p, seed, phrases)
}

// leavesUnused reports whether text lacks one of the solver's phrases.
func (s *Solver) leavesUnused(text string) bool {
	text = strings.ToLower(text)
	for _, ph := range s.pl.phrases {
		if !strings.Contains(text, ph.text) {
			return true
		}
	}
	return false
}

// beamStart sets the solver up at the start of the game of p and seed.
func (s *Solver) beamStart(p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) {
	s.prepare(p, phrases)
	s.game.Reset(p, seed)
	s.src = hextris.SourceUnits(p, seed, s.src[:0])
	s.cur.loadGame(&s.game)
}

// beamWidth is the width of a game beam of work nodes per problem (the
// game beam's GameNodes, the fall beam's share or big_nodes) for the game
// set up by beamStart, and the work it may do. The work is per problem:
// the problem's score is the mean over its source seeds, so each seed's
// game gets an equal share. The width is GameBeam, narrowed so that the
// beam's searches (one per kept state and unit, each costing about as much
// as the first unit's search on the starting board) fit in the game's
// share; 0 when that leaves it under minBeam wide. The budget returned is
// twice the share: beamLine narrows the beam further only where the
// estimate was far too low.
func (s *Solver) beamWidth(nodes int64) (width int, budget int64) {
	if s.cfg.GameBeam <= 0 || len(s.src) == 0 {
		return 0, 0
	}
	share := nodes / int64(max(len(s.p.SourceSeeds), 1))
	u := s.src[0]
	s.rcs[0].search(&s.cur, u, s.g.spawn[u])
	per := max(s.rcs[0].last, 1) * int64(len(s.src))
	w := int(min(int64(s.cfg.GameBeam), share/per))
	if w < minBeam {
		return 0, 0
	}
	return w, 2 * share
}
