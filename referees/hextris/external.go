package hextris

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"gauntlet/referees/internal/lineproc"
)

// ExternalOptions configure RunExternal.
type ExternalOptions struct {
	Env     []string  // extra KEY=VALUE environment entries
	Dir     string    // working directory ("" = the caller's)
	Phrases PhraseSet // passed as -p arguments, one per phrase
	// TimeLimit is passed as -t (whole seconds, rounded up) and enforced
	// with a grace of one second plus 10%; 0 passes no -t and, unless
	// NoTimeLimit, enforces DefaultExternalTime.
	TimeLimit   time.Duration
	NoTimeLimit bool
	Log         io.Writer // optional copy of the solver's stderr
}

// DefaultExternalTime bounds an external solver given no time limit.
const DefaultExternalTime = 10 * time.Minute

// RunExternal runs a contest-style solver for one game:
//
//	argv... -f PROBLEM.json [-p PHRASE]... [-t SECONDS] -c 1
//
// where PROBLEM.json is problem p with sourceSeeds reduced to [seed]. The
// solver prints a solution file on stdout; the solution for (p.ID, seed)
// is returned. A solver that fails, times out, prints no valid JSON or
// omits the game is an error saying so.
func RunExternal(ctx context.Context, argv []string, opt ExternalOptions, p *Problem, seed uint32) (string, error) {
	if len(argv) == 0 {
		return "", fmt.Errorf("hextris solver: empty command")
	}
	q := *p
	q.SourceSeeds = []uint32{seed}
	q.raw = nil
	data, err := q.MarshalJSON()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "gauntlet-hextris-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, fmt.Sprintf("problem_%d.json", p.ID))
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", err
	}
	args := append(append([]string(nil), argv...), "-f", file)
	for _, ph := range opt.Phrases.Phrases() {
		args = append(args, "-p", ph)
	}
	timeout := DefaultExternalTime
	if opt.TimeLimit > 0 {
		args = append(args, "-t", strconv.Itoa(int(math.Ceil(opt.TimeLimit.Seconds()))))
		timeout = opt.TimeLimit + opt.TimeLimit/10 + time.Second
	}
	if opt.NoTimeLimit {
		timeout = 0
	}
	args = append(args, "-c", "1")
	out, err := lineproc.Run(ctx, args, lineproc.Options{Dir: opt.Dir, Env: opt.Env, Stderr: opt.Log}, nil, timeout, 0)
	if err != nil {
		return "", fmt.Errorf("hextris solver %s: %w", argv[0], err)
	}
	sols, err := ParseSolutions(out)
	if err != nil {
		return "", fmt.Errorf("hextris solver %s: output: %w", argv[0], err)
	}
	for i := len(sols) - 1; i >= 0; i-- {
		if sols[i].ProblemID == p.ID && sols[i].Seed == seed {
			return sols[i].Solution, nil
		}
	}
	return "", fmt.Errorf("hextris solver %s: no solution for problem %d seed %d in its output (%d entries)", argv[0], p.ID, seed, len(sols))
}
