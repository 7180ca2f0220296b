package games

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/cli"
	"gauntlet/referees/towers"
)

// towersSolveIn is one input line of `gauntlet towers solve`.
type towersSolveIn struct {
	ID      string        `json:"id"`
	Columns towers.Layout `json:"columns"`
}

// towersSolveOut is one output line: a solution, an unsolvable verdict, or
// an error ("bad-layout", "budget").
type towersSolveOut struct {
	ID         string   `json:"id"`
	Moves      [][2]int `json:"moves,omitempty"`
	Length     *int     `json:"length,omitempty"`
	Optimal    *bool    `json:"optimal,omitempty"`
	Unsolvable bool     `json:"unsolvable,omitempty"`
	Nodes      int      `json:"nodes"`
	Error      string   `json:"error,omitempty"`
	Message    string   `json:"message,omitempty"`
}

// towersSolve is `gauntlet towers solve [--optimal] < layouts.jsonl`: one
// answer line per layout, in input order.
func towersSolve(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "towers solve", "[--optimal] [--nodes N] [--weight W] [--jobs N] < layouts.jsonl > solutions.jsonl")
	optimal := fs.Bool("optimal", false, "prove the optimum (A* with the admissible count of blocks off their final support); default: a quick weighted search")
	nodes := fs.Int("nodes", towers.DefaultNodes, "search budget per layout in positions stored (about 120 bytes each)")
	weight := fs.Int("weight", 3, "weight of the blocks off their final support in the quick search (1 = A*, larger = faster, longer)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "layouts solved at once")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("towers solve", rest); err != nil {
		return err
	}
	if *nodes < 1 {
		return cli.Usagef("towers solve: --nodes %d: want at least 1 position", *nodes)
	}
	if *weight < 1 || *weight > 100 {
		return cli.Usagef("towers solve: --weight %d: want 1..100", *weight)
	}
	if *jobs < 1 {
		return cli.Usagef("towers solve: --jobs %d: want at least 1", *jobs)
	}
	var ins []towersSolveIn
	sc := bufio.NewScanner(io.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var in towersSolveIn
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return fmt.Errorf("towers solve: line %d: %w", line, err)
		}
		ins = append(ins, in)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("towers solve: reading the layouts: %w", err)
	}
	outs := make([]towersSolveOut, len(ins))
	opt := towers.SolveOptions{Optimal: *optimal, Nodes: *nodes, Weight: *weight}
	g, gctx := errgroup.WithContext(ctx)
	next := make(chan int)
	for range min(*jobs, max(len(ins), 1)) {
		g.Go(func() error {
			var s towers.Solver
			for i := range next {
				o, err := towersSolveOne(gctx, &s, ins[i], opt)
				if err != nil {
					return err
				}
				outs[i] = o
			}
			return nil
		})
	}
feed:
	for i := range ins {
		select {
		case next <- i:
		case <-gctx.Done():
			break feed
		}
	}
	close(next)
	if err := g.Wait(); err != nil {
		return fmt.Errorf("towers solve: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	failed := 0
	w := bufio.NewWriter(io.Stdout)
	for _, o := range outs {
		if o.Error != "" {
			failed++
		}
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		_, _ = w.Write(append(b, '\n')) // a write error is kept by the writer and returned by Flush
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("towers solve: %w", err)
	}
	if failed > 0 {
		return fmt.Errorf("towers solve: %d of %d layouts have no answer (see their error fields)", failed, len(outs))
	}
	return nil
}

// towersSolveOne answers one layout; err is for a cancelled search only.
func towersSolveOne(ctx context.Context, s *towers.Solver, in towersSolveIn, opt towers.SolveOptions) (towersSolveOut, error) {
	out := towersSolveOut{ID: in.ID}
	st, err := towers.Parse(in.Columns)
	if err != nil {
		out.Error, out.Message = towers.ErrBadLayout, err.Error()
		return out, nil
	}
	sol, err := s.Solve(ctx, st, opt)
	out.Nodes = sol.Nodes
	var be *towers.BudgetError
	switch {
	case errors.As(err, &be):
		out.Error, out.Message = "budget", err.Error()
		return out, nil
	case err != nil:
		return out, err
	case sol.Unsolvable:
		out.Unsolvable = true
		return out, nil
	}
	n := len(sol.Moves)
	out.Moves, out.Length, out.Optimal = towersRawMoves(sol.Moves), &n, &sol.Optimal
	if out.Moves == nil {
		out.Moves = [][2]int{}
	}
	return out, nil
}
