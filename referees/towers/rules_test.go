package towers

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParseAndPrint(t *testing.T) {
	l := Layout{"a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""}
	st, err := Parse(l)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Layout(); !slices.Equal(got, l) {
		t.Fatalf("printed %q, parsed %q", got, l)
	}
	if st.Colours() != 2 || st.Columns() != 4 {
		t.Fatalf("%d colours, %d columns", st.Colours(), st.Columns())
	}
	// a1's final support a2 is in another column: 1; b0's is b1: 1; a0's
	// is a1, under it in its own column: it must leave and come back, 2.
	if st.Bound() != 4 {
		t.Fatalf("bound %d, want 4", st.Bound())
	}
	// a1 and b0 and a0 are off their final support; b1 on b2 ... b6 on the
	// floor, a2..a6 too.
	if st.Left() != 3 {
		t.Fatalf("left %d, want 3", st.Left())
	}
	for _, bad := range []struct {
		l    Layout
		want string
	}{
		{Layout{"a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2"}, "3 columns"},
		{Layout{"a1 b0 a0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""}, "twice"},
		{Layout{"a1 b0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""}, "lacks block a0"},
		{Layout{"a1 b0 a0 a7", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""}, "a7"},
		{Layout{"a1 b0 a0 z3", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""}, "z3"},
		{Layout{"a1 a0", "a6 a5 a4 a3 a2", "", ""}, "1 colours"},
		{Layout{}, "colours"},
	} {
		if _, err := Parse(bad.l); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Parse(%q): %v; want an error saying %q", bad.l, err, bad.want)
		}
	}
}

// TestMovesTakeWholeRuns checks the run rule and the legality of moves on
// a hand-made position.
func TestMovesTakeWholeRuns(t *testing.T) {
	st, err := Parse(Layout{"a6 b2 a3 a2 a1", "b6 b5 b4 b3", "a5 a4 b1 b0 a0", ""})
	if err != nil {
		t.Fatal(err)
	}
	if b, top, _ := st.Run(0); b.String() != "a3" || top.String() != "a1" {
		t.Fatalf("run of column 0: %s..%s, want a3..a1", b, top)
	}
	if b, _, _ := st.Run(2); b.String() != "a0" {
		t.Fatalf("run of column 2 starts at %s, want a0 (b0 under it is another colour)", b)
	}
	if err := st.Legal(Move{0, 2}); err == nil {
		t.Error("a3..a1 onto a0 is legal")
	}
	if err := st.Legal(Move{2, 0}); err != nil {
		t.Errorf("a0 onto a1: %v", err)
	}
	if err := st.Legal(Move{3, 0}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("from an empty column: %v", err)
	}
	moved := st
	if b := moved.Apply(Move{0, 3}); b.String() != "a3" {
		t.Fatalf("moved run's bottom %s", b)
	}
	if got := moved.Layout(); got[0] != "a6 b2" || got[3] != "a3 a2 a1" {
		t.Fatalf("after [0,3]: %q", got)
	}
	// Columns are interchangeable: the key ignores their order.
	swapped, err := Parse(Layout{"b6 b5 b4 b3", "", "a5 a4 b1 b0 a0", "a6 b2 a3 a2 a1"})
	if err != nil {
		t.Fatal(err)
	}
	if swapped.Key() != st.Key() {
		t.Error("the same position with its columns in another order has another key")
	}
	if moved.Key() == st.Key() {
		t.Error("a move left the key unchanged")
	}
	if m, ok := st.SafeGlue(); !ok || m != (Move{2, 0}) {
		t.Errorf("safe glue: %v %v, want a0 onto a1", m, ok)
	}
}

// TestRandomPlay plays random legal moves from deals and checks the
// incremental key and count against a fresh parse of the printed layout,
// and that the listed moves are exactly the legal ones (up to the
// duplicates Moves leaves out).
func TestRandomPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []Move
	games, plies := 30, 300
	if testing.Short() {
		games, plies = 14, 100
	}
	for game := range games {
		st := Shuffle(2+game%7, uint64(game), 0)
		for range plies {
			buf = st.Moves(buf[:0])
			for _, m := range buf {
				if err := st.Legal(m); err != nil {
					t.Fatalf("listed move %v: %v", m, err)
				}
			}
			legal := 0
			for f := range st.Columns() {
				for to := range st.Columns() {
					if st.Legal(Move{uint8(f), uint8(to)}) == nil {
						legal++
					}
				}
			}
			// Moves leaves out moves of a whole column to an empty one
			// (the same position) and all but one empty target.
			if legal < len(buf) {
				t.Fatalf("%d moves listed, %d legal", len(buf), legal)
			}
			if len(buf) == 0 {
				break
			}
			before := st.Bound()
			st.Apply(buf[rng.IntN(len(buf))])
			again, err := Parse(st.Layout())
			if err != nil {
				t.Fatal(err)
			}
			if again.Key() != st.Key() || again.Left() != st.Left() || again.Bound() != st.Bound() {
				t.Fatalf("incremental key/left/bound %x/%d/%d, recomputed %x/%d/%d", st.Key(), st.Left(), st.Bound(), again.Key(), again.Left(), again.Bound())
			}
			// Consistent: one move lowers the bound by one at most.
			if st.Bound() < before-1 || st.Bound() < st.Left() || st.Bound() > 2*st.Left() {
				t.Fatalf("bound %d after %d (left %d)", st.Bound(), before, st.Left())
			}
		}
	}
}

// TestDealIsSeededAndSolvable: the same seed gives the same deal, another
// seed another one, and every deal comes with its proved optimum.
func TestDealIsSeededAndSolvable(t *testing.T) {
	var s Solver
	a, ia, err := Deal(context.Background(), &s, 6, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Deal(context.Background(), &s, 6, 7)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := Deal(context.Background(), &s, 6, 8)
	if err != nil {
		t.Fatal(err)
	}
	if a.Key() != b.Key() || a.Key() == c.Key() {
		t.Fatal("deals are not a function of the seed")
	}
	sol, err := s.Solve(context.Background(), a, SolveOptions{Optimal: true})
	if err != nil || sol.Unsolvable || len(sol.Moves) > ia.Solution || ia.Nodes == 0 {
		t.Fatalf("the deal's solution has %d moves (%d nodes); its optimum: %d moves, %v", ia.Solution, ia.Nodes, len(sol.Moves), err)
	}
	// A seed whose first deal cannot be solved: the deal kept is the
	// next shuffle, and the one thrown away is proved unsolvable.
	for seed := uint64(1); seed <= 300; seed++ {
		st, info, err := Deal(context.Background(), &s, 4, seed)
		if err != nil {
			t.Fatal(err)
		}
		if info.Redeals == 0 {
			continue
		}
		kept := Shuffle(4, seed, uint64(info.Redeals))
		if info.Unsolvable != info.Redeals || st.Key() != kept.Key() {
			t.Fatalf("seed %d: %+v, not the shuffle after the thrown-away ones", seed, info)
		}
		first, err := s.Solve(context.Background(), Shuffle(4, seed, 0), SolveOptions{Optimal: true})
		if err != nil || !first.Unsolvable {
			t.Fatalf("seed %d: the thrown-away deal: unsolvable %v, %v", seed, first.Unsolvable, err)
		}
		t.Logf("african seed %d: %d deal(s) thrown away as unsolvable", seed, info.Redeals)
		return
	}
	t.Fatal("no african seed of 1..300 was redealt (about 1 deal in 100 cannot be solved)")
}

// TestQuickSearchAndBudget: the weighted search solves (not proved
// optimal) and a tiny budget is a BudgetError naming the budget.
func TestQuickSearchAndBudget(t *testing.T) {
	var s Solver
	st := Shuffle(6, 3, 0)
	sol, err := s.Solve(context.Background(), st, SolveOptions{})
	if err != nil || sol.Optimal {
		t.Fatalf("quick search: %v %v", sol.Optimal, err)
	}
	if !sol.Unsolvable {
		if r := ReplayMoves(st.Layout(), sol.Moves); !r.Solved {
			t.Fatalf("the quick solution replays as %+v", r)
		}
	}
	_, err = s.Solve(context.Background(), Shuffle(8, 1, 0), SolveOptions{Optimal: true, Nodes: 50})
	if be, ok := err.(*BudgetError); !ok || be.Nodes != 50 || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("tiny budget: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Solve(ctx, Shuffle(8, 1, 0), SolveOptions{Optimal: true}); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestReplay(t *testing.T) {
	in := `{"columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": [[0,3],[0,1],[0,2],[3,2]]}
{"columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": [[0,3],[0,3]]}
{"columns": ["a1 b0 a0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": []}
{"columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": [[0,9]]}
`
	var out strings.Builder
	if err := Replay(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"moves":4,"solved":true,"error":"","at":-1,"columns":["","b6 b5 b4 b3 b2 b1 b0","a6 a5 a4 a3 a2 a1 a0",""]}`,
		`"moves":1,"solved":false,"error":"illegal-move","at":1,`,
		`"moves":0,"solved":false,"error":"bad-layout","at":-1,"message":"column 0: block a0 appears twice"`,
		`"moves":0,"solved":false,"error":"illegal-move","at":0,`,
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant %s", i+1, lines[i], w)
		}
	}
	out.Reset()
	err := Replay(context.Background(), strings.NewReader(in+"{not json\n"), &out)
	if err == nil || !strings.Contains(err.Error(), "line 5") || strings.Count(out.String(), "\n") != 4 {
		t.Fatalf("malformed line 5: %v, output %q", err, out.String())
	}
}

// TestEveryColourCount deals and solves layouts of every number of
// colours, not only the three levels', and replays the optimal solutions;
// the quick search's solutions are never shorter than them.
func TestEveryColourCount(t *testing.T) {
	var s Solver
	for c := MinColours; c <= MaxColours; c++ {
		if testing.Short() && c > 5 {
			break
		}
		for seed := uint64(1); seed <= 3; seed++ {
			st, info, err := Deal(context.Background(), &s, c, seed)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := s.Solve(context.Background(), st, SolveOptions{Optimal: true})
			if err != nil || sol.Unsolvable {
				t.Fatalf("%d colours seed %d: %v %v", c, seed, sol.Unsolvable, err)
			}
			if r := ReplayMoves(st.Layout(), sol.Moves); !r.Solved || r.Moves != len(sol.Moves) {
				t.Fatalf("%d colours seed %d: %+v", c, seed, r)
			}
			if len(sol.Moves) > info.Solution || len(sol.Moves) < st.Bound() {
				t.Fatalf("%d colours seed %d: optimum %d, quick %d, bound %d", c, seed, len(sol.Moves), info.Solution, st.Bound())
			}
		}
	}
}

// TestReplayBoundsItsInput: a layout of more columns than any has, or a
// line past the line cap, is an error naming the line (decoded no further).
func TestReplayBoundsItsInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"columns": [` + strings.Repeat(`"", `, 100000) + `""], "moves": []}`, "towers replay: line 1: columns: more than 10; a layout has at most 10 (8 colours and 2 more)"},
		{"\n" + `{"columns": ["` + strings.Repeat("a0 ", 6<<20) + `"]}`, "towers replay: line 2: longer than 16 MiB"},
	} {
		var out bytes.Buffer
		if err := Replay(context.Background(), strings.NewReader(c.in), &out); err == nil || err.Error() != c.want {
			t.Errorf("Replay = %v; want %q", err, c.want)
		}
	}
	// A long column (within the line cap) stops at its first repeated block.
	if _, err := Parse(Layout{strings.Repeat("a0 ", 1<<20)}); err == nil || !strings.Contains(err.Error(), "block a0 appears twice") {
		t.Errorf("Parse of a long column: %v", err)
	}
}
