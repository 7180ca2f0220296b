package towers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// Level is a named number of colours.
type Level struct {
	Name    string
	Colours int
}

// Levels are gauntlet's presets, named after the site's: african 4
// colours, hanoi 6, sarov 8.
var Levels = []Level{{"african", 4}, {"hanoi", 6}, {"sarov", 8}}

// LevelByName returns the level called name.
func LevelByName(name string) (Level, error) {
	for _, l := range Levels {
		if l.Name == name {
			return l, nil
		}
	}
	return Level{}, fmt.Errorf("unknown towers level %q (want african, hanoi or sarov)", name)
}

// MaxRedeals bounds the deals tried for one seed.
const MaxRedeals = 100

// dealNodes is the budget of the solvability search of a deal.
const dealNodes = 2_000_000

// DealInfo says how a deal was made and how its solvability was
// established.
type DealInfo struct {
	// Redeals is the number of deals of the seed thrown away before this
	// one: proved unsolvable, or undecided within the search budget.
	Redeals int `json:"redeals"`
	// Unsolvable and Undecided count the thrown-away deals by reason.
	Unsolvable int `json:"unsolvable"`
	Undecided  int `json:"undecided"`
	// Solution is the length of the solution that proved the deal
	// solvable (the quick weighted search's: not the shortest).
	Solution int `json:"solution"`
	// Nodes is the number of positions that search stored.
	Nodes int `json:"nodes"`
}

// Shuffle deals colours×7 blocks uniformly from a generator seeded with
// (seed, attempt): colours columns of 7 blocks, two empty ones.
func Shuffle(colours int, seed, attempt uint64) State {
	rng := rand.New(rand.NewPCG(seed, 0x746f77657273^attempt))
	blocks := make([]Block, colours*Sizes)
	for i := range blocks {
		blocks[i] = Block(i)
	}
	rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	cols := make([][]Block, colours+2)
	for c := range colours {
		cols[c] = blocks[c*Sizes : (c+1)*Sizes]
	}
	return fromColumns(colours, cols)
}

// Deal returns the deal of seed with colours colours: the first of the
// shuffles of (seed, 0), (seed, 1), ... that the quick search solves (a
// deal it proves unsolvable, by going through every reachable position, or
// leaves undecided within its budget, is dealt again).
func Deal(ctx context.Context, s *Solver, colours int, seed uint64) (State, DealInfo, error) {
	if colours < MinColours || colours > MaxColours {
		return State{}, DealInfo{}, fmt.Errorf("towers deal: %d colours; want %d..%d", colours, MinColours, MaxColours)
	}
	var info DealInfo
	for attempt := range uint64(MaxRedeals) {
		st := Shuffle(colours, seed, attempt)
		sol, err := s.Solve(ctx, st, SolveOptions{Nodes: dealNodes})
		var be *BudgetError
		switch {
		case errors.As(err, &be):
			info.Undecided++
		case err != nil:
			return st, info, fmt.Errorf("towers deal of seed %d: %w", seed, err)
		case sol.Unsolvable:
			info.Unsolvable++
		default:
			info.Solution, info.Nodes = len(sol.Moves), sol.Nodes
			return st, info, nil
		}
		info.Redeals++
	}
	return State{}, info, fmt.Errorf("towers deal of seed %d with %d colours: no solvable deal in %d tries", seed, colours, MaxRedeals)
}
