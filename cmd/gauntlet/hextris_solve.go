package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"gauntlet/referees/hextris"
	"gauntlet/strategies/hexsearch"
	"gauntlet/strategies/param"
)

// hextrisSolve is "gauntlet hextris solve": the contest's command line. It
// solves every source seed of every problem file and writes the solutions
// as contest JSON to stdout.
func hextrisSolve(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "hextris solve", "-f FILE... [-p PHRASE]... [-t SECONDS] [-c CORES] [-m MEGABYTES] [--strategy hexlookahead|hexgreedy] [--param k=v,...]")
	var files, phraseList, params multiFlag
	fs.Var(&files, "f", "problem file (repeatable)")
	fs.Var(&phraseList, "p", "phrase of power (repeatable; none given: the 18 phrases of the leaderboard)")
	seconds := fs.Float64("t", 0, "time limit in seconds for the whole run (0: none; the node budget alone bounds the work); a game cut short keeps the units placed so far")
	cores := fs.Int("c", 1, "number of games solved at once")
	fs.Int("m", 0, "memory limit in megabytes (accepted for the contest's command line; not enforced)")
	strategy := fs.String("strategy", "hexlookahead", "hexlookahead or hexgreedy")
	fs.Var(&params, "param", "strategy parameter k=v (repeatable, or comma-separated)")
	tag := fs.String("tag", "gauntlet", "tag written with each solution")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("hextris solve: unexpected argument %q", rest[0])
	}
	if len(files) == 0 {
		return usagef("hextris solve: no problem file (-f)")
	}
	if *cores < 1 {
		return usagef("hextris solve: -c must be at least 1, got %d", *cores)
	}
	var specs param.Specs
	var build func(param.Values) (hextris.Solver, error)
	switch *strategy {
	case "hexlookahead":
		specs = hexsearch.LookaheadParams
		build = func(v param.Values) (hextris.Solver, error) { return hexsearch.NewLookahead(v, 1) }
	case "hexgreedy":
		specs = hexsearch.GreedyParams
		build = func(v param.Values) (hextris.Solver, error) { return hexsearch.NewGreedy(v, 1) }
	default:
		return usagef("hextris solve: unknown strategy %q (want hexlookahead or hexgreedy)", *strategy)
	}
	vals, err := specs.Parse(params...)
	if err != nil {
		return usagef("hextris solve: --param: %v", err)
	}
	phrases, err := hextris.OfficialPhrases("power")
	if err != nil {
		return err
	}
	if len(phraseList) > 0 {
		phrases = hextris.NewPhraseSet("command line", phraseList)
	}
	type job struct {
		p    *hextris.Problem
		seed uint32
	}
	var jobs []job
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("hextris solve: %w", err)
		}
		p, err := hextris.ParseProblem(data)
		if err != nil {
			return fmt.Errorf("hextris solve: %s: %w", f, err)
		}
		seen := map[uint32]bool{}
		for _, s := range p.SourceSeeds {
			if !seen[s] {
				seen[s] = true
				jobs = append(jobs, job{p, s})
			}
		}
	}
	// Every game stops at the time limit, less a margin for writing the
	// output; the costliest games (source length times board area) start
	// first, so that the short ones fill the cores at the end. With a time
	// limit each game gets its share of the time left, in proportion to
	// its cost among the games not started yet (and the solver keeps a
	// quick complete solution in case the full search runs out of time).
	gctx := ctx
	var deadline time.Time
	if *seconds > 0 {
		var cancel context.CancelFunc
		deadline = time.Now().Add(time.Duration(*seconds * 0.9 * float64(time.Second)))
		gctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	cost := func(j job) float64 { return float64(j.p.SourceLength) * float64(j.p.Width*j.p.Height) }
	sort.SliceStable(order, func(a, b int) bool { return cost(jobs[order[a]]) > cost(jobs[order[b]]) })
	var costLeft float64
	for _, j := range jobs {
		costLeft += cost(j)
	}
	var shareMu sync.Mutex
	share := func(j job) time.Duration {
		shareMu.Lock()
		defer shareMu.Unlock()
		d := time.Duration(float64(time.Until(deadline)) * float64(min(*cores, len(jobs))) * cost(j) / costLeft)
		costLeft -= cost(j)
		return d
	}
	out := make([]hextris.Solution, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(*cores, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			solver, err := build(vals)
			for i := range next {
				if err != nil {
					errs[i] = err
					continue
				}
				j := jobs[i]
				jctx, cancel := gctx, context.CancelFunc(func() {})
				if !deadline.IsZero() {
					jctx, cancel = context.WithTimeout(gctx, share(j))
				}
				sol, err := solver.Solve(jctx, j.p, j.seed, phrases)
				cancel()
				out[i] = hextris.Solution{ProblemID: j.p.ID, Seed: j.seed, Tag: *tag, Solution: sol}
				errs[i] = err
			}
		}()
	}
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("hextris solve: problem %d seed %d: %w", jobs[i].p.ID, jobs[i].seed, err)
		}
	}
	return writeJSON(e.stdout, out)
}
