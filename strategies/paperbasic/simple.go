package paperbasic

import (
	"math/rand/v2"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// SimpleParams are the parameters of the simple bot.
var SimpleParams = param.Specs{
	{Name: "loop_len", Kind: param.Int, Min: 1, Max: 15, Default: 4,
		Help: "cells to go out of the territory before turning, and along the side before heading home"},
	{Name: "safety", Kind: param.Int, Min: 0, Max: 15, Default: 6,
		Help: "head home at once when an enemy comes within this many cells of the trail"},
}

// Simple draws loops: from its territory it goes out loop_len cells,
// turns, goes loop_len cells along, then takes the shortest way home that
// avoids its own trail; it heads home early when an enemy gets within
// safety cells of its trail. Ties are broken with its own seeded
// generator. It never mutates the state it is shown.
type Simple struct {
	rng     *rand.Rand
	loopLen int
	safety  int
	stamp   uint32
	seen    [paperio.NumCells]uint32 // == stamp: reached in this search
	first   [paperio.NumCells]paperio.Dir
	queue   [paperio.NumCells]paperio.Cell
}

var _ paperio.Bot = (*Simple)(nil)

// NewSimple builds a simple bot from parameter values (missing ones take
// their defaults; unknown or out-of-range ones are an error) and a seed.
func NewSimple(v param.Values, seed uint64) (*Simple, error) {
	v, err := SimpleParams.Validate(v)
	if err != nil {
		return nil, err
	}
	return &Simple{
		rng:     seedSource(seed),
		loopLen: SimpleParams.Int(v, "loop_len"),
		safety:  SimpleParams.Int(v, "safety"),
	}, nil
}

func absInt(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// room is the number of cells from c to the map edge in direction d.
func room(c paperio.Cell, d paperio.Dir) int {
	switch d {
	case paperio.Up:
		return paperio.Rows - 1 - c.J()
	case paperio.Down:
		return c.J()
	case paperio.Left:
		return c.I()
	case paperio.Right:
		return paperio.Cols - 1 - c.I()
	}
	return 0
}

// danger reports whether another live player is within safety cells
// (Manhattan) of the head or of a trail cell of p.
func (b *Simple) danger(s *paperio.State, p *paperio.Player) bool {
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == p.ID {
			continue
		}
		oi, oj := o.X/paperio.Width, o.Y/paperio.Width
		near := func(c paperio.Cell) bool { return absInt(c.I()-oi)+absInt(c.J()-oj) <= b.safety }
		if near(p.Cell()) {
			return true
		}
		for _, c := range p.Trail() {
			if near(c) {
				return true
			}
		}
	}
	return false
}

// homeDir is the first step of a shortest way from the head to the own
// territory avoiding the own trail (no reverse on the first step): a
// breadth-first search from the head that stops at the first own cell.
func (b *Simple) homeDir(p *paperio.Player) paperio.Dir {
	head := p.Cell()
	b.stamp++
	if b.stamp == 0 { // wrapped: clear the marks
		b.seen = [paperio.NumCells]uint32{}
		b.stamp = 1
	}
	qh, qt := 0, 0
	for _, d := range allDirs {
		if !safe(p, d) {
			continue
		}
		nc, _ := head.Step(d)
		if p.Terr.Has(nc) {
			return d
		}
		b.seen[nc] = b.stamp
		b.first[nc] = d
		b.queue[qt] = nc
		qt++
	}
	b.seen[head] = b.stamp
	for qh < qt {
		c := b.queue[qh]
		qh++
		for _, d := range allDirs {
			nc, ok := c.Step(d)
			if !ok || b.seen[nc] == b.stamp || p.TrailBits.Has(nc) {
				continue
			}
			if p.Terr.Has(nc) {
				return b.first[c]
			}
			b.seen[nc] = b.stamp
			b.first[nc] = b.first[c]
			b.queue[qt] = nc
			qt++
		}
	}
	return paperio.DirNone
}

// anySafe returns d when it is safe, else a random safe direction.
func (b *Simple) anySafe(p *paperio.Player, d paperio.Dir) paperio.Dir {
	if d != paperio.DirNone && safe(p, d) {
		return d
	}
	var opts [4]paperio.Dir
	n := 0
	for _, d := range allDirs {
		if safe(p, d) {
			opts[n] = d
			n++
		}
	}
	if n == 0 {
		return paperio.DirNone
	}
	return opts[b.rng.IntN(n)]
}

// Command picks the direction of player id.
func (b *Simple) Command(s *paperio.State, id int) paperio.Dir {
	p := s.Player(id)
	if p == nil || !p.Alive {
		return paperio.DirNone
	}
	head := p.Cell()
	n := p.NLines
	if n == 0 {
		// At home: leave towards the side with the most room, keeping the
		// direction when it still has room for a loop.
		if p.Dir != paperio.DirNone && safe(p, p.Dir) && room(head, p.Dir) > b.loopLen+1 {
			return p.Dir
		}
		best, bestRoom := paperio.DirNone, -1
		for _, d := range allDirs {
			if !safe(p, d) {
				continue
			}
			r := room(head, d)*4 + b.rng.IntN(4)
			if r > bestRoom {
				best, bestRoom = d, r
			}
		}
		return b.anySafe(p, best)
	}
	if n >= 2*b.loopLen || b.danger(s, p) {
		if d := b.homeDir(p); d != paperio.DirNone {
			return d
		}
		return b.anySafe(p, p.Dir)
	}
	if n == b.loopLen {
		// Turn to the perpendicular side with more room.
		var sides [2]paperio.Dir
		if p.Dir == paperio.Up || p.Dir == paperio.Down {
			sides = [2]paperio.Dir{paperio.Left, paperio.Right}
		} else {
			sides = [2]paperio.Dir{paperio.Up, paperio.Down}
		}
		d := sides[0]
		if room(head, sides[1]) > room(head, sides[0]) {
			d = sides[1]
		}
		return b.anySafe(p, d)
	}
	return b.anySafe(p, p.Dir)
}
