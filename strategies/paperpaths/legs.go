package paperpaths

import "gauntlet/referees/paperio"

// tryLegs calls try with every script of one or two straight legs from
// head: up to n cells in a direction the head may take, then, turning
// once, up to n cells more (samplePath walks a script and then a shortest
// way home). These are the long straight cuts that close an opponent's
// land against a wall or against its own land, which random walks turning
// at every cell with probability 1-forward seldom draw at full length.
// A leg ends at the map's edge, at the own trail, and where it comes back
// into the own land from outside (the loop closes there).
func (b *Bot) tryLegs(p *paperio.Player, head paperio.Cell, n int, try func([]paperio.Cell)) {
	for _, d := range dirs {
		if !p.CanTurn(d) {
			continue
		}
		b.script = b.script[:0]
		b.leg(p, head, d, n, len(p.Trail()) > 0, try, func(at paperio.Cell, out bool) {
			first := len(b.script)
			for _, turn := range perpendicular(d) {
				b.leg(p, at, turn, n, out, try, nil)
				b.script = b.script[:first]
			}
		})
	}
}

// leg extends b.script cell by cell from from in direction d, up to n
// cells, calling try with the script at each and then, when it is not nil,
// each with the cell reached and whether the script has left the own land.
func (b *Bot) leg(p *paperio.Player, from paperio.Cell, d paperio.Dir, n int, out bool, try func([]paperio.Cell), each func(at paperio.Cell, out bool)) {
	for range n {
		next, ok := from.Step(d)
		if !ok || p.TrailBits.Has(next) {
			return
		}
		b.script = append(b.script, next)
		from = next
		try(b.script)
		if p.Terr.Has(next) {
			if out {
				return // closed: a longer leg is the same loop
			}
		} else {
			out = true
		}
		if each != nil {
			each(from, out)
		}
	}
}

// perpendicular returns the two directions at right angles to d.
func perpendicular(d paperio.Dir) [2]paperio.Dir {
	if d == paperio.Up || d == paperio.Down {
		return [2]paperio.Dir{paperio.Left, paperio.Right}
	}
	return [2]paperio.Dir{paperio.Up, paperio.Down}
}
