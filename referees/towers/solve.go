package towers

import (
	"context"
	"fmt"
	"slices"
)

// DefaultNodes is the solver's default budget of stored positions (about
// 120 bytes each with the table of seen positions, so 1 GB at most). The
// optimal search of the hardest of the first 300 eight-colour deals stores
// 3.8 million; the mean is 160,000.
const DefaultNodes = 8_000_000

// SolveOptions choose the search.
type SolveOptions struct {
	// Optimal asks for a proved shortest solution (A* with the admissible
	// and consistent heuristic Bound). Otherwise the search is weighted
	// (g + Weight·Bound) and returns the first solution it finds, usually
	// longer, much sooner.
	Optimal bool
	// Weight is the weight of Bound in the quick search (0: 3).
	Weight int
	// Nodes is the budget of positions stored (0: DefaultNodes).
	Nodes int
}

// Solution is the answer of a search. Exactly one of Moves (a solution,
// possibly empty for a solved position) and Unsolvable holds.
type Solution struct {
	Moves []Move
	// Optimal is true when Moves is proved to be a shortest solution.
	Optimal bool
	// Unsolvable is true when the search went through every position
	// reachable from the start and none is solved.
	Unsolvable bool
	// Nodes is the number of distinct positions stored; Expanded the
	// number of positions whose moves were generated.
	Nodes    int
	Expanded int
}

// BudgetError is returned when a search stores its budget of positions
// without a verdict.
type BudgetError struct{ Nodes int }

func (e *BudgetError) Error() string {
	return fmt.Sprintf("towers: node budget exhausted: %d positions stored without a verdict (raise the budget)", e.Nodes)
}

type node struct {
	st     State
	parent int32
	g      uint16
	move   Move
}

// stale is the g of a node whose position was reached again with fewer
// moves (the new node replaces it in the table; it keeps its parent and
// move, so paths through it stay whole).
const stale = 0xFFFF

// Solver searches positions; it keeps its buffers between searches, so
// reuse one per goroutine. The zero value is ready to use.
type Solver struct {
	nodes   nodeStore
	seen    table
	buckets [][]int32 // by priority*(2*MaxBlocks+1) + bound
	moves   []Move
}

// Solve searches for a solution from st.
func (s *Solver) Solve(ctx context.Context, st State, opt SolveOptions) (Solution, error) {
	w := 1
	if !opt.Optimal {
		w = opt.Weight
		if w == 0 {
			w = 3
		}
	}
	budget := opt.Nodes
	if budget <= 0 {
		budget = DefaultNodes
	}
	if st.Solved() {
		return Solution{Moves: []Move{}, Optimal: true, Nodes: 1}, nil
	}
	s.nodes.reset()
	s.seen.reset()
	for i := range s.buckets {
		s.buckets[i] = s.buckets[i][:0]
	}
	cur := 0 // no bucket below cur holds a node
	push := func(i int32) {
		n := s.nodes.at(i)
		b := (int(n.g)+w*int(n.st.bound))*(2*MaxBlocks+1) + int(n.st.bound)
		for b >= len(s.buckets) {
			s.buckets = append(s.buckets, nil)
		}
		s.buckets[b] = append(s.buckets[b], i)
		cur = min(cur, b)
	}
	s.nodes.add(node{st: st, parent: -1})
	s.seen.put(st.key, 0)
	push(0)
	expanded := 0
	for {
		for cur < len(s.buckets) && len(s.buckets[cur]) == 0 {
			cur++
		}
		if cur == len(s.buckets) {
			return Solution{Unsolvable: true, Nodes: s.nodes.n}, nil
		}
		q := s.buckets[cur]
		i := q[len(q)-1]
		s.buckets[cur] = q[:len(q)-1]
		if s.nodes.at(i).g == stale {
			continue // reached again with fewer moves
		}
		if expanded++; expanded&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return Solution{Nodes: s.nodes.n}, err
			}
		}
		parent := *s.nodes.at(i)
		g := parent.g + 1
		s.moves = parent.st.Moves(s.moves[:0])
		for _, m := range s.moves {
			child := parent.st
			child.Apply(m)
			j, seen := s.seen.get(child.key)
			if seen {
				if s.nodes.at(j).g <= g {
					continue
				}
				s.nodes.at(j).g = stale
			}
			if s.nodes.n >= budget {
				return Solution{Nodes: s.nodes.n}, &BudgetError{Nodes: s.nodes.n}
			}
			j = s.nodes.add(node{st: child, parent: i, g: g, move: m})
			s.seen.put(child.key, j)
			if child.left == 0 {
				return Solution{Moves: s.path(j), Optimal: opt.Optimal, Nodes: s.nodes.n, Expanded: expanded}, nil
			}
			push(j)
		}
	}
}

// path returns the moves from the root to node i.
func (s *Solver) path(i int32) []Move {
	var out []Move
	for ; s.nodes.at(i).parent >= 0; i = s.nodes.at(i).parent {
		out = append(out, s.nodes.at(i).move)
	}
	slices.Reverse(out)
	return out
}

// Bot is what a towers strategy offers: a solution of a position. The
// harness replays it with the referee; its length is the score.
type Bot interface {
	// Solve returns the moves that solve st, or an error (no solution
	// found within the bot's budget, a cancelled context).
	Solve(ctx context.Context, st State) ([]Move, error)
}

// nodeStore holds a search's nodes in chunks of fixed size: growing it
// copies nothing and leaves no garbage (a search of millions of positions
// would otherwise hold an old and a new array at once), and the chunks are
// kept for the next search.
type nodeStore struct {
	chunks [][]node
	n      int
}

const chunkBits = 16

func (ns *nodeStore) reset() { ns.n = 0 }

func (ns *nodeStore) at(i int32) *node {
	return &ns.chunks[i>>chunkBits][i&(1<<chunkBits-1)]
}

// add appends x and returns its index.
func (ns *nodeStore) add(x node) int32 {
	c := ns.n >> chunkBits
	if c == len(ns.chunks) {
		ns.chunks = append(ns.chunks, make([]node, 1<<chunkBits))
	}
	ns.chunks[c][ns.n&(1<<chunkBits-1)] = x
	ns.n++
	return int32(ns.n - 1)
}
