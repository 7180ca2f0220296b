package paperio

// Commands holds the command of each player for one tick, by index id-1.
// DirNone means no (valid) command: the direction stays.
type Commands [MaxPlayers]Dir

// changeDirection applies a command as Player.change_direction: reverses
// and DirNone change nothing.
func (p *Player) changeDirection(d Dir) {
	if p.CanTurn(d) {
		p.Dir = d
	}
}

func (p *Player) move() {
	switch p.Dir {
	case Up:
		p.Y += p.Speed
	case Down:
		p.Y -= p.Speed
	case Left:
		p.X -= p.Speed
	case Right:
		p.X += p.Speed
	}
}

// removeSaws drops every saw from the held bonuses (step 5).
func (p *Player) removeSaws() {
	k := 0
	for _, h := range p.Held[:p.NHeld] {
		if h.Kind != Saw {
			p.Held[k] = h
			k++
		}
	}
	p.NHeld = k
}

// speedUp / speedDown change the speed by one until it divides the width.
func (p *Player) speedUp() {
	for p.Speed < Width {
		p.Speed++
		if Width%p.Speed == 0 {
			break
		}
	}
}

func (p *Player) speedDown() {
	for p.Speed > 1 {
		p.Speed--
		if Width%p.Speed == 0 {
			break
		}
	}
}

func (p *Player) cancel(k BonusKind) {
	switch k {
	case Nitro:
		p.speedDown()
	case Slowdown:
		p.speedUp()
	}
}

// tickAction counts one cell on every held bonus and drops the expired ones.
func (p *Player) tickAction() {
	k := 0
	for _, h := range p.Held[:p.NHeld] {
		h.Tick++
		if h.Tick >= h.Active {
			p.cancel(h.Kind)
			continue
		}
		p.Held[k] = h
		k++
	}
	p.NHeld = k
}

// apply gives the player a picked-up bonus (nitro and slowdown stack their
// durations on a held one of the same kind).
func (p *Player) apply(b MapBonus) {
	if b.Kind != Saw {
		for i := range p.Held[:p.NHeld] {
			if p.Held[i].Kind == b.Kind {
				p.Held[i].Active += b.Active
				return
			}
		}
	}
	if p.NHeld == len(p.Held) {
		return // cannot happen with BONUSES_MAX_COUNT <= MaxMapBonuses
	}
	h := Held{Kind: b.Kind, Active: b.Active}
	if b.Kind == Saw {
		h.Active = 0
	}
	p.Held[p.NHeld] = h
	p.NHeld++
	switch b.Kind {
	case Nitro:
		p.speedUp()
	case Slowdown:
		p.speedDown()
	}
}

// updateLines extends the trail at a cell centre (step 5).
func (p *Player) updateLines() {
	c, ok := CellOf(p.X, p.Y)
	if !ok {
		return // off the map: the player dies at the border this tick
	}
	if !p.Terr.Has(c) || p.NLines > 0 {
		p.Lines[p.NLines] = c
		p.NLines++
		p.TrailBits.Set(c)
	}
}

func (p *Player) clearLines() {
	p.NLines = 0
	p.TrailBits = Bits{}
}

// inLinesButLast reports whether cell c is in the trail except its last cell
// (Python: c in lines[:-1]).
func (p *Player) inLinesButLast(c Cell) bool {
	if !p.TrailBits.Has(c) {
		return false
	}
	if c != p.Lines[p.NLines-1] {
		return true
	}
	for _, x := range p.Lines[:p.NLines-1] {
		if x == c {
			return true
		}
	}
	return false
}

