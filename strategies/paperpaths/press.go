package paperpaths

import "gauntlet/referees/paperio"

// pressStep is the first allowed move of a shortest way through the own
// land to a cell of an opponent's trail of at least press cells (press),
// for a player with no trail out; DirNone when there is none. Walking its
// own land a player has no trail: a head-on meeting there kills the longer
// trail, so the way is safe, and an opponent whose trail it nears must
// close its loop early or be cut.
func (b *Bot) pressStep(s *paperio.State, p *paperio.Player) paperio.Dir {
	long := func(c paperio.Cell) bool {
		o := b.owner[c]
		return o > 0 && s.Players[o-1].NLines >= b.press
	}
	way := b.search(p, func(c paperio.Cell) bool { return p.Terr.Has(c) || long(c) }, long)
	if len(way) == 0 || !long(way[len(way)-1]) {
		return paperio.DirNone
	}
	end := way[len(way)-1]
	if b.eatGuard {
		// The trail pressed may be closing round the own land the way
		// crosses: a head there when it closes is eaten, unless the way
		// cuts that trail first.
		tick := heldProfile(p).ticks(s.Rules.Speed)
		k := b.owner[end] - 1
		var cut uint8
		if b.dist[end]*tick < b.homeAt[k] {
			cut = 1 << k
		}
		for x := b.parent[end]; ; x = b.parent[x] {
			d := b.dist[x]
			if b.eaten(x, d*tick, (d+1)*tick, cut) {
				return paperio.DirNone
			}
			if d == 0 {
				break
			}
		}
	}
	return b.first[end]
}
