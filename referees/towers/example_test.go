package towers_test

import (
	"context"
	"fmt"

	"gauntlet/referees/towers"
)

// Solve a small layout optimally and replay the solution.
func Example() {
	layout := towers.Layout{"a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""}
	st, err := towers.Parse(layout)
	if err != nil {
		fmt.Println(err)
		return
	}
	var s towers.Solver
	sol, err := s.Solve(context.Background(), st, towers.SolveOptions{Optimal: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := towers.ReplayMoves(layout, sol.Moves)
	fmt.Println(len(sol.Moves), sol.Optimal, r.Solved, r.Columns)
	// Output: 4 true true [ b6 b5 b4 b3 b2 b1 b0 a6 a5 a4 a3 a2 a1 a0 ]
}