// tickScratch holds the per-tick sets, kept off the stack of Step.
type tickScratch struct {
	captured [MaxPlayers]Bits
	resolved [MaxPlayers]Bits
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// near is helpers.is_intersect: both offsets under one cell width.
func near(x1, y1, x2, y2 int) bool { return abs(x1-x2) < Width && abs(y1-y2) < Width }

// Step plays steps 2 to 11 of one tick (Game.game_loop): commands of the
// players at cell centres, moves, trails and captures, losses, contested
// captures, bonuses and saws, removals and scores. It neither spawns a bonus
// nor advances the tick counter (see EndTick, Advance and Game.PlayTick).
func (s *State) Step(cmds *Commands) {
	var ts tickScratch
	s.step(cmds, &ts)
}

func (s *State) step(cmds *Commands, ts *tickScratch) {
	n := s.N
	ps := &s.Players
	var centre, lost [MaxPlayers]bool
	var cause [MaxPlayers]Cause

	// 2. Commands at centres.
	for k := 0; k < n; k++ {
		p := &ps[k]
		if p.Alive && p.AtCentre() && cmds != nil {
			p.changeDirection(cmds[k])
		}
	}
	// 4. Moves.
	for k := 0; k < n; k++ {
		if ps[k].Alive {
			ps[k].move()
		}
	}
	// 5. Saws end, trails grow, captures.
	for k := 0; k < n; k++ {
		p := &ps[k]
		if !p.Alive {
			continue
		}
		p.removeSaws()
		ts.captured[k] = Bits{}
		if !p.AtCentre() {
			continue
		}
		centre[k] = true
		p.updateLines()
		if p.NLines > 1 && p.Terr.Has(p.Lines[p.NLines-1]) {
			ts.captured[k] = Capture(&p.Terr, p.Lines[:p.NLines])
			if c := ts.captured[k].Count(); c > 0 {
				p.clearLines()
				p.tickScore += s.Rules.NeutralTerritoryScore * c
			}
		}
	}
	// 6. Losses.
	for k := 0; k < n; k++ {
		p := &ps[k]
		if !p.Alive {
			continue
		}
		if p.X < Half || p.X > MapSize-Half || p.Y < Half || p.Y > MapSize-Half {
			cause[k] |= CauseBorder
		}
		if p.NLines > 0 {
			for q := 0; q < n; q++ {
				o := &ps[q]
				if !o.Alive {
					continue
				}
				if c, ok := CellOf(o.X, o.Y); ok && p.inLinesButLast(c) {
					cause[k] |= CauseLineCrossed
					if q != k {
						o.tickScore += s.Rules.LineKillScore
					}
				}
			}
		}
		for q := 0; q < n; q++ {
			o := &ps[q]
			if q == k || !o.Alive {
				continue
			}
			if near(p.X, p.Y, o.X, o.Y) && p.NLines >= o.NLines {
				cause[k] |= CauseFaced
			}
		}
		if p.Terr.Empty() {
			cause[k] |= CauseNoTerritory
		}
		lost[k] = cause[k] != 0
	}
	// 7. Contested captures: drop the captures of players who would be eaten,
	// then remove from each what the others capture.
	var inRes [MaxPlayers]bool
	for k := 0; k < n; k++ {
		if centre[k] && !s.eaten(k, &ts.captured, &centre) {
			inRes[k] = true
		}
	}
	for k := 0; k < n; k++ {
		if !inRes[k] {
			ts.resolved[k] = Bits{}
			continue
		}
		ts.resolved[k] = ts.captured[k]
		for q := 0; q < n; q++ {
			if q != k && inRes[q] {
				ts.resolved[k].AndNot(&ts.captured[q])
			}
		}
	}
	// 8. Eaten players.
	for k := 0; k < n; k++ {
		if ps[k].Alive && s.eaten(k, &ts.resolved, &inRes) {
			cause[k] |= CauseEaten
			lost[k] = true
		}
	}
	// 9. Bonuses, saws and captured cells, for players at centres.
	for k := 0; k < n; k++ {
		p := &ps[k]
		if !p.Alive || !centre[k] {
			continue
		}
		p.tickAction()
		pc, _ := CellOf(p.X, p.Y)
		for b := 0; b < s.NBonuses; {
			bon := s.Bonuses[b]
			if bon.Cell != pc && !ts.resolved[k].Has(bon.Cell) {
				b++
				continue
			}
			p.apply(bon)
			s.removeBonus(b)
			if bon.Kind == Saw {
				s.sawStrike(k, &cause, &lost)
			}
		}
		if inRes[k] && !ts.resolved[k].Empty() {
			c := &ts.resolved[k]
			p.Terr.Or(c)
			for q := 0; q < n; q++ {
				o := &ps[q]
				if q == k || !o.Alive {
					continue
				}
				removed := 0
				for j := range o.Terr {
					if w := o.Terr[j] & c[j]; w != 0 {
						removed += popcount(w)
						o.Terr[j] &^= w
					}
				}
				p.tickScore += (s.Rules.EnemyTerritoryScore - s.Rules.NeutralTerritoryScore) * removed
			}
		}
	}
	// 10–11. Removals, then the survivors bank the tick's points.
	for k := 0; k < n; k++ {
		p := &ps[k]
		if !p.Alive {
			continue
		}
		if lost[k] {
			p.Alive = false
			p.Death = cause[k]
			p.DeathTick = s.Tick
			p.tickScore = 0
			continue
		}
		p.Score += p.tickScore
		p.tickScore = 0
	}
}

// eaten is Player.is_ate against the capture sets of the players marked in
// in: the player's last centre (and, when it stands on it, the cell one width
// behind) inside another player's set.
func (s *State) eaten(k int, sets *[MaxPlayers]Bits, in *[MaxPlayers]bool) bool {
	p := &s.Players[k]
	if p.Dir == DirNone {
		return false
	}
	x, y := p.lastCentre()
	pos, ok := CellOf(x, y)
	if !ok {
		return false
	}
	moving := x != p.X || y != p.Y
	dx, dy := p.Dir.delta()
	prev, prevOK := CellOf(p.X-dx*Width, p.Y-dy*Width)
	for q := 0; q < s.N; q++ {
		if q == k || !in[q] {
			continue
		}
		if sets[q].Has(pos) && (moving || (prevOK && sets[q].Has(prev))) {
			return true
		}
	}
	return false
}

// sawStrike applies a saw just taken by player k: every other player near
// the line it cuts ahead dies, the others lose their territory beyond it.
func (s *State) sawStrike(k int, cause *[MaxPlayers]Cause, lost *[MaxPlayers]bool) {
	p := &s.Players[k]
	dx, dy := p.Dir.delta()
	dx, dy = dx*Width, dy*Width
	// The line: points one width apart ahead of the player, the last one off
	// the map.
	var line [Cols + Rows + 2][2]int
	nl := 0
	x, y := p.X, p.Y
	for x > 0 && x < MapSize && y > 0 && y < MapSize && nl < len(line) {
		x += dx
		y += dy
		line[nl] = [2]int{x, y}
		nl++
	}
	if nl == 0 {
		return
	}
	for q := 0; q < s.N; q++ {
		o := &s.Players[q]
		if q == k || !o.Alive {
			continue
		}
		hit := false
		for _, pt := range line[:nl] {
			if near(o.X, o.Y, pt[0], pt[1]) {
				hit = true
				break
			}
		}
		if hit {
			cause[q] |= CauseSaw
			lost[q] = true
			p.tickScore += s.Rules.SawKillScore
			continue
		}
		touches := false
		for _, pt := range line[:nl] {
			if c, ok := CellOf(pt[0], pt[1]); ok && o.Terr.Has(c) {
				touches = true
				break
			}
		}
		if !touches {
			continue
		}
		removed := 0
		if dx == 0 { // vertical line at x = L
			L := line[0][0]
			for i := 0; i < Cols; i++ {
				cx := i*Width + Half
				if (o.X < L && cx >= L) || (o.X >= L && cx <= L) {
					bit := uint32(1) << uint(i)
					for j := 0; j < Rows; j++ {
						if o.Terr[j]&bit != 0 {
							o.Terr[j] &^= bit
							removed++
						}
					}
				}
			}
		} else { // horizontal line at y = L
			L := line[0][1]
			for j := 0; j < Rows; j++ {
				cy := j*Width + Half
				if (o.Y < L && cy >= L) || (o.Y >= L && cy <= L) {
					removed += popcount(o.Terr[j])
					o.Terr[j] = 0
				}
			}
		}
		if removed > 0 {
			p.tickScore += s.Rules.SawScore
		}
	}
}
