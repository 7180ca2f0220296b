package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"time"

	_ "gauntlet/games" // registers the games and their strategies
	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/strategies/param"
)

// runFlags are the flags shared by the commands that play games.
type runFlags struct {
	game        string
	storage     string
	run         string
	jobs        int
	json        bool
	noTimeLimit bool
	turnTime    limitFlag
	firstTime   limitFlag
	margin      limitFlag
	quiet       bool
	jobsSet     bool      // --jobs was given
	gameTimeout limitFlag // --game-timeout
	botMemory   sizeFlag  // --bot-memory
	botProcs    int       // --bot-procs
	clock       string    // --clock: wall or cpu
}

// limitFlag is a time-limit flag: a duration that must not be negative,
// and whether it was given.
type limitFlag struct {
	d   time.Duration
	set bool
}

func (l *limitFlag) String() string {
	if l == nil {
		return "0s"
	}
	return l.d.String()
}

func (l *limitFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("not a duration (e.g. 50ms, 1.5s): %q", s)
	}
	if d < 0 {
		return fmt.Errorf("%v: must not be negative", d)
	}
	l.d, l.set = d, true
	return nil
}

func (f *runFlags) register(fs *flag.FlagSet, storing bool) {
	fs.StringVar(&f.game, "game", "", "game name (see 'gauntlet list')")
	f.jobs = runtime.NumCPU()
	fs.Var(&jobsFlag{n: &f.jobs, set: &f.jobsSet}, "jobs", "games played in parallel (with time-limited external bots on the wall clock, the default leaves each player a core)")
	fs.BoolVar(&f.json, "json", false, "print one JSON document on stdout (logs and progress go to stderr)")
	fs.BoolVar(&f.noTimeLimit, "no-time-limit", false, "no time limit for external bots (reproducible runs)")
	fs.Var(&f.turnTime, "turn-time", "time limit of an external bot's answer (0 = the game's; 'gauntlet list --game G' shows each game's limits)")
	fs.Var(&f.firstTime, "first-turn-time", "time limit of an external bot's first answer, where the game has one (0 = the game's)")
	fs.Var(&f.margin, "time-margin", "time an external bot may take beyond each limit before it forfeits (default: the game's; 0 = none)")
	fs.Var(&f.gameTimeout, "game-timeout", fmt.Sprintf("wall-clock cap of a game with external bots, whatever the time limits: a bot still awaited then forfeits (0 = twice the game's time limits, at least %v)", contract.DefaultGameCap))
	fs.Var(&f.botMemory, "bot-memory", "most resident memory an external bot's processes may hold together, e.g. 512M or 2G (0 = no cap)")
	fs.IntVar(&f.botProcs, "bot-procs", DefaultBotProcs, "most processes an external bot may run at once, itself included (0 = no cap)")
	fs.StringVar(&f.clock, "clock", "wall", "how external bots' answers are timed: wall (as the contests did) or cpu (the CPU time of the bot's processes; Linux)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	if storing {
		fs.StringVar(&f.storage, "storage", store.DefaultStorage, "results store: sqlite:FILE, postgres://..., or none")
		fs.StringVar(&f.run, "run", "", "run name (default: derived from game, entrants, params and cases; the same command resumes the same run)")
	}
}

