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
	return b.first[way[len(way)-1]]
}
