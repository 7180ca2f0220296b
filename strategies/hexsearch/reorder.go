package hexsearch

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gauntlet/referees/hextris"
)

// linePlace is one unit's lock in a played text: its state, and whether
// the lock cleared lines.
type linePlace struct {
	state  int32
	clears bool
}

// reorder types text's line again with the locks of each stretch between
// two line clears taken in the order that earns the most power points, on
// a problem whose source is one single cell over and over (problems 1, 17,
// 19 and 21 of the qualifier). Every unit being the same, any of a
// stretch's locks can go first: no line fills before the stretch's last
// lock (a row that none of the stretch's locks filled in the text's order
// is not full with fewer of them), so the board at each clear, and the
// move points, are the text's. What changes is where each unit's fall
// ends, and so what it can type: a cell can type only "ei!" and "ia! ia!"
// (a turn repeats its position), both drifting west as they descend, and a
// chain of "ia! " runs on from one unit's text into the next, so the order
// that lets the chain go on earns more. Each unit takes the lock of its
// stretch (the clearing one last) that look finds best.
//
// Where units have more cells it is left out: there the texts draw their
// power from the first use of many phrases (span, beam_span), which this
// typing does not do, and on problems 10, 13, 15, 22 and 23 its texts
// scored less than the best text, for 4 to 8 s more a problem.
//
// It returns "" where it does not apply.
func (s *Solver) reorder(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet, text string) (string, error) {
	if text == "" || !s.cfg.Phrases || !s.cfg.PhraseDP {
		return "", nil
	}
	s.prepare(p, phrases)
	s.src = hextris.SourceUnits(p, seed, s.src[:0])
	if len(s.src) == 0 || p.Size(s.src[0]) != 1 || slices.ContainsFunc(s.src, func(u int) bool { return u != s.src[0] }) {
		return "", nil
	}
	line := s.lineOf(p, seed, text)
	if len(line) == 0 {
		return "", nil
	}
	s.ctx = ctx
	s.dp.setPotential(s.cfg.ReorderPot)
	defer func() {
		s.ctx = nil
		s.dp.setPotential(s.cfg.DPPotential)
	}()
	s.game.Reset(p, seed)
	s.out = s.out[:0]
	s.acState = 0
	s.spanPh = -1
	var rest []int32
	for i := 0; i < len(line); {
		j := i
		for j < len(line)-1 && !line[j].clears {
			j++
		}
		rest = rest[:0]
		for _, lp := range line[i : j+1] {
			rest = append(rest, lp.state)
		}
		for len(rest) > 0 {
			if ctx.Err() != nil || s.game.Over() {
				return "", nil
			}
			k, err := s.typeBest(rest)
			if err != nil {
				return "", err
			}
			rest = slices.Delete(rest, k, k+1)
		}
		i = j + 1
	}
	return string(s.out), nil
}

// reCand is a lock that typeBest weighs: its index in the stretch's locks
// left, the phrase search's text to it, the text's points and its value
// with a phrase left partly typed (at reorder_potential a character).
type reCand struct {
	k         int
	text      []byte
	pts, leaf float64
}

// reLevel is one unit of reorder's lookahead: its locks weighed, the locks
// left after the one played, and the game, automaton and phrases to come
// back to.
type reLevel struct {
	cands []reCand
	rest  []int32
	game  hextris.Game
	used  []bool
}

// typeBest types the live unit's text to the best of the locks in rest
// (the last one only when it is alone: it clears the stretch's lines) and
// plays it; it returns the lock's index in rest. rest is in the text's
// order, which stays playable from the current board: a lock other than
// rest[0] is taken only where the rest still play in that order after it,
// so a stretch never runs out of reachable locks. Where the phrase search
// finds no text, rest[0] is typed by the shortest path.
func (s *Solver) typeBest(rest []int32) (int, error) {
	n0 := len(s.out)
	if _, i := s.look(rest, 0, s.cfg.ReorderDepth); i >= 0 {
		c := &s.reLv[0].cands[i]
		s.out = append(s.out, c.text...)
		s.used = append(s.used[:0], s.pl.used...)
		s.play(n0)
		return c.k, nil
	}
	u, pos, _ := s.game.Live()
	from := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot))
	s.cur.loadGame(&s.game)
	lock, ok := findLock(s.rcs[0].searchTree(&s.cur, u, from), rest[0])
	if !ok {
		return 0, fmt.Errorf("hexsearch: internal error: unit %d cannot lock where the text locked it", s.game.SourceIndex())
	}
	if err := s.plainPath(lock); err != nil {
		return 0, err
	}
	s.used = append(s.used[:0], s.pl.used...)
	s.play(n0)
	return 0, nil
}

