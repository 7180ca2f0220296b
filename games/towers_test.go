package games

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/internal/bounded"
	"gauntlet/referees/towers"
)

func TestTowersCaseSets(t *testing.T) {
	g, err := contract.Default.Game("towers")
	if err != nil {
		t.Fatal(err)
	}
	a, err := g.Cases("african:6")
	if err != nil || len(a) != 6 || a[0].ID != "african/1" {
		t.Fatalf("african:6: %v %v", a, err)
	}
	b, err := g.Cases("african:3")
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		if b[i].ID != a[i].ID || b[i].Seed != a[i].Seed {
			t.Fatal("african:3 is not a prefix of african:6")
		}
	}
	for _, id := range []string{a[4].ID, "case:" + a[4].ID} {
		one, err := g.Cases(id)
		if err != nil || len(one) != 1 || one[0].ID != a[4].ID {
			t.Fatalf("%s: %v %v", id, one, err)
		}
		d, err := towersTypes.data(one[0])
		if err != nil {
			t.Fatal(err)
		}
		if d.Start.Colours() != 4 || d.Seed != 5 {
			t.Fatalf("%s: %d colours, seed %d", id, d.Start.Colours(), d.Seed)
		}
	}
	if r, err := g.Cases("sarov:3-4"); err != nil || len(r) != 2 || r[0].ID != "sarov/3" {
		t.Fatalf("sarov:3-4: %v %v", r, err)
	}
	if s, err := g.Cases("hanoi:2"); err != nil || s[0].Seed == a[0].Seed {
		t.Fatalf("hanoi and african deals of seed 1 share a case seed (%v)", err)
	}
	for _, bad := range []string{"bogus", "african:0", "african:x", "seeds:5", "case:mars/1", "case:hanoi/x", "sarov:5-1", "p1/s0"} {
		if _, err := g.Cases(bad); err == nil {
			t.Errorf("towers case set %q: no error", bad)
		}
	}
}

// TestTowersOptimum: the optimum of a smoke case is the length of the A*
// solution, and towersbest's score is never below it.
func TestTowersOptimum(t *testing.T) {
	g := mustGame(t, "towers")
	cs, err := g.Cases("case:african/2")
	if err != nil {
		t.Fatal(err)
	}
	best, ok, err := g.(contract.OptimumFinder).Optimum(context.Background(), cs[0])
	if err != nil || !ok {
		t.Fatalf("optimum: %v %v", ok, err)
	}
	d, err := towersTypes.data(cs[0])
	if err != nil {
		t.Fatal(err)
	}
	var s towers.Solver
	sol, err := s.Solve(context.Background(), d.Start, towers.SolveOptions{Optimal: true})
	if err != nil || float64(len(sol.Moves)) != best {
		t.Fatalf("optimum %v, A* %d moves (%v)", best, len(sol.Moves), err)
	}
	plan, err := runner.EvalPlan(g, cs[0].ID, mustEntrant(t, "towers", "towersgreedy"), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runner.PlayMatch(context.Background(), plan, &plan.Matches[0], contract.PlayOptions{})
	if err != nil || out.Seats[0].Forfeit != "" || out.Seats[0].Score < best || out.Turns != int(out.Seats[0].Score) {
		t.Fatalf("towersgreedy: %+v, %v (optimum %v)", out.Seats[0], err, best)
	}
}

// TestTowersSolveTool runs the solve tool in process: answers in input
// order, an unsolvable verdict, a bad layout and an exhausted budget as
// error fields with exit status 1, and bad flags as usage errors.
func TestTowersSolveTool(t *testing.T) {
	in := `{"id": "small", "columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""]}
{"id": "bad", "columns": ["a1 b0 a0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""]}
{"id": "solved", "columns": ["a6 a5 a4 a3 a2 a1 a0", "b6 b5 b4 b3 b2 b1 b0", "", ""]}
`
	run := func(stdin string, args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := towersSolve(context.Background(), cli.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, args)
		return out.String(), err
	}
	out, err := run(in, "--optimal", "--jobs", "2")
	if err == nil || !strings.Contains(err.Error(), "1 of 3") {
		t.Fatalf("a bad layout: %v", err)
	}
	var got []towersSolveOut
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var o towersSolveOut
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	if len(got) != 3 || got[0].ID != "small" || *got[0].Length != 4 || !*got[0].Optimal ||
		got[1].Error != towers.ErrBadLayout || got[2].Length == nil || *got[2].Length != 0 {
		t.Fatalf("answers:\n%s", out)
	}
	if out, err := run(`{"id": "u", "columns": ["b4 d5 a2 a5 b0 c3 d3", "b3 c1 c2 b6 c0 d1 a3", "d6 a6 a1 d4 a4 b5 b2", "c4 b1 c5 c6 d2 a0 d0", "", ""]}`, "--nodes", "10"); err == nil || !strings.Contains(out, `"error":"budget"`) {
		t.Fatalf("a budget of 10 positions: %v %s", err, out)
	}
	for _, bad := range [][]string{{"--nodes", "0"}, {"--weight", "0"}, {"--jobs", "0"}, {"extra"}} {
		if _, err := run("", bad...); !cli.IsUsage(err) {
			t.Errorf("%v: %v; want a usage error", bad, err)
		}
	}
	if _, err := run("{not json\n"); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed line: %v", err)
	}
}

// TestTowersSolveBoundsItsInput: more columns than a layout has, or a line
// past the line cap, is an error saying so; answers come out while the
// input is still open (the layouts are not all held), and cancelling stops
// a solve whose input stays open.
func TestTowersSolveBoundsItsInput(t *testing.T) {
	run := func(stdin string) error {
		var out, errb bytes.Buffer
		return towersSolve(context.Background(), cli.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, nil)
	}
	many := `{"id": "x", "columns": [` + strings.Repeat(`"", `, 1000) + `""]}`
	if err := run(many); err == nil || !strings.Contains(err.Error(), "line 1: columns: more than 10; a layout has at most 10") {
		t.Errorf("1,001 columns: %v", err)
	}
	long := `{"id": "` + strings.Repeat("x", bounded.LineSize) + `"}`
	if err := run(long); err == nil || err.Error() != "towers solve: line 1: longer than 16 MiB" {
		t.Errorf("a line of 16 MiB: %v", err)
	}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- towersSolve(ctx, cli.IO{Stdin: inR, Stdout: outW, Stderr: io.Discard}, []string{"--jobs", "1"})
		outW.Close()
	}()
	// The writer is flushed at the end only: the answer is awaited through
	// a flush forced by the next layouts' answers filling its buffer.
	layout := `{"id": "small", "columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""]}` + "\n"
	go func() {
		for range 200 {
			if _, err := inW.Write([]byte(layout)); err != nil {
				return
			}
		}
	}()
	firsts := make(chan string, 1)
	go func() {
		first, _ := bufio.NewReader(outR).ReadString('\n') // a read error leaves it short: the check below fails
		firsts <- first
		_, _ = io.Copy(io.Discard, outR) // draining only: what it reads is not checked
	}()
	select {
	case first := <-firsts:
		if !strings.Contains(first, `"id":"small"`) {
			t.Fatalf("first answer while the input is open: %q", first)
		}
	case <-time.After(time.Minute):
		inW.Close()
		t.Fatal("no answer within a minute while the input stayed open: the layouts are all read first")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("towers solve after cancel: %v; want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("towers solve did not stop on cancel while its input stayed open")
	}
	inW.Close()
}
