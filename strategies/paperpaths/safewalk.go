package paperpaths

import "gauntlet/referees/paperio"

// safeStep picks the next cell of a safe walk from cur (moving in dir):
// straight on with probability forward, else a side turn first (the other
// side, then straight on, next), skipping cells off the map, on the own
// trail or the path, forbidden first moves, and cells after which the
// trail (when there is one, or the walk leaves the territory) could no
// longer be home before an opponent reaches it: the time at the cell plus
// the shortest way home at nitro speed, plus the margin, must not pass the
// earliest opponent arrival on the trail (nor the game's end, with
// end_close).
func (b *Bot) safeStep(p *paperio.Player, cur paperio.Cell, dir paperio.Dir, w *walker, base int, minArrive int32, hasTrail, firstMove bool) (paperio.Dir, paperio.Cell, bool) {
	var order [4]paperio.Dir
	n := 0
	if dir == paperio.DirNone {
		order = dirs
		for i := 3; i > 0; i-- {
			j := b.rng.IntN(i + 1)
			order[i], order[j] = order[j], order[i]
		}
		n = 4
	} else {
		l, r := sides(dir)
		if b.rng.IntN(2) == 0 {
			l, r = r, l
		}
		if b.rng.Float64() < b.forward {
			order[0], order[1], order[2] = dir, l, r
		} else {
			order[0], order[1], order[2] = l, r, dir
		}
		n = 3
	}
	tn := w.t + w.pr.ticks(base)
	for _, d := range order[:n] {
		if firstMove && (b.forbiddn[d] || !p.CanTurn(d)) {
			continue
		}
		c, ok := cur.Step(d)
		if !ok || p.TrailBits.Has(c) || b.onPath.Has(c) {
			continue
		}
		home := b.ours(p, c, tn)
		if !hasTrail && home {
			return d, c, true // walking inside the territory
		}
		lim := minArrive
		if !home {
			lim = min(lim, b.arrive[c])
		}
		if b.endClose {
			lim = min(lim, b.left)
		}
		if float64(tn+b.toHome[c]*b.tickMin)+b.margin > float64(lim) {
			continue
		}
		return d, c, true
	}
	return 0, 0, false
}