// look weighs the live unit's locks among rest, depth units deep, level
// units below the one being typed: a lock is worth its text's points and
// the most that the next units' texts earn after it, reorder_width of its
// locks (the best by their own text) weighed so; at the last level, or the
// stretch's last lock, a lock is worth its text and the phrase it leaves
// partly typed. It returns the best worth and the lock's index in
// s.reLv[level].cands, sorted by their own texts (-1: no lock has a text).
func (s *Solver) look(rest []int32, level, depth int) (float64, int) {
	for len(s.reLv) <= level {
		s.reLv = append(s.reLv, new(reLevel))
	}
	lv := s.reLv[level]
	lv.cands = s.candTexts(lv.cands[:0], rest, level == 0)
	if len(lv.cands) == 0 {
		return 0, -1
	}
	// Stable: among equals the text's own order goes first.
	slices.SortStableFunc(lv.cands, func(a, b reCand) int { return cmp.Compare(b.leaf, a.leaf) })
	if depth <= 1 || len(rest) == 1 {
		return lv.cands[0].leaf, 0
	}
	lv.game.CopyFrom(&s.game)
	a0, n0 := s.acState, len(s.out)
	lv.used = append(lv.used[:0], s.pl.used...)
	best, bi := math.Inf(-1), 0
	for i := range min(len(lv.cands), max(s.cfg.ReorderWidth, 1)) {
		c := &lv.cands[i]
		s.out = append(s.out[:n0], c.text...)
		s.used = append(s.used[:0], s.pl.used...)
		s.play(n0)
		v := c.pts
		if !s.game.Over() {
			lv.rest = append(append(lv.rest[:0], rest[:c.k]...), rest[c.k+1:]...)
			next, _ := s.look(lv.rest, level+1, depth-1)
			v += next
		}
		if v > best {
			best, bi = v, i
		}
		s.game.CopyFrom(&lv.game)
		s.acState = a0
		copy(s.pl.used, lv.used)
		s.out = s.out[:n0]
	}
	return best, bi
}

// candTexts appends to cs, for each lock of rest (the last one only when
// it is alone), the phrase search's text for the live unit to it, where it
// is a lock placement on the current board and the search finds one (and,
// with check, where the rest still play in their order after it). The
// texts reuse cs's buffers.
func (s *Solver) candTexts(cs []reCand, rest []int32, check bool) []reCand {
	u, pos, _ := s.game.Live()
	from := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot))
	s.cur.loadGame(&s.game)
	s.relocks = append(s.relocks[:0], s.rcs[0].searchTree(&s.cur, u, from)...)
	s.used = append(s.used[:0], s.pl.used...)
	for k, t := range rest {
		if k == len(rest)-1 && k > 0 {
			break
		}
		if !isLock(s.relocks, t) || check && k > 0 && !s.playsAfter(u, from, rest, k) {
			continue
		}
		s.pl.rc.toTarget(&s.cur, u, t)
		n := len(cs)
		if n < cap(cs) {
			cs = cs[:n+1]
		} else {
			cs = append(cs, reCand{})
		}
		c := &cs[n]
		text, _, ok := s.dp.solve(&s.cur, u, from, t, s.acState, s.used, c.text[:0])
		c.text = text
		if !ok || !s.replays(text) {
			cs = cs[:n]
			continue
		}
		pts, a := s.ac.score(s.acState, text, s.used, s.seen)
		c.k, c.pts, c.leaf = k, float64(pts), s.endValue(pts, a, s.cfg.ReorderPot)
	}
	return cs
}

// playsAfter reports whether, after unit u locks at rest[k] on the current
// board, the other locks of rest can still be played in their order, each
// reached from from and a lock placement when its turn comes.
func (s *Solver) playsAfter(u int, from int32, rest []int32, k int) bool {
	if s.reRc == nil {
		s.reRc = newReach(s.g)
		s.reBoard = newBoard(s.p.Width, s.p.Height)
	}
	b := &s.reBoard
	b.copyFrom(&s.cur)
	b.lock(s.g, u, rest[k])
	for i, t := range rest {
		if i == k {
			continue
		}
		if !isLock(s.reRc.searchTree(b, u, from), t) {
			return false
		}
		b.lock(s.g, u, t)
	}
	return true
}

// isLock reports whether state t is one of the lock placements locks.
func isLock(locks []lockAt, t int32) bool {
	_, ok := findLock(locks, t)
	return ok
}

// findLock returns the lock placement of locks at state t.
func findLock(locks []lockAt, t int32) (lockAt, bool) {
	for _, l := range locks {
		if l.State == t {
			return l, true
		}
	}
	return lockAt{}, false
}

// lineOf replays text and returns its locks in order (nil if the text
// does not replay without error).
func (s *Solver) lineOf(p *hextris.Problem, seed uint32, text string) []linePlace {
	g := &s.check
	g.Reset(p, seed)
	var line []linePlace
	for i := 0; i < len(text); i++ {
		c, ok, _ := hextris.DecodeChar(rune(text[i]))
		if !ok {
			continue
		}
		_, pos, live := g.Live()
		if !live {
			break
		}
		switch g.Step(c) {
		case hextris.StepLocked, hextris.StepEnded:
			line = append(line, linePlace{state: s.g.state(int(pos.X), int(pos.Y), int(pos.Rot)), clears: g.LastLines() > 0})
		case hextris.StepRepeated, hextris.StepOver:
			return nil
		}
	}
	return line
}
