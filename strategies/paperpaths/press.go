package paperpaths

import "gauntlet/referees/paperio"

// pressStep is the first allowed move of a shortest way through the own
// land to a cell of an opponent's trail of at least n cells (press), for a
// player with no trail out; DirNone when there is none. Walking its own
// land a player has no trail: a head-on meeting there kills the longer
// trail, so the way is safe, and an opponent whose trail it nears must
// close its loop early or be cut.
func (b *Bot) pressStep(s *paperio.State, p *paperio.Player, n int) paperio.Dir {
	long := func(c paperio.Cell) bool {
		o := b.owner[c]
		return o > 0 && s.Players[o-1].NLines >= n
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

// raided reports whether an opponent's trail of at least defend cells runs
// through p's land (defend): most of the largest raids of a public contest
// bot begin while our trail is out, far from where we could press them.
func (b *Bot) raided(s *paperio.State, p *paperio.Player) bool {
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if o.ID != p.ID && o.Alive && o.NLines >= b.defend && o.TrailBits.Intersects(&p.Terr) {
			return true
		}
	}
	return false
}

// threatened is the number of own cells the opponents out can take by
// closing their loops by a shortest way home now (territoryLife).
func (b *Bot) threatened() int {
	n := 0
	for _, end := range b.terrEnd {
		if end < unreached {
			n++
		}
	}
	return n
}
