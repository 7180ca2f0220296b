package paperpaths

import "gauntlet/referees/paperio"

// tryLegs calls try with every script of one or two straight legs from head:
// up to n cells in a direction the head may take, then, turning once, up
// to n cells more (samplePath walks a script and then a shortest way
// home). These are the long straight cuts that close an opponent's land
// against a wall or against its own land, which random walks turning at
// every cell with probability 1-forward seldom draw at full length.
// A leg ends at the map's edge, at the own trail, and where it comes back
// into the own land from outside (the loop closes there).
func (b *Bot) tryLegs(p *paperio.Player, head paperio.Cell, n int, try func([]paperio.Cell)) {
	for _, d := range dirs {
		if !p.CanTurn(d) {
			continue
		}
		b.script = b.script[:0]
		cur, out := head, len(p.Trail()) > 0
		for range n {
			next, ok := cur.Step(d)
			if !ok || p.TrailBits.Has(next) {
				break
			}
			b.script = append(b.script, next)
			cur = next
			try(b.script)
			if p.Terr.Has(next) {
				if out {
					break // closed: a longer leg is the same loop
				}
			} else {
				out = true
			}
			first := len(b.script)
			for _, turn := range perpendicular(d) {
				at, away := cur, out
				for range n {
					nx, ok := at.Step(turn)
					if !ok || p.TrailBits.Has(nx) {
						break
					}
					b.script = append(b.script, nx)
					at = nx
					try(b.script)
					if p.Terr.Has(nx) {
						if away {
							break
						}
					} else {
						away = true
					}
				}
				b.script = b.script[:first]
			}
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
