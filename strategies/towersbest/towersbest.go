// Package towersbest is the best-first search of the Sarov towers robot
// write-up ("Сказ о том, как робот башни собирал"): positions are ranked by
// the moves made and the "weak" moves among them (moves that leave the
// moved run off its final support, such as a red 3 put on the red 5: it
// will have to move again), duplicate positions are merged (64-bit
// canonical keys: the order of the columns does not matter), every branch
// that cannot beat the best solution found so far is cut (branch and bound
// with the admissible count of blocks off their final support), and a run
// whose top block is a 0 or a 1 is glued onto its successor at once (the
// write-up's safe gluing rule: no landing place is lost).
//
// The rank of a position is w_moves·moves + w_weak·weak + w_left·left,
// lowest first, where left is the number of blocks off their final
// support. The write-up ranks by moves made against weak moves; the
// weights make that tunable. The search is deterministic: its budget
// counts expanded positions, ties go to the position generated first, and
// the queue and per-depth limits drop positions in rank order.
package towersbest

import (
	"context"
	"fmt"
	"slices"

	"gauntlet/referees/towers"
	"gauntlet/strategies/param"
)

// Params are the parameters of towersbest.
var Params = param.Specs{
	{Name: "nodes", Kind: param.Int, Min: 100, Max: 5000000, Default: 20000,
		Help: "search budget in expanded positions; the best solution found by then is played"},
	{Name: "queue", Kind: param.Int, Min: 100, Max: 5000000, Default: 100000,
		Help: "most positions waiting in the queue; beyond it the worse-ranked half is dropped"},
	{Name: "beam", Kind: param.Int, Min: 0, Max: 1000000, Default: 0,
		Help: "most positions expanded per number of moves made (0 = no limit)"},
	{Name: "w_moves", Kind: param.Float, Min: 0, Max: 3, Default: 1,
		Help: "rank weight of the moves made"},
	{Name: "w_weak", Kind: param.Float, Min: -2, Max: 3, Default: 0,
		Help: "rank weight of the weak moves made (moves that leave the run off its final support)"},
	{Name: "w_left", Kind: param.Float, Min: 0.5, Max: 5, Default: 2,
		Help: "rank weight of the blocks not yet on their final support"},
	{Name: "glue", Kind: param.Categorical, Choices: []string{"off", "on"}, Default: 1,
		Help: "play the safe gluing move (a run topped by a 0 or 1 onto its successor) at once, without branching"},
}

// Best is the best-first search bot.
type Best struct {
	nodes, queue, beam   int
	wMoves, wWeak, wLeft float64
	glue                 bool
	tree                 []entry
	open                 openList
	seen                 map[uint64]uint16
	perDepth             []int
	moves                []towers.Move
	fallback             towers.Solver
	Stats                Stats
}

// Stats describe the last search.
type Stats struct {
	Expanded  int  // positions expanded
	Solutions int  // improving solutions found
	Fallback  bool // no solution within the budget: the referee's quick search answered
}

var _ towers.Bot = (*Best)(nil)

type entry struct {
	st     towers.State
	parent int32
	g      uint16
	weak   uint16
	move   towers.Move
}

type item struct {
	rank float64
	seq  int32 // the entry's index: earlier generated first on equal ranks
}

func (x item) less(y item) bool { return x.rank < y.rank || x.rank == y.rank && x.seq < y.seq }

// openList is a binary min-heap of items (no boxing: the search loop
// allocates only when the heap grows).
type openList []item

