// Package paperbasic holds the baseline bots of the paperio game
// (Paper.io, Mail.Ru AI Cups 2019): random, a seeded random walker, and
// simple, a "go out a few cells and come back home" loop. They are the
// reference opponents a stronger strategy must beat.
package paperbasic

import (
	"math/rand/v2"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// RandomParams are the parameters of the random bot.
var RandomParams = param.Specs{
	{Name: "turn_prob", Kind: param.Float, Min: 0, Max: 1, Default: 0.3,
		Help: "chance of picking a new random direction at a cell centre"},
}

// Random walks at random: at each cell centre, with probability turn_prob
// (or when going on is unsafe) it picks a random direction among those
// that neither reverse, leave the map nor cross its own trail, when there
// is one. It draws from its own seeded generator, never from the game's,
// and never mutates the state it is shown.
type Random struct {
	rng      *rand.Rand
	turnProb float64
}

var _ paperio.Bot = (*Random)(nil)

// seedSource derives the bot's generator from its seed.
func seedSource(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// NewRandom builds a random bot from parameter values (missing ones take
// their defaults; unknown or out-of-range ones are an error) and a seed.
func NewRandom(v param.Values, seed uint64) (*Random, error) {
	v, err := RandomParams.Validate(v)
	if err != nil {
		return nil, err
	}
	return &Random{rng: seedSource(seed), turnProb: RandomParams.Float(v, "turn_prob")}, nil
}

var allDirs = [4]paperio.Dir{paperio.Up, paperio.Down, paperio.Left, paperio.Right}

// safe reports whether player p can move one cell in direction d: not a
// reverse, stays on the map, does not enter its own trail.
func safe(p *paperio.Player, d paperio.Dir) bool {
	if !p.CanTurn(d) {
		return false
	}
	next, ok := p.Cell().Step(d)
	return ok && !p.TrailBits.Has(next)
}

// Command picks the direction of player id.
func (r *Random) Command(s *paperio.State, id int) paperio.Dir {
	p := s.Player(id)
	if p == nil {
		return paperio.DirNone
	}
	if p.Dir != paperio.DirNone && safe(p, p.Dir) && r.rng.Float64() >= r.turnProb {
		return p.Dir
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
	return opts[r.rng.IntN(n)]
}
