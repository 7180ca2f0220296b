package paperpaths

import "gauntlet/referees/paperio"

// maxSimTicks bounds one simulated stretch between decisions (a cell at the
// slowest speed takes 10 ticks at the official constants).
const maxSimTicks = 4 * paperio.Width

// forbid marks the first moves that some nearby opponent can punish with
// our death: for each opponent within reach, a game tree played on copies
// of the state with the referee's own tick (State.Advance), where we choose
// at each of our next depth centres (one surviving choice is enough) and
// the opponent chooses at each of its centres after seeing ours (every
// reply must be survived); the other players keep their directions. It
// returns how many moves it forbade.
func (b *Bot) forbid(s *paperio.State, me int, forbidden *[dirSlots]bool) int {
	*forbidden = [dirSlots]bool{}
	if b.depth == 0 {
		return 0
	}
	p := s.Player(me)
	head := p.Cell()
	n := 0
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == me {
			continue
		}
		oc := o.Cell()
		if oc == paperio.NoCell {
			continue
		}
		if reach := 2*b.depth + 2; cellDist(oc, head) > reach && !sawInReach(s, o, reach) {
			continue
		}
		for _, m := range dirs {
			if forbidden[m] || !legalMove(p, m) {
				continue
			}
			if !b.replies(0, s, me, o.ID, m, o.AtCentre(), b.depth-1) {
				forbidden[m] = true
				n++
			}
		}
	}
	return n
}

// sawInReach reports whether opponent o may take a saw within r cells: one
// lying within r cells of its head, or, when it is out with a trail and its
// territory lies within r cells, any saw on the map, for a capture takes
// every bonus it encloses and the saw then strikes from where the loop
// closed, along the row or column ahead, whatever the distance to us.
func sawInReach(s *paperio.State, o *paperio.Player, r int) bool {
	oc := o.Cell()
	saw := false
	for _, mb := range s.MapBonuses() {
		if mb.Kind != paperio.Saw {
			continue
		}
		if cellDist(mb.Cell, oc) <= r {
			return true
		}
		saw = true
	}
	if !saw || o.NLines == 0 {
		return false
	}
	for di := -r; di <= r; di++ {
		for dj := abs(di) - r; dj <= r-abs(di); dj++ {
			i, j := oc.I()+di, oc.J()+dj
			if i >= 0 && i < paperio.Cols && j >= 0 && j < paperio.Rows && o.Terr.Has(paperio.CellAt(i, j)) {
				return true
			}
		}
	}
	return false
}

// cellDist is the number of cells between a and b along rows and columns.
func cellDist(a, b paperio.Cell) int { return abs(a.I()-b.I()) + abs(a.J()-b.J()) }

// legalMove reports whether d is a new direction the referee accepts that
// does not leave the map or run into the own trail at once.
func legalMove(p *paperio.Player, d paperio.Dir) bool {
	if !p.CanTurn(d) {
		return false
	}
	n, ok := p.Cell().Step(d)
	return ok && !p.TrailBits.Has(n)
}

// scratch returns the simulation state of a tree level.
func (b *Bot) scratch(level int) *paperio.State {
	for len(b.sim) <= level {
		b.sim = append(b.sim, new(paperio.State))
	}
	return b.sim[level]
}

// replies reports whether we survive every answer of opponent opp to our
// command mine (given this tick; DirNone keeps the direction). oppAsked is
// whether the opponent chooses at this tick too.
func (b *Bot) replies(level int, st *paperio.State, me, opp int, mine paperio.Dir, oppAsked bool, movesLeft int) bool {
	if !oppAsked {
		sim := b.scratch(level)
		*sim = *st
		return b.playOn(level, sim, me, opp, mine, paperio.DirNone, movesLeft)
	}
	o := st.Player(opp)
	for _, d := range dirs {
		if !o.CanTurn(d) {
			continue
		}
		if _, ok := o.Cell().Step(d); !ok {
			continue
		}
		sim := b.scratch(level)
		*sim = *st
		if !b.playOn(level, sim, me, opp, mine, d, movesLeft) {
			return false
		}
	}
	return true
}

// playOn plays ticks on sim (owned by this level) from the given commands
// until the next decision, and decides it recursively.
func (b *Bot) playOn(level int, sim *paperio.State, me, opp int, mine, theirs paperio.Dir, movesLeft int) bool {
	for range maxSimTicks {
		var cmds paperio.Commands
		cmds[me-1], cmds[opp-1] = mine, theirs
		sim.Advance(&cmds)
		mine, theirs = paperio.DirNone, paperio.DirNone
		pm := sim.Player(me)
		if !pm.Alive {
			return false
		}
		if sim.Over() {
			return true
		}
		if pm.Terr.Empty() {
			// A saw struck our last land: the referee counts the loss at
			// the next tick's losses, whatever we do.
			return false
		}
		po := sim.Player(opp)
		oppAsked := po.Alive && po.AtCentre()
		if pm.AtCentre() {
			if movesLeft == 0 {
				return true
			}
			for _, d := range dirs {
				if legalMove(pm, d) && b.replies(level+1, sim, me, opp, d, oppAsked, movesLeft-1) {
					return true
				}
			}
			return false
		}
		if oppAsked {
			return b.replies(level+1, sim, me, opp, paperio.DirNone, true, movesLeft)
		}
	}
	return true
}
