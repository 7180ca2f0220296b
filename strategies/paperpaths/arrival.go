package paperpaths

import "gauntlet/referees/paperio"

// A search state of the arrival maps is a cell, the direction the player
// moves in when it stands there (it may not reverse it) and whether it has
// been home since now (its own trail no longer blocks it).
const (
	dirSlots  = 5 // paperio.DirNone .. paperio.Right
	numStates = paperio.NumCells * dirSlots * 2
	buckets   = 64 // ring of the bucket queue; larger than any cell's ticks
)

const unreached = int32(1 << 30)

func stateOf(c paperio.Cell, d paperio.Dir, home bool) int32 {
	s := (int32(c)*dirSlots + int32(d)) * 2
	if home {
		s++
	}
	return s
}

func cellOfState(s int32) paperio.Cell { return paperio.Cell(s / (2 * dirSlots)) }
func dirOfState(s int32) paperio.Dir   { return paperio.Dir(s / 2 % dirSlots) }

// speedStep moves a speed up (nitro) or down (slowdown) by one until it
// divides the cell width, as the referee applies and cancels bonuses.
func speedStep(s, d int) int {
	for {
		s += d
		if s <= 1 || s >= paperio.Width || paperio.Width%s == 0 {
			return max(s, 1)
		}
	}
}

// profile is what decides a player's speed on the coming cells: the cells
// left on its nitro and slowdown.
type profile struct{ nitro, slow int16 }

// ticks is the time to cross one cell with that profile at base speed.
func (pr profile) ticks(base int) int32 {
	s := base
	if pr.slow > 0 {
		s = speedStep(s, -1)
	}
	if pr.nitro > 0 {
		s = speedStep(s, +1)
	}
	return int32((paperio.Width + s - 1) / s)
}

// key indexes the four speed cases: nitro running, slowdown running.
func (pr profile) key() int {
	k := 0
	if pr.nitro > 0 {
		k = 2
	}
	if pr.slow > 0 {
		k++
	}
	return k
}

// arrive is the profile after reaching the next centre (the held bonuses
// count one more cell) and picking up a map bonus there.
func (pr profile) arrive(b bonusCell) profile {
	pr.nitro = max(pr.nitro-1, 0)
	pr.slow = max(pr.slow-1, 0)
	switch b.kind {
	case bonusNitro:
		pr.nitro += b.active
	case bonusSlow:
		pr.slow += b.active
	}
	return pr
}

// heldProfile reads a player's held bonuses.
func heldProfile(p *paperio.Player) profile {
	var pr profile
	for _, h := range p.Bonuses() {
		switch h.Kind {
		case paperio.Nitro:
			pr.nitro += int16(max(h.Remaining(), 0))
		case paperio.Slowdown:
			pr.slow += int16(max(h.Remaining(), 0))
		}
	}
	return pr
}

// bonusCell is the map bonus on a cell, if any.
type bonusCell struct {
	kind   uint8 // bonusNone, bonusNitro, bonusSlow, bonusSaw
	active int16
}

const (
	bonusNone uint8 = iota
	bonusNitro
	bonusSlow
	bonusSaw
)

// arrivals computes, for one player, the earliest tick (from now) at which
// it can stand on each state: Dijkstra over (cell, direction, been home)
// with a bucket queue, cells costing the ticks of the player's speed at
// that point (held bonuses running out cell by cell, map bonuses picked up
// on the way), no reversal, the own trail blocked until the player has
// been home (the referee clears a trail when its owner gets back).
type arrivals struct {
	t       [numStates]int32
	prof    [numStates]profile
	queue   [buckets][]int32
	pending int // queued entries, stale ones included
}

// run fills a.t for player o up to horizon ticks; it returns the earliest
// tick o can be home (0 when it has no trail, unreached when it cannot).
func (a *arrivals) run(o *paperio.Player, base int, bonus *[paperio.NumCells]bonusCell, horizon int32) int32 {
	for i := range a.t {
		a.t[i] = unreached
	}
	for i := range a.queue {
		a.queue[i] = a.queue[i][:0]
	}
	a.pending = 0
	homeAt := unreached
	if o.NLines == 0 {
		homeAt = 0
	}
	c := o.Cell()
	if c == paperio.NoCell {
		return homeAt
	}
	pr := heldProfile(o)
	var t0 int32
	home := o.NLines == 0
	if !o.AtCentre() {
		// Between centres: the next centre along its direction comes first.
		n, ok := c.Step(o.Dir)
		if !ok {
			return homeAt
		}
		moved := abs(o.X-c.X()) + abs(o.Y-c.Y())
		t0 = int32((paperio.Width - moved + o.Speed - 1) / max(o.Speed, 1))
		pr = pr.arrive(bonus[n])
		c = n
		if o.Terr.Has(c) {
			home = true
			homeAt = min(homeAt, t0)
		}
	}
	var tk [4]int32
	for k := range tk {
		tk[k] = profile{nitro: int16(k >> 1), slow: int16(k & 1)}.ticks(base)
	}
	a.push(stateOf(c, o.Dir, home), t0, pr)
	for cur := t0; cur <= horizon && a.pending > 0; cur++ {
		q := &a.queue[cur%buckets]
		for i := 0; i < len(*q); i++ {
			s := (*q)[i]
			a.pending--
			if a.t[s] != cur {
				continue // improved since it was queued
			}
			c, d, h := cellOfState(s), dirOfState(s), s&1 == 1
			pr := a.prof[s]
			nt := cur + tk[pr.key()]
			if nt > horizon {
				continue
			}
			for _, nd := range dirs {
				if d != paperio.DirNone && nd == d.Reverse() {
					continue
				}
				n, ok := c.Step(nd)
				if !ok || (!h && o.TrailBits.Has(n)) {
					continue
				}
				nh := h || o.Terr.Has(n)
				if nh && !h {
					homeAt = min(homeAt, nt)
				}
				a.push(stateOf(n, nd, nh), nt, pr.arrive(bonus[n]))
			}
		}
		*q = (*q)[:0]
	}
	return homeAt
}

func (a *arrivals) push(s, t int32, pr profile) {
	if t >= a.t[s] {
		return
	}
	a.t[s] = t
	a.prof[s] = pr
	a.queue[t%buckets] = append(a.queue[t%buckets], s)
	a.pending++
}

// minInto lowers m[c] to the earliest arrival on each cell.
func (a *arrivals) minInto(m *[paperio.NumCells]int32) {
	for c := range m {
		base := c * dirSlots * 2
		for k := base; k < base+dirSlots*2; k++ {
			if a.t[k] < m[c] {
				m[c] = a.t[k]
			}
		}
	}
}

// splitInto sets away[c] to the earliest arrival on each cell before the
// player has been home, and home[c] to the earliest after.
func (a *arrivals) splitInto(away, home *[paperio.NumCells]int32) {
	for c := range away {
		away[c], home[c] = unreached, unreached
		base := c * dirSlots * 2
		for k := base; k < base+dirSlots*2; k += 2 {
			away[c] = min(away[c], a.t[k])
			home[c] = min(home[c], a.t[k+1])
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
