// Package towersgreedy is the baseline of the Sarov towers: a greedy
// depth-first search. From each position it tries the moves in greedy order
// (a move that puts the run on its final support first, then the one that
// leaves the fewest blocks off their final support), never enters a
// position it has seen, and backs up when a position has no new move. The
// path it ends on is its solution: found fast, usually far from the
// shortest. It is deterministic (no random choices).
package towersgreedy

import (
	"context"
	"fmt"
	"slices"

	"gauntlet/referees/towers"
	"gauntlet/strategies/param"
)

// Params are the parameters of towersgreedy.
var Params = param.Specs{
	{Name: "nodes", Kind: param.Int, Min: 100, Max: 10000000, Default: 1000000,
		Help: "search budget in positions visited; none solved by then is an error"},
	{Name: "glue", Kind: param.Categorical, Choices: []string{"off", "on"}, Default: 1,
		Help: "play the safe gluing move (a run topped by a 0 or 1 onto its successor) first"},
}

// Greedy is the greedy depth-first bot.
type Greedy struct {
	nodes int
	glue  bool
	seen  map[uint64]struct{}
	stack []frame
}

var _ towers.Bot = (*Greedy)(nil)

type frame struct {
	st    towers.State
	moves []towers.Move // still to try, best last
	move  towers.Move   // the move that led here
}

// New builds the bot from parameter values (missing ones take their
// defaults; unknown or out-of-range ones are an error).
func New(v param.Values, seed uint64) (*Greedy, error) {
	v, err := Params.Validate(v)
	if err != nil {
		return nil, err
	}
	_ = seed
	return &Greedy{nodes: int(v["nodes"]), glue: v["glue"] == 1, seen: map[uint64]struct{}{}}, nil
}

// order lists st's moves to try, the best last.
func (g *Greedy) order(st *towers.State, into []towers.Move) []towers.Move {
	into = into[:0]
	if m, ok := st.SafeGlue(); ok && g.glue {
		into = append(into, m)
	}
	into = st.Moves(into)
	score := func(m towers.Move) int {
		c := *st
		b := c.Apply(m)
		s := 4 * c.Left()
		if !c.OnFinal(b) {
			s += 2
		}
		return s
	}
	// Stable: among equal scores the earlier listed move stays earlier
	// and so is tried later; reverse for "best last".
	slices.SortStableFunc(into, func(a, b towers.Move) int { return score(a) - score(b) })
	slices.Reverse(into)
	return into
}

// Solve searches depth-first in greedy order until a solved position.
func (g *Greedy) Solve(ctx context.Context, st towers.State) ([]towers.Move, error) {
	clear(g.seen)
	g.seen[st.Key()] = struct{}{}
	g.stack = g.stack[:0]
	g.push(st, towers.Move{})
	visited := 1
	for len(g.stack) > 0 {
		top := &g.stack[len(g.stack)-1]
		if top.st.Solved() {
			out := make([]towers.Move, 0, len(g.stack)-1)
			for _, f := range g.stack[1:] {
				out = append(out, f.move)
			}
			return out, nil
		}
		if len(top.moves) == 0 {
			g.stack = g.stack[:len(g.stack)-1]
			continue
		}
		m := top.moves[len(top.moves)-1]
		top.moves = top.moves[:len(top.moves)-1]
		child := top.st
		child.Apply(m)
		if _, ok := g.seen[child.Key()]; ok {
			continue
		}
		g.seen[child.Key()] = struct{}{}
		if visited++; visited > g.nodes {
			return nil, fmt.Errorf("towersgreedy: no solution in %d positions", g.nodes)
		}
		if visited&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		g.push(child, m)
	}
	return nil, fmt.Errorf("towersgreedy: the position has no solution")
}

// push puts a frame for st on the stack, reusing the move buffer of a
// frame popped before.
func (g *Greedy) push(st towers.State, m towers.Move) {
	var buf []towers.Move
	if n := len(g.stack); n < cap(g.stack) {
		buf = g.stack[:n+1][n].moves
	}
	g.stack = append(g.stack, frame{st: st, move: m})
	f := &g.stack[len(g.stack)-1]
	f.moves = g.order(&f.st, buf)
}