func (q *openList) push(x item) {
	*q = append(*q, x)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *openList) pop() item {
	h := *q
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	*q = h
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h[l].less(h[m]) {
			m = l
		}
		if l+1 < n && h[l+1].less(h[m]) {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}

// New builds the bot from parameter values (missing ones take their
// defaults; unknown or out-of-range ones are an error). The search has no
// random choices: the seed is accepted for a uniform constructor.
func New(v param.Values, seed uint64) (*Best, error) {
	v, err := Params.Validate(v)
	if err != nil {
		return nil, err
	}
	_ = seed
	return &Best{
		nodes: int(v["nodes"]), queue: int(v["queue"]), beam: int(v["beam"]),
		wMoves: v["w_moves"], wWeak: v["w_weak"], wLeft: v["w_left"], glue: v["glue"] == 1,
		seen: map[uint64]uint16{},
	}, nil
}

func (b *Best) rank(e *entry) float64 {
	return b.wMoves*float64(e.g) + b.wWeak*float64(e.weak) + b.wLeft*float64(e.st.Left())
}

// Solve searches best-first from st within the node budget and returns the
// shortest solution it found.
func (b *Best) Solve(ctx context.Context, st towers.State) ([]towers.Move, error) {
	b.Stats = Stats{}
	if st.Solved() {
		return []towers.Move{}, nil
	}
	b.tree = append(b.tree[:0], entry{st: st, parent: -1})
	b.open = b.open[:0]
	clear(b.seen)
	b.perDepth = b.perDepth[:0]
	b.seen[st.Key()] = 0
	b.open.push(item{rank: b.rank(&b.tree[0]), seq: 0})
	best, bestLen := int32(-1), 1<<30
	for len(b.open) > 0 && b.Stats.Expanded < b.nodes {
		it := b.open.pop()
		e := b.tree[it.seq]
		if int(e.g)+e.st.Bound() >= bestLen {
			continue // cannot beat the best solution any more
		}
		if g, ok := b.seen[e.st.Key()]; ok && g < e.g {
			continue // reached since with fewer moves
		}
		if b.beam > 0 {
			for len(b.perDepth) <= int(e.g) {
				b.perDepth = append(b.perDepth, 0)
			}
			if b.perDepth[e.g] >= b.beam {
				continue
			}
			b.perDepth[e.g]++
		}
		if b.Stats.Expanded++; b.Stats.Expanded&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		b.moves = b.moves[:0]
		if m, ok := e.st.SafeGlue(); ok && b.glue {
			b.moves = append(b.moves, m)
		} else {
			b.moves = e.st.Moves(b.moves)
		}
		g := e.g + 1
		for _, m := range b.moves {
			child := e.st
			bottom := child.Apply(m)
			if int(g)+child.Bound() >= bestLen {
				continue
			}
			key := child.Key()
			if old, ok := b.seen[key]; ok && old <= g {
				continue
			}
			b.seen[key] = g
			weak := e.weak
			if !child.OnFinal(bottom) {
				weak++
			}
			b.tree = append(b.tree, entry{st: child, parent: it.seq, g: g, weak: weak, move: m})
			j := int32(len(b.tree) - 1)
			if child.Solved() {
				best, bestLen = j, int(g)
				b.Stats.Solutions++
				continue
			}
			b.open.push(item{rank: b.rank(&b.tree[j]), seq: j})
		}
		if len(b.open) > b.queue {
			b.trim()
		}
	}
	if best >= 0 {
		return b.path(best), nil
	}
	b.Stats.Fallback = true
	sol, err := b.fallback.Solve(ctx, st, towers.SolveOptions{Nodes: max(20*b.nodes, 200_000)})
	if err != nil {
		return nil, fmt.Errorf("towersbest: no solution in %d expanded positions, and the quick search: %w", b.Stats.Expanded, err)
	}
	if sol.Unsolvable {
		return nil, fmt.Errorf("towersbest: the position has no solution")
	}
	return sol.Moves, nil
}

// trim keeps the better-ranked half of the queue.
func (b *Best) trim() {
	slices.SortFunc(b.open, func(x, y item) int {
		switch {
		case x.less(y):
			return -1
		case y.less(x):
			return 1
		}
		return 0
	})
	b.open = b.open[:b.queue/2] // a sorted slice is a heap
}

func (b *Best) path(i int32) []towers.Move {
	var out []towers.Move
	for ; b.tree[i].parent >= 0; i = b.tree[i].parent {
		out = append(out, b.tree[i].move)
	}
	slices.Reverse(out)
	return out
}
