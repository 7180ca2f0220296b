package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/internal/botlog"
)

// DefaultBotProcs is the default most processes an external bot may run
// at once (contract.DefaultBotProcs).
const DefaultBotProcs = contract.DefaultBotProcs

// Options are the settings every command that plays games shares: the
// game, where results are stored, how many games at once and the limits
// an external bot plays under.
type Options struct {
	Game    string // a registered game, a game file or referee:COMMAND
	Storage string // results store URL; "" or "none": nothing stored
	Run     string // run name ("": derived from the plan)
	Jobs    int    // games played in parallel
	JobsSet bool   // Jobs was given (else FitJobs may lower it)
	Quiet   bool   // no progress bar

	NoTimeLimit   bool
	TurnTime      Limit
	FirstTurnTime Limit
	Margin        Limit
	GameTimeout   Limit
	BotMemory     Size
	BotProcs      int
	Clock         string // "wall" or "cpu"
	// BotLogs says which games keep their external bots' stderr
	// (--bot-logs; the zero value is botlog.Errors, the default).
	BotLogs botlog.Policy
}

// NewOptions are the default options: as many jobs as cores, the wall
// clock, DefaultBotProcs.
func NewOptions() Options {
	return Options{Jobs: runtime.NumCPU(), Clock: "wall", BotProcs: DefaultBotProcs}
}

// Check refuses bad values of the options every game-playing command
// shares (usage errors naming the flag).
func (o *Options) Check() error {
	if o.Jobs < 1 {
		return cli.Usagef("--jobs %d: want at least 1 (games played in parallel)", o.Jobs)
	}
	switch {
	case o.BotProcs < 0:
		return cli.Usagef("--bot-procs %d: want at least 0 (0: no cap)", o.BotProcs)
	case o.Clock != "wall" && o.Clock != "cpu":
		return cli.Usagef("--clock %q: want wall or cpu", o.Clock)
	case o.Clock == "cpu" && runtime.GOOS != "linux":
		return cli.Usagef("--clock cpu: CPU time is read from /proc, which only Linux has")
	case o.Clock == "cpu" && o.NoTimeLimit:
		return cli.Usagef("--clock cpu with --no-time-limit: there is no limit to time")
	}
	return nil
}

// ResolveGame checks the options and returns the game: --game is
// required, and its time limits must take the options'.
func (o *Options) ResolveGame() (contract.Game, error) {
	if o.Game == "" {
		return nil, cli.Usagef("--game is required (games: %s)", GameNames())
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	g, err := contract.Default.Game(o.Game)
	if err != nil {
		return nil, cli.Usagef("--game: %v", err)
	}
	return g, o.CheckLimits()
}

// CheckLimits refuses time limits the game does not apply or that make no
// sense. An unknown game is left to the caller.
func (o *Options) CheckLimits() error {
	g, err := contract.Default.Game(o.Game)
	if err != nil {
		return nil
	}
	if err := g.Info().Limits.Check(o.PlayOptions()); err != nil {
		return cli.Usagef("%s: %v", o.Game, err)
	}
	return nil
}

// GameNames lists the registered games, comma-separated.
func GameNames() string {
	return strings.Join(GamesWith(func(contract.Game) bool { return true }), ", ")
}

// PlayOptions are the options as a game takes them.
func (o *Options) PlayOptions() contract.PlayOptions {
	return contract.PlayOptions{NoTimeLimit: o.NoTimeLimit, TurnTime: o.TurnTime.D, FirstTurnTime: o.FirstTurnTime.D,
		TimeMargin: o.Margin.D, MarginSet: o.Margin.Given, GameTimeout: o.GameTimeout.D,
		BotMemory: o.BotMemory.N, BotProcs: o.BotProcs, CPUClock: o.Clock == "cpu", BotLogs: o.BotLogs}
}

// openStore opens the Storage store; "none" gives nil (nothing stored).
func (o *Options) openStore(ctx context.Context) (*store.Store, error) {
	if o.Storage == "" || o.Storage == "none" {
		return nil, nil
	}
	return store.Open(ctx, o.Storage)
}

// runPlan opens the store (nil for none), plays plan on it and returns the
// results; the caller closes the store. The progress bar goes to progress
// unless Quiet, and so do the lines of watch (nil: none), which sees every
// result. An interrupted run says how to resume it.
func (o *Options) runPlan(ctx context.Context, plan *runner.Plan, stop runner.Stopper, progress io.Writer,
	watch func(w io.Writer) func(*runner.Result)) (*runner.Results, *store.Store, error) {
	st, err := o.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	o.FitJobs(plan, runtime.NumCPU())
	rn := &runner.Runner{Store: st, Jobs: o.Jobs, Options: o.PlayOptions()}
	if !o.Quiet {
		rn.Progress = progress
		if watch != nil {
			rn.Watch = watch(progress)
		}
	}
	rs, err := rn.Run(ctx, plan, stop)
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

// FitJobs leaves each player of a game with time-limited external bots
// timed on the wall clock a core of its own, as the contests did: without
// --jobs, it plays at most cores / players games at once; with a --jobs
// that shares the cores, it warns that a timeout may then be the
// machine's, not the bot's.
func (o *Options) FitJobs(plan *runner.Plan, cores int) {
	external := false
	for _, e := range plan.Entrants {
		external = external || e.IsExternal()
	}
	seats := 1
	for i := range plan.Matches {
		seats = max(seats, len(plan.Matches[i].Seats))
	}
	o.FitJobsTo(plan.Game.Info(), external, seats, cores)
}

// FitJobsTo is FitJobs for games of the given seats, with an external bot
// among the players or not (tune and spsa, which build their games
// themselves).
func (o *Options) FitJobsTo(info contract.GameInfo, external bool, seats, cores int) {
	if l := info.Limits; !external || o.NoTimeLimit || o.Clock == "cpu" || l.Turn == 0 && l.FirstTurn == 0 && l.Total == 0 {
		return
	}
	seats = max(seats, 1)
	fit := max(1, cores/seats)
	switch {
	case !o.JobsSet && o.Jobs > fit:
		slog.Info("external bots are timed on the wall clock: playing fewer games at once so that each player has a core",
			"jobs", fit, "players", seats, "cores", cores)
		o.Jobs = fit
	case o.Jobs > fit || seats > cores:
		slog.Warn(fmt.Sprintf("--jobs %d with %d players a game on %d cores: external bots are timed on the wall clock and share the CPU, "+
			"so a timeout may be the machine's, not the bot's (forfeits say so); --jobs %d gives each player a core, --clock cpu charges each bot its CPU time",
			o.Jobs, seats, cores, fit))
	}
}
