package games

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/internal/bounded"
	"gauntlet/referees/hextris"
)

// hextrisSolve is `gauntlet hextris solve`: the contest's command line. It
// solves every source seed of every problem file with a built-in strategy
// and writes the solutions as contest JSON to stdout.
func hextrisSolve(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "hextris solve", "-f FILE... [-p PHRASE]... [--phrases power|custom|illegal|none] [-t SECONDS] [-c CORES] [-m MEGABYTES] [--strategy NAME] [--param k=v,...]")
	var files, phraseList, params cli.Strings
	fs.Var(&files, "f", "problem file (repeatable)")
	fs.Var(&phraseList, "p", "phrase of power (repeatable; none given: the set named by --phrases)")
	phraseName := fs.String("phrases", "power", "embedded phrase set when no -p is given: power (the leaderboard's 18), custom, illegal or none (the final round's variants)")
	seconds := fs.Float64("t", 0, "time limit in seconds for the whole run (0: none; the node budget alone bounds the work); a game cut short keeps the units placed so far")
	cores := fs.Int("c", 1, "number of games solved at once")
	even := fs.Float64("even", 0.25, "with -t: the share of the time split evenly among the games (each game's floor); the rest goes in proportion to each game's cost")
	megabytes := fs.Int("m", 0, "memory limit in megabytes (accepted for the contest's command line; not enforced)")
	strategy := fs.String("strategy", "hexlookahead", "built-in hextris strategy (see 'gauntlet list --game hextris')")
	fs.Var(&params, "param", "strategy parameter k=v (repeatable, or comma-separated)")
	tag := fs.String("tag", "gauntlet", "tag written with each solution")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return cli.Usagef("hextris solve: unexpected argument %q", rest[0])
	}
	if len(files) == 0 {
		return cli.Usagef("hextris solve: no problem file (-f)")
	}
	if !(*seconds >= 0) || math.IsInf(*seconds, 0) {
		return cli.Usagef("hextris solve: -t %v: want a time limit in seconds >= 0 (0: none)", *seconds)
	}
	if !(*even >= 0 && *even <= 1) {
		return cli.Usagef("hextris solve: --even %v: want a share of the time in [0, 1]", *even)
	}
	if *cores < 1 {
		return cli.Usagef("hextris solve: -c %d: want at least 1 core", *cores)
	}
	if *megabytes < 0 {
		return cli.Usagef("hextris solve: -m %d: want a memory limit in megabytes >= 0 (0: none)", *megabytes)
	}
	st, err := contract.Default.Strategy("hextris", *strategy)
	if err != nil {
		return cli.Usagef("hextris solve: --strategy: %v", err)
	}
	vals, err := st.Params.Parse(params...)
	if err != nil {
		return cli.Usagef("hextris solve: --param: %v", err)
	}
	phrases, err := hextris.OfficialPhrases(*phraseName)
	if err != nil {
		return cli.Usagef("hextris solve: --phrases: %v", err)
	}
	if len(phraseList) > 0 {
		if flagGiven(fs, "phrases") {
			return cli.Usagef("hextris solve: -p and --phrases both given: choose the phrases one way")
		}
		phrases = hextris.NewPhraseSet("command line", phraseList)
	}
	// One case per distinct source seed of each problem, as eval plays
	// them; the game's cost model orders them.
	var cases []contract.Case
	for _, f := range files {
		data, err := bounded.ReadFile(ctx, f, bounded.FileSize)
		if err != nil {
			return fmt.Errorf("hextris solve: %w", err)
		}
		p, err := hextris.ParseProblem(data)
		if err != nil {
			return fmt.Errorf("hextris solve: %s: %w", f, err)
		}
		for _, s := range distinctSeeds(p.SourceSeeds) {
			cases = append(cases, hexCaseOf(p, s, phrases))
		}
	}
	build := func() (hextris.Solver, error) {
		b, err := st.New(vals, 1)
		if err != nil {
			return nil, err
		}
		return hexTypes.bot(b, "the bot of strategy "+st.Name)
	}
	out, err := solveCases(ctx, cases, build, *seconds, *even, *cores)
	if err != nil {
		return fmt.Errorf("hextris solve: %w", err)
	}
	for i := range out {
		out[i].Tag = *tag
	}
	return cli.WriteJSON(io.Stdout, out)
}

