package hextris

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gauntlet/internal/owner"
	"gauntlet/referees/internal/lineproc"
)

// ExternalOptions configure RunExternal.
type ExternalOptions struct {
	Env     []string  // extra KEY=VALUE environment entries
	Dir     string    // working directory ("" = the caller's)
	Phrases PhraseSet // passed as -p arguments, one per phrase
	// TimeLimit is passed as -t (whole seconds, rounded up) and enforced
	// from the solver's start to its exit, plus Margin; 0 passes no -t and,
	// unless NoTimeLimit, enforces DefaultExternalTime plus Margin.
	TimeLimit   time.Duration
	Margin      time.Duration
	NoTimeLimit bool
	// MaxOutput caps what the solver may print (0 = MaxSolverOutput).
	MaxOutput int
	Log       io.Writer // optional copy of the solver's stderr
}

// DefaultExternalTime bounds an external solver given no time limit.
const DefaultExternalTime = 10 * time.Minute

// DefaultMargin is gauntlet's default margin on a solver's time limit: the
// contest's -t was "the time limit to produce output", from the program's
// start; the margin covers starting a runtime and writing the output of a
// solver that searches for exactly -t seconds.
const DefaultMargin = time.Second

// MaxSolverOutput is the most a solver may print by default: a solution file
// for every official problem and seed with the longest solutions the
// leaderboard kept fits in far less.
const MaxSolverOutput = 64 << 20

// TempPrefix names the temporary directories of the problem files given to
// solvers: TempPrefix + the owner's token (see package
// gauntlet/internal/owner) + "-" + random characters. Those of a dead
// gauntlet are removed by the next one that runs a solver.
const TempPrefix = "gauntlet-hextris-"

// ExternalResult is what a solver gave for one game.
type ExternalResult struct {
	Solution string
	Took     time.Duration // from its start to its exit
	// Ignored counts the entries of its output that the scoring ignored (for
	// another game, or an earlier entry for this one, which a later entry
	// replaces as the leaderboard did); IgnoredFirst describes the first.
	Ignored      int
	IgnoredFirst string
}

// RunExternal runs a contest-style solver for one game:
//
//	argv... -f PROBLEM.json [-p PHRASE]... [-t SECONDS] -c 1
//
// where PROBLEM.json is problem p with sourceSeeds reduced to [seed]. The
// solver prints a solution file on stdout; the solution for (p.ID, seed)
// is returned. A solver that fails, runs past its limit, prints more than
// its output cap, prints no valid JSON or omits the game is an error saying
// so; the Took of the result is set whenever the solver ran.
func RunExternal(ctx context.Context, argv []string, opt ExternalOptions, p *Problem, seed uint32) (ExternalResult, error) {
	var res ExternalResult
	if len(argv) == 0 {
		return res, fmt.Errorf("hextris solver: empty command")
	}
	q := *p
	q.SourceSeeds = []uint32{seed}
	q.raw = nil
	data, err := q.MarshalJSON()
	if err != nil {
		return res, err
	}
	dir, err := owner.MkdirTemp(TempPrefix)
	if err != nil {
		return res, err
	}
	defer func() {
		// A directory left behind is removed by the next run (package
		// owner): the solution is what counts.
		_ = os.RemoveAll(dir)
	}()
	file := filepath.Join(dir, fmt.Sprintf("problem_%d.json", p.ID))
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return res, err
	}
	args := append(append([]string(nil), argv...), "-f", file)
	for _, ph := range opt.Phrases.Phrases() {
		args = append(args, "-p", ph)
	}
	limit := DefaultExternalTime
	if opt.TimeLimit > 0 {
		args = append(args, "-t", strconv.Itoa(int(math.Ceil(opt.TimeLimit.Seconds()))))
		limit = opt.TimeLimit
	}
	if opt.NoTimeLimit {
		limit = 0
	}
	args = append(args, "-c", "1")
	out, took, err := lineproc.Run(ctx, args, lineproc.Options{Dir: opt.Dir, Env: opt.Env, Stderr: opt.Log}, nil, limit, max(opt.Margin, 0), opt.MaxOutput)
	res.Took = took
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), args[0]+": ")
		msg = strings.Replace(msg, lineproc.ErrExited.Error()+": ", "", 1)
		msg = strings.Replace(msg, lineproc.ErrOutputLimit.Error()+": ", "", 1)
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return res, err
		}
		return res, fmt.Errorf("hextris solver %s: %s", argv[0], msg)
	}
	sols, err := ParseSolutions(out)
	if err != nil {
		return res, fmt.Errorf("hextris solver %s: output: %w", argv[0], err)
	}
	use := -1
	for i := len(sols) - 1; i >= 0; i-- {
		if sols[i].ProblemID == p.ID && sols[i].Seed == seed {
			use = i
			break
		}
	}
	if use < 0 {
		return res, fmt.Errorf("hextris solver %s: no solution for problem %d seed %d in its output (%d entries)", argv[0], p.ID, seed, len(sols))
	}
	res.Solution = sols[use].Solution
	for i, s := range sols {
		if i == use {
			continue
		}
		if res.Ignored == 0 {
			why := "another game"
			if s.ProblemID == p.ID && s.Seed == seed {
				why = "replaced by a later entry for this game"
			}
			res.IgnoredFirst = fmt.Sprintf("entry %d (problem %d seed %d): %s", i, s.ProblemID, s.Seed, why)
		}
		res.Ignored++
	}
	return res, nil
}
