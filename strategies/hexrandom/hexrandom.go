// Package hexrandom is the random legal player of hextris: it never makes
// an illegal or repeating move and plays until the game ends. It is the
// floor every hextris strategy must beat, and the harness's check that the
// game terminates from random legal play.
package hexrandom

import (
	"context"
	"math/rand/v2"

	"gauntlet/referees/hextris"
	"gauntlet/strategies/param"
)

// Params are the tunable parameters of the random player.
var Params = param.Specs{
	{Name: "down_prob", Kind: param.Float, Min: 0.05, Max: 1, Default: 0.5,
		Help: "chance of a SW/SE move (the others turn or slide sideways)"},
}

// Random plays uniformly among the legal commands of a class chosen with
// down_prob.
type Random struct {
	down float64
	rng  *rand.Rand
	g    hextris.Game
	buf  []byte
}

var _ hextris.Solver = (*Random)(nil)

// New builds a random player from validated values and a seed.
func New(v param.Values, seed uint64) (*Random, error) {
	v, err := Params.Validate(v)
	if err != nil {
		return nil, err
	}
	return &Random{down: v["down_prob"], rng: rand.New(rand.NewPCG(seed, 0x6865787261))}, nil
}

var (
	down = []hextris.Command{hextris.MoveSW, hextris.MoveSE}
	side = []hextris.Command{hextris.MoveW, hextris.MoveE, hextris.RotCW, hextris.RotCCW}
)

// Solve plays one game to its end.
func (r *Random) Solve(ctx context.Context, p *hextris.Problem, seed uint32, _ hextris.PhraseSet) (string, error) {
	r.g.Reset(p, seed)
	r.buf = r.buf[:0]
	for !r.g.Over() {
		if len(r.buf)&1023 == 0 && ctx.Err() != nil {
			return string(r.buf), ctx.Err()
		}
		var c hextris.Command
		if r.rng.Float64() < r.down {
			c = down[r.rng.IntN(2)]
		} else {
			c = side[r.rng.IntN(4)]
			unit, pos, _ := r.g.Live()
			if r.g.Visited(p.Next(unit, pos, c)) {
				c = down[r.rng.IntN(2)] // sideways would repeat a position
			}
		}
		if r.g.Step(c) == hextris.StepRepeated {
			continue
		}
		r.buf = append(r.buf, c.Char())
	}
	return string(r.buf), nil
}
