// Package paperpaths is a Paper.io strategy after the safe-random-paths
// approach of the 2019 write-ups: at every cell centre it draws random
// loops that leave the territory and come back, keeps only the loops that
// close before any opponent could reach any cell of the trail (arrival-time
// maps per opponent, from a breadth-first search over the grid at each
// opponent's speed), and follows the loop with the best captured area per
// tick. The budget is a number of paths per decision, so games are
// reproducible given the seed.
package paperpaths

import (
	"math/rand/v2"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// Params are the tunable parameters of paperpaths.
var Params = param.Specs{
	{Name: "paths", Kind: param.Int, Min: 1, Max: 5000, Default: 120,
		Help: "random paths drawn per decision (the search budget)"},
	{Name: "max_len", Kind: param.Int, Min: 2, Max: 60, Default: 16,
		Help: "longest outward walk of a path, in cells, before heading home"},
	{Name: "forward", Kind: param.Float, Min: 0, Max: 1, Default: 0.7,
		Help: "probability that a path keeps its direction at each cell"},
	{Name: "margin", Kind: param.Float, Min: 0, Max: 60, Default: 2,
		Help: "safety margin in ticks between closing the loop and the earliest opponent arrival on the trail"},
	{Name: "w_neutral", Kind: param.Float, Min: 0, Max: 10, Default: 1,
		Help: "value of a captured neutral cell"},
	{Name: "w_enemy", Kind: param.Float, Min: 0, Max: 20, Default: 5,
		Help: "value of a captured enemy cell (the game pays 5 points)"},
	{Name: "time_bias", Kind: param.Float, Min: 0, Max: 100, Default: 30,
		Help: "ticks added to a loop's length when dividing its value by its time (favours longer, surer loops)"},
	{Name: "w_home", Kind: param.Float, Min: 0, Max: 5, Default: 0.5,
		Help: "value of the cells of the loop that stay inside the own territory (penalty-free waiting)"},
}

// Bot is a paperpaths player. It keeps its buffers between decisions and
// never mutates the state it is shown.
type Bot struct {
	rng                 *rand.Rand
	paths, maxLen       int
	forward, margin     float64
	wNeutral, wEnemy    float64
	timeBias, wHome     float64
	arrive              [paperio.NumCells]int32 // earliest opponent arrival in ticks
	dist                [paperio.NumCells]int32
	parent              [paperio.NumCells]paperio.Cell
	goal                paperio.Cell // the own cell homeDist reached
	queue               [paperio.NumCells]paperio.Cell
	lines, best, bufDir []paperio.Cell
	walk                []paperio.Dir
	bestDir             paperio.Dir
	onPath              paperio.Bits
}

var _ paperio.Bot = (*Bot)(nil)

// New builds a bot from validated parameter values and a seed.
func New(v param.Values, seed uint64) (*Bot, error) {
	v, err := Params.Validate(v)
	if err != nil {
		return nil, err
	}
	return &Bot{
		rng:      rand.New(rand.NewPCG(seed, 0x70617468)),
		paths:    Params.Int(v, "paths"),
		maxLen:   Params.Int(v, "max_len"),
		forward:  Params.Float(v, "forward"),
		margin:   Params.Float(v, "margin"),
		wNeutral: Params.Float(v, "w_neutral"),
		wEnemy:   Params.Float(v, "w_enemy"),
		timeBias: Params.Float(v, "time_bias"),
		wHome:    Params.Float(v, "w_home"),
		lines:    make([]paperio.Cell, 0, paperio.NumCells+1),
	}, nil
}

var dirs = [4]paperio.Dir{paperio.Up, paperio.Down, paperio.Left, paperio.Right}

func reverse(d paperio.Dir) paperio.Dir {
	switch d {
	case paperio.Up:
		return paperio.Down
	case paperio.Down:
		return paperio.Up
	case paperio.Left:
		return paperio.Right
	case paperio.Right:
		return paperio.Left
	}
	return paperio.DirNone
}

// ticksPerCell is how many ticks a player of that speed needs per cell.
func ticksPerCell(speed int) int32 {
	if speed <= 0 {
		return paperio.Width / 5
	}
	return int32((paperio.Width + speed - 1) / speed)
}

const unreached = int32(1 << 30)

// arrivalMap fills b.arrive with the earliest tick (from now) at which any
// live opponent can stand on each cell: a breadth-first search from each
// opponent's cell at its speed, one cell less to account for an opponent
// between two centres. Opponents' trails do not block them (they may cross
// anything but their own trail, which only makes the map earlier).
func (b *Bot) arrivalMap(s *paperio.State, me int) {
	for i := range b.arrive {
		b.arrive[i] = unreached
	}
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == me {
			continue
		}
		tpc := ticksPerCell(o.Speed)
		for i := range b.dist {
			b.dist[i] = -1
		}
		start := o.Cell()
		b.dist[start] = 0
		b.queue[0] = start
		qh, qt := 0, 1
		for qh < qt {
			c := b.queue[qh]
			qh++
			t := (b.dist[c] - 1) * tpc
			if t < 0 {
				t = 0
			}
			if t < b.arrive[c] {
				b.arrive[c] = t
			}
			for _, d := range dirs {
				n, ok := c.Step(d)
				if !ok || b.dist[n] >= 0 || o.TrailBits.Has(n) {
					continue
				}
				b.dist[n] = b.dist[c] + 1
				b.queue[qt] = n
				qt++
			}
		}
	}
}

