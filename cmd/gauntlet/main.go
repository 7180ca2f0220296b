// Command gauntlet plays game-AI strategies against exact ports of contest
// referees: conformance replays, batch evaluation, A/B self-play with
// statistics, Goptuna tuning and reports.
//
// Each subcommand lives in its own file and registers itself in init(); this
// file only dispatches. Game logic lives in referees/ and games/,
// never here: what a game offers beyond playing is found in the registry
// (games.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"gauntlet/harness/cli"
	"gauntlet/harness/entrant"
	"gauntlet/internal/bounded"
	"gauntlet/internal/untrusted"
)

// env is what a subcommand may touch: its standard streams.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// io is e as the streams a game's own tools take.
func (e *env) io() cli.IO { return cli.IO{Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr} }

// command is one subcommand ("eval", "replay", ...). Commands with their own
// sub-verbs ("replay GAME", "bot GAME STRATEGY") dispatch inside run; a
// game's own tools ("gauntlet GAME VERB") come from the registry.
type command struct {
	name    string
	summary string // one line for the top-level help
	run     func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("gauntlet: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// usagef is a bad invocation (cli.UsageError, as games' tools return):
// exit status 2 instead of 1.
func usagef(format string, a ...any) error { return cli.Usagef(format, a...) }

func main() {
	os.Exit(mainCode(os.Args[1:], &env{os.Stdin, os.Stdout, os.Stderr}))
}

// stopSignals end a command as Ctrl-C does: its games are handed back, its
// partial results kept and the way to resume it printed, exit status 130.
// SIGHUP is among them: a closed terminal or a dropped ssh connection
// interrupts the command instead of killing it outright.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// mainCode runs the CLI and returns the process exit status.
func mainCode(args []string, e *env) int {
	slog.SetDefault(slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: cli.LogLevel()})))
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	// A command reading stdin stops on a signal even while the read blocks
	// (a pipe that stays open).
	withStdin := *e
	withStdin.stdin = bounded.Reader(ctx, e.stdin)
	e = &withStdin
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printHelp(e.stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		c, ok = gameToolCommand(args[0])
	}
	if !ok {
		fmt.Fprintf(e.stderr, "gauntlet: unknown command %q (try 'gauntlet help')\n", args[0])
		return 2
	}
	stopProfile, err := cli.StartProfile(os.Getenv("GAUNTLET_CPUPROFILE"))
	if err != nil {
		fmt.Fprintf(e.stderr, "gauntlet %s: GAUNTLET_CPUPROFILE: %v\n", c.name, err)
		return 2
	}
	err = c.run(ctx, e, args[1:])
	if perr := stopProfile(); perr != nil {
		fmt.Fprintf(e.stderr, "gauntlet %s: GAUNTLET_CPUPROFILE: %v\n", c.name, perr)
	}
	if rerr := entrant.RemoveParamsFiles(); rerr != nil {
		fmt.Fprintf(e.stderr, "gauntlet %s: removing the bots' values files: %v\n", c.name, rerr)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "gauntlet %s: interrupted (%s)\n", c.name, untrusted.Text(err.Error()))
		return 130
	}
	// An error may quote a bot, a referee or a file (a forfeit reason, a
	// stderr tail): untrusted.Text keeps only its own line breaks raw.
	fmt.Fprintf(e.stderr, "gauntlet %s: %s\n", c.name, untrusted.Text(err.Error()))
	if cli.IsUsage(err) {
		return 2
	}
	return 1
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: gauntlet <command> [flags]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	if tools := toolCommands(); len(tools) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "games' own tools (gauntlet GAME VERB):")
		for _, c := range tools {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'gauntlet <command> -h' for the flags of a command.")
}

// newFlags makes a FlagSet whose errors come back as usage errors.
func newFlags(e *env, name, usage string) *flag.FlagSet { return cli.NewFlags(e.io(), name, usage) }

// parseFlags parses args and turns flag errors into usage errors. Positional
// arguments may come before, between and after the flags; they are returned.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) { return cli.Parse(fs, args) }

// parseOnlyFlags parses the flags of a command that takes no arguments
// besides them.
func parseOnlyFlags(fs *flag.FlagSet, args []string) error { return cli.ParseOnly(fs, args) }

// multiFlag collects a repeated string flag (--param k=v --param k2=v2).
type multiFlag = cli.Strings
