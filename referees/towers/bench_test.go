package towers

import (
	"context"
	"testing"
)

// benchDeals solves the shuffles of seeds 1..n of a level optimally.
func benchDeals(b *testing.B, colours, n int) {
	var s Solver
	states := make([]State, n)
	for i := range states {
		st, _, err := Deal(context.Background(), &s, colours, uint64(i+1))
		if err != nil {
			b.Fatal(err)
		}
		states[i] = st
	}
	for _, st := range states { // grow the solver's buffers once
		if _, err := s.Solve(context.Background(), st, SolveOptions{Optimal: true}); err != nil {
			b.Fatal(err)
		}
	}
	nodes := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, st := range states {
			sol, err := s.Solve(context.Background(), st, SolveOptions{Optimal: true})
			if err != nil {
				b.Fatal(err)
			}
			nodes += sol.Nodes
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N*n), "ms/deal")
	b.ReportMetric(float64(nodes)/float64(b.N*n), "nodes/deal")
}

// BenchmarkSolveSarov proves the optimum of the deals of sarov:20 (8
// colours); the target is 0.2 s a deal on one core.
func BenchmarkSolveSarov(b *testing.B) { benchDeals(b, 8, 20) }

// BenchmarkSolveHanoi proves the optimum of the deals of hanoi:20 (6
// colours); the target is 20 ms a deal.
func BenchmarkSolveHanoi(b *testing.B) { benchDeals(b, 6, 20) }

// BenchmarkSolveAfrican proves the optimum of the deals of african:20.
func BenchmarkSolveAfrican(b *testing.B) { benchDeals(b, 4, 20) }

// BenchmarkMoves lists and plays every move of a dealt position.
func BenchmarkMoves(b *testing.B) {
	st := Shuffle(8, 1, 0)
	var buf []Move
	b.ReportAllocs()
	for b.Loop() {
		buf = st.Moves(buf[:0])
		for _, m := range buf {
			c := st
			c.Apply(m)
		}
	}
}