func (f *runFlags) gameOrErr() (contract.Game, error) {
	if f.game == "" {
		return nil, usagef("--game is required (games: %s)", gameNames())
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	g, err := contract.Default.Game(f.game)
	if err != nil {
		return nil, usagef("--game: %v", err)
	}
	return g, f.checkLimits()
}

// checkLimits refuses time-limit flags the game does not apply or that
// make no sense (exit status 2). An unknown game is left to the caller.
func (f *runFlags) checkLimits() error {
	g, err := contract.Default.Game(f.game)
	if err != nil {
		return nil
	}
	if err := g.Info().Limits.Check(f.playOptions(nil)); err != nil {
		return usagef("%s: %v", f.game, err)
	}
	return nil
}

func gameNames() string {
	s := ""
	for i, g := range contract.Default.Games() {
		if i > 0 {
			s += ", "
		}
		s += g.Info().Name
	}
	return s
}

func (f *runFlags) playOptions(e *env) contract.PlayOptions {
	return contract.PlayOptions{NoTimeLimit: f.noTimeLimit, TurnTime: f.turnTime.d, FirstTurnTime: f.firstTime.d,
		TimeMargin: f.margin.d, MarginSet: f.margin.set, GameTimeout: f.gameTimeout.d,
		BotMemory: f.botMemory.n, BotProcs: f.botProcs, CPUClock: f.clock == "cpu"}
}

// openStore opens the --storage store; "none" gives nil (nothing stored).
func (f *runFlags) openStore(ctx context.Context) (*store.Store, error) {
	if f.storage == "" || f.storage == "none" {
		return nil, nil
	}
	return store.Open(ctx, f.storage)
}

func (f *runFlags) runner(e *env, st *store.Store) *runner.Runner {
	rn := &runner.Runner{Store: st, Jobs: f.jobs, Options: f.playOptions(e)}
	if !f.quiet {
		rn.Progress = e.stderr
	}
	return rn
}

// runPlan opens the --storage store (nil for none), plays plan on it and
// returns the results; the caller closes the store. An interrupted run
// says how to resume it.
func (f *runFlags) runPlan(ctx context.Context, e *env, plan *runner.Plan, stop runner.Stopper) (*runner.Results, *store.Store, error) {
	st, err := f.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	f.fitJobs(plan, runtime.NumCPU())
	rs, err := f.runner(e, st).Run(ctx, plan, stop)
	if err != nil {
		if st != nil {
			// The run's error is the one to report; a failed close
			// after it adds nothing the user can act on.
			_ = st.Close()
			if errors.Is(err, context.Canceled) && rs != nil {
				return nil, nil, fmt.Errorf("%w: %d games stored in run %s; run the same command again to resume", err, rs.Played+rs.Resumed, plan.Run.ID)
			}
		}
		return nil, nil, err
	}
	if st != nil {
		// The store must still hold what this run stored before the
		// run reports it (a bot may have deleted the file meanwhile).
		if err := st.CheckRun(ctx, plan.Run.ID, rs.Played+rs.Resumed); err != nil {
			_ = st.Close() // the check's error is the one to report
			return nil, nil, err
		}
	}
	return rs, st, nil
}

// paramAssignments turns a params map into k=v assignments. A whole
// number is written in digits (1000000, not 1e+06): a fixed placeholder of
// an external bot passes the text on as it is.
func paramAssignments(m map[string]any) []string {
	var out []string
	for k, v := range m {
		if x, ok := v.(float64); ok && x == math.Trunc(x) && math.Abs(x) <= param.MaxInt {
			v = int64(x)
		}
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	return out
}

func writeJSON(w io.Writer, v any) error { return cli.WriteJSON(w, v) }

// tableFiles are the --csv and --md flags of a command that prints tables.
type tableFiles struct{ csv, md string }

// register adds the two flags; what names the tables ("table", "tables").
func (t *tableFiles) register(fs *flag.FlagSet, what string) {
	fs.StringVar(&t.csv, "csv", "", "also write the "+what+" as CSV to this file")
	fs.StringVar(&t.md, "md", "", "also write the "+what+" as Markdown to this file")
}

// check checks the named files before any game starts.
func (t tableFiles) check() error { return outputFiles("--csv", t.csv, "--md", t.md) }

// named reports whether either file is named.
func (t tableFiles) named() bool { return t.csv != "" || t.md != "" }

// write writes tables as CSV and as Markdown, each only when named, each
// file whole or not at all (reports.WriteTablesFile); the error names the
// flag and the file.
func (t tableFiles) write(tables ...*reports.Table) error {
	if t.csv != "" {
		if err := reports.WriteTablesFile(t.csv, false, tables...); err != nil {
			return fmt.Errorf("--csv: %w", err)
		}
	}
	if t.md != "" {
		if err := reports.WriteTablesFile(t.md, true, tables...); err != nil {
			return fmt.Errorf("--md: %w", err)
		}
	}
	return nil
}

// readStorage checks the store flag of a command that reads stored runs
// or studies, name: set (not none), and a storage URL. why says what
// reads it.
func readStorage(name, url, why string) error {
	if url == "" || url == "none" {
		return usagef("%s %q: %s", name, url, why)
	}
	if _, err := store.ParseStorage(url); err != nil {
		return usagef("%s: %v", name, err)
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// closeInto closes c and keeps its error in *err unless an earlier error is
// there already: for a deferred Close of a store or a written file, whose
// failure (an unflushed write, a failed checkpoint) the user must see.
func closeInto(err *error, c io.Closer) {
	if cerr := c.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}