// flagGiven reports whether the flag name was given on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// solveCases solves cases on cores workers, each with its own solver, and
// returns the solutions in case order. The costliest cases (the game's
// Coster: source length times board area) start first, so that the short
// ones fill the cores at the end. With a time limit (seconds > 0) every
// game stops at 90% of it, leaving time for the output, and each game gets
// its share of the time left among the games not started yet: the fraction
// even of it split evenly, the rest in proportion to the games' costs (the
// solver keeps a quick complete solution in case the full search runs out
// of time). A game never gets less than its even part of the whole limit,
// even when the games before it ran over: a game started with no time left
// would have no time for its quick complete game either.
func solveCases(ctx context.Context, cases []contract.Case, build func() (hextris.Solver, error), seconds, even float64, cores int) ([]hextris.Solution, error) {
	// ectx ends on an error or an interrupt; the time limit ends only the
	// searches (dctx): the games not started by then still play their
	// quick complete game.
	g, ectx := errgroup.WithContext(ctx)
	dctx := ectx
	var deadline time.Time
	if seconds > 0 {
		var cancel context.CancelFunc
		deadline = time.Now().Add(time.Duration(seconds * 0.9 * float64(time.Second)))
		dctx, cancel = context.WithDeadline(ectx, deadline)
		defer cancel()
	}
	cost := make([]float64, len(cases))
	order := make([]int, len(cases))
	var costLeft float64
	for i, c := range cases {
		cost[i] = hextrisGame{}.Cost(c)
		order[i] = i
		costLeft += cost[i]
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	workers := min(cores, len(cases))
	floor := time.Duration(seconds * 0.9 * float64(time.Second) * float64(workers) * even / float64(len(cases)))
	var shareMu sync.Mutex
	gamesLeft := len(cases)
	// share returns game i's time, and whether it is the floor (which may
	// end after the time limit, when the games before ran over).
	share := func(i int) (time.Duration, bool) {
		shareMu.Lock()
		defer shareMu.Unlock()
		left := float64(time.Until(deadline)) * float64(workers)
		d := time.Duration(left * ((1-even)*cost[i]/max(costLeft, 1) + even/float64(gamesLeft)))
		costLeft -= cost[i]
		gamesLeft--
		return max(d, floor), d <= floor
	}
	out := make([]hextris.Solution, len(cases))
	next := make(chan int)
	for range workers {
		g.Go(func() error {
			solver, err := build()
			if err != nil {
				return err
			}
			for i := range next {
				d, err := hexTypes.data(cases[i])
				if err != nil {
					return err
				}
				jctx, cancel := dctx, context.CancelFunc(func() {})
				if !deadline.IsZero() {
					d, floored := share(i)
					parent := dctx
					if floored {
						parent = ectx
					}
					jctx, cancel = context.WithTimeout(parent, d)
				}
				sol, err := solver.Solve(jctx, d.Problem, d.Seed, d.Phrases)
				cancel()
				if err != nil {
					return fmt.Errorf("problem %d seed %d: %w", d.Problem.ID, d.Seed, err)
				}
				out[i] = hextris.Solution{ProblemID: d.Problem.ID, Seed: d.Seed, Solution: sol}
			}
			return nil
		})
	}
	sent := 0
feed:
	for _, i := range order {
		select {
		case next <- i:
			sent++
		case <-ectx.Done():
			break feed
		}
	}
	close(next)
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted: a partial answer would look complete
	}
	if sent < len(cases) {
		return nil, fmt.Errorf("%d of %d games were not started", len(cases)-sent, len(cases))
	}
	return out, nil
}
