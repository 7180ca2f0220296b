package games

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/cli"
	"gauntlet/internal/bounded"
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
	opt := towers.SolveOptions{Optimal: *optimal, Nodes: *nodes, Weight: *weight}
	w := bufio.NewWriter(io.Stdout)
	total, failed, err := towersSolveStream(ctx, io.Stdin, w, opt, *jobs)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case err != nil:
		return fmt.Errorf("towers solve: %w", err)
	case failed > 0:
		return fmt.Errorf("towers solve: %d of %d layouts have no answer (see their error fields)", failed, total)
	}
	return nil
}

// towersSolveStream solves the layouts of in (JSON lines of at most
// bounded.LineSize bytes) on jobs workers while it reads them, and writes
// the answers to w in input order as they are ready: at most 4*jobs layouts
// are held at once, whatever the length of the input. It returns the
// number of layouts answered and of answers with an error; a malformed
// line, a failed read or write or a cancelled ctx stops it (the answers
// written stay).
func towersSolveStream(ctx context.Context, in io.Reader, w io.Writer, opt towers.SolveOptions, jobs int) (total, failed int, err error) {
	type job struct {
		in  towersSolveIn
		out chan towersSolveOut
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	work := make(chan job)
	order := make(chan job, 4*jobs) // answers to write, in input order
	for range jobs {
		g.Go(func() error {
			var s towers.Solver
			for j := range work {
				if err := gctx.Err(); err != nil {
					return err
				}
				o, err := towersSolveOne(gctx, &s, j.in, opt)
				if err != nil {
					return err
				}
				j.out <- o
			}
			return nil
		})
	}
	g.Go(func() error {
		defer close(work)
		defer close(order)
		lines := bounded.NewLines(gctx, in, 0)
		for lines.Scan() {
			if len(bytes.TrimSpace(lines.Bytes())) == 0 {
				continue
			}
			j := job{out: make(chan towersSolveOut, 1)}
			if err := json.Unmarshal(lines.Bytes(), &j.in); err != nil {
				return fmt.Errorf("line %d: %w", lines.Line(), err)
			}
			for _, ch := range []chan job{order, work} {
				select {
				case ch <- j:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
		}
		if err := lines.Err(); err != nil {
			if tl := (*bounded.TooLargeError)(nil); errors.As(err, &tl) {
				return err // "line 3: longer than 16 MiB"
			}
			return fmt.Errorf("reading the layouts: %w", err)
		}
		return nil
	})
	var werr error
	for j := range order {
		var o towersSolveOut
		select {
		case o = <-j.out:
		case <-gctx.Done():
		}
		if gctx.Err() != nil {
			break
		}
		total++
		if o.Error != "" {
			failed++
		}
		b, err := json.Marshal(o)
		if err != nil {
			werr = err
			break
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			werr = err
			break
		}
	}
	if werr != nil {
		cancel()
		_ = g.Wait() // the reader and the workers stop: their errors are only the cancellation
		return total, failed, werr
	}
	return total, failed, g.Wait()
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
