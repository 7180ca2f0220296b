package towers

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"
)

// refLayout is one line of testdata/layouts.jsonl: a layout with the length
// of its shortest solution found by an independent solver, or unsolvable.
type refLayout struct {
	ID         string `json:"id"`
	Colours    int    `json:"colours"`
	Columns    Layout `json:"columns"`
	Optimal    *int   `json:"optimal"`
	Unsolvable bool   `json:"unsolvable"`
}

func readLayouts(t testing.TB) []refLayout {
	t.Helper()
	f, err := os.Open("testdata/layouts.jsonl")
	if err != nil {
		t.Fatalf("reference layouts: %v", err)
	}
	defer f.Close()
	var out []refLayout
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l refLayout
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("layouts.jsonl line %d: %v", len(out)+1, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no reference layouts")
	}
	return out
}

// TestConformance proves the optimum of every reference layout and
// compares it with the independent solver's (or its unsolvable verdict),
// and replays every solution found as solved with that many moves.
func TestConformance(t *testing.T) {
	layouts := readLayouts(t)
	var s Solver
	agree := 0
	start := time.Now()
	for _, l := range layouts {
		st, err := Parse(l.Columns)
		if err != nil {
			t.Errorf("%s: %v", l.ID, err)
			continue
		}
		if l.Colours != st.Colours() {
			t.Errorf("%s: %d colours, the data says %d", l.ID, st.Colours(), l.Colours)
			continue
		}
		sol, err := s.Solve(context.Background(), st, SolveOptions{Optimal: true})
		if err != nil {
			t.Errorf("%s: %v", l.ID, err)
			continue
		}
		switch {
		case l.Unsolvable != sol.Unsolvable:
			t.Errorf("%s: unsolvable %v, the reference says %v", l.ID, sol.Unsolvable, l.Unsolvable)
		case l.Unsolvable:
			agree++
		case l.Optimal == nil:
			t.Errorf("%s: the reference gives no optimum", l.ID)
		case len(sol.Moves) != *l.Optimal || !sol.Optimal:
			t.Errorf("%s: %d moves (optimal %v), the reference's optimum is %d", l.ID, len(sol.Moves), sol.Optimal, *l.Optimal)
		default:
			r := ReplayMoves(l.Columns, sol.Moves)
			if r.Error != "" || !r.Solved || r.Moves != len(sol.Moves) {
				t.Errorf("%s: the solution replays as %+v", l.ID, r)
				continue
			}
			agree++
		}
	}
	t.Logf("towers conformance: %d/%d agree (%.2fs)", agree, len(layouts), time.Since(start).Seconds())
	if agree != len(layouts) {
		t.Fail()
	}
}