// homeDist is the length of a shortest way from c to the own territory
// avoiding the trail and the path cells, without reversing first (first is
// the direction that led to c); -1 when there is none.
func (b *Bot) homeDist(p *paperio.Player, c paperio.Cell, first paperio.Dir) int32 {
	if p.Terr.Has(c) {
		b.goal = c
		return 0
	}
	for i := range b.dist {
		b.dist[i] = -1
	}
	b.dist[c] = 0
	qh, qt := 0, 0
	for _, d := range dirs {
		if d == reverse(first) {
			continue
		}
		n, ok := c.Step(d)
		if !ok || p.TrailBits.Has(n) || b.onPath.Has(n) {
			continue
		}
		if p.Terr.Has(n) {
			b.goal, b.parent[n] = n, c
			return 1
		}
		b.dist[n] = 1
		b.parent[n] = c
		b.queue[qt] = n
		qt++
	}
	for qh < qt {
		x := b.queue[qh]
		qh++
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || p.TrailBits.Has(n) || b.onPath.Has(n) {
				continue
			}
			if p.Terr.Has(n) {
				b.goal, b.parent[n] = n, x
				return b.dist[x] + 1
			}
			b.dist[n] = b.dist[x] + 1
			b.parent[n] = x
			b.queue[qt] = n
			qt++
		}
	}
	return -1
}

// homeStep is the first direction of a shortest safe way home, or
// DirNone.
func (b *Bot) homeStep(p *paperio.Player) paperio.Dir {
	best, bestD := paperio.DirNone, int32(unreached)
	head := p.Cell()
	b.onPath = paperio.Bits{}
	for _, d := range dirs {
		if !p.CanTurn(d) {
			continue
		}
		n, ok := head.Step(d)
		if !ok || p.TrailBits.Has(n) {
			continue
		}
		h := b.homeDist(p, n, d)
		if h >= 0 && h < bestD {
			best, bestD = d, h
		}
	}
	return best
}

// Command picks the direction of player id.
func (b *Bot) Command(s *paperio.State, id int) paperio.Dir {
	p := s.Player(id)
	if p == nil || !p.Alive {
		return paperio.DirNone
	}
	b.arrivalMap(s, id)
	var enemy paperio.Bits
	for k := 0; k < s.N; k++ {
		if o := &s.Players[k]; o.ID != id {
			enemy.Or(&o.Terr)
		}
	}
	tpc := ticksPerCell(p.Speed)
	head := p.Cell()
	trail := p.Trail()
	// The existing trail must stay safe until the loop closes.
	trailArrive := unreached
	for _, c := range trail {
		if b.arrive[c] < trailArrive {
			trailArrive = b.arrive[c]
		}
	}
	bestScore, bestDir := -1.0, paperio.DirNone
	for k := 0; k < b.paths; k++ {
		d0, score, ok := b.samplePath(p, head, trail, trailArrive, tpc, &enemy)
		if ok && score > bestScore {
			bestScore, bestDir = score, d0
		}
	}
	if bestDir != paperio.DirNone {
		return bestDir
	}
	if len(trail) > 0 {
		if d := b.homeStep(p); d != paperio.DirNone {
			return d
		}
	}
	for _, d := range dirs { // anything legal
		if n, ok := head.Step(d); ok && p.CanTurn(d) && !p.TrailBits.Has(n) {
			return d
		}
	}
	return p.Dir
}

// samplePath draws one random loop from the head and scores it; ok is
// false for an unsafe or impossible loop.
func (b *Bot) samplePath(p *paperio.Player, head paperio.Cell, trail []paperio.Cell, trailArrive, tpc int32, enemy *paperio.Bits) (paperio.Dir, float64, bool) {
	b.onPath = paperio.Bits{}
	b.lines = append(b.lines[:0], trail...)
	cur, dir := head, p.Dir
	first := paperio.DirNone
	outLen := 1 + b.rng.IntN(b.maxLen)
	steps := int32(0)
	inside := 0
	minArrive := trailArrive
	closed := false
	for i := 0; i < outLen; i++ {
		d := dir
		if d == paperio.DirNone || b.rng.Float64() >= b.forward {
			d = dirs[b.rng.IntN(4)]
		}
		if d == reverse(dir) && dir != paperio.DirNone {
			d = dir
		}
		n, ok := cur.Step(d)
		if !ok || p.TrailBits.Has(n) || b.onPath.Has(n) {
			// Try the other turns once before giving up on the walk.
			found := false
			for _, alt := range dirs {
				if alt == reverse(dir) && dir != paperio.DirNone {
					continue
				}
				if m, ok2 := cur.Step(alt); ok2 && !p.TrailBits.Has(m) && !b.onPath.Has(m) {
					d, n, found = alt, m, true
					break
				}
			}
			if !found {
				return 0, 0, false
			}
		}
		if first == paperio.DirNone {
			if !p.CanTurn(d) {
				return 0, 0, false
			}
			first = d
		}
		steps++
		cur, dir = n, d
		if p.Terr.Has(n) {
			if len(b.lines) > 0 {
				b.lines = append(b.lines, n)
				closed = true
				break
			}
			inside++
			continue
		}
		b.onPath.Set(n)
		b.lines = append(b.lines, n)
		if b.arrive[n] < minArrive {
			minArrive = b.arrive[n]
		}
	}
	if first == paperio.DirNone {
		return 0, 0, false
	}
	if !closed && len(b.lines) > 0 {
		h := b.homeDist(p, cur, dir)
		if h < 0 {
			return 0, 0, false
		}
		steps += h
		// Append the way home (goal back to cur, reversed) to the loop.
		n0 := len(b.lines)
		for x := b.goal; x != cur; x = b.parent[x] {
			b.lines = append(b.lines, x)
			if !p.Terr.Has(x) && b.arrive[x] < minArrive {
				minArrive = b.arrive[x]
			}
		}
		for i, j := n0, len(b.lines)-1; i < j; i, j = i+1, j-1 {
			b.lines[i], b.lines[j] = b.lines[j], b.lines[i]
		}
	}
	total := steps * tpc
	if len(b.lines) > 0 && float64(minArrive) <= float64(total)+b.margin {
		return 0, 0, false
	}
	var value float64
	if len(b.lines) >= 2 {
		got := paperio.Capture(&p.Terr, b.lines)
		enemyGot := got
		for j := range enemyGot {
			enemyGot[j] &= enemy[j]
		}
		ne := got.Count() - enemyGot.Count()
		value = b.wNeutral*float64(ne) + b.wEnemy*float64(enemyGot.Count())
	}
	value += b.wHome * float64(inside) / float64(b.maxLen)
	return first, value / (float64(total) + b.timeBias), true
}
