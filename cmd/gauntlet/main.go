// Command gauntlet plays game-AI strategies against exact ports of contest
// referees: conformance replays, batch evaluation, A/B self-play with
// statistics, Goptuna tuning and reports.
//
// Each subcommand lives in its own file and registers itself in init(); this
// file only dispatches. Game logic lives in referees/, never here.
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
	"strings"
	"syscall"

	"gauntlet/harness"
)

// env is what a subcommand may touch: its standard streams.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand ("eval", "replay", ...). Commands with their own
// sub-verbs ("replay hextris", "hextris score") dispatch inside run.
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

// usageError marks a bad invocation: exit status 2 instead of 1.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func main() {
	os.Exit(mainCode(os.Args[1:], &env{os.Stdin, os.Stdout, os.Stderr}))
}

// mainCode runs the CLI and returns the process exit status.
func mainCode(args []string, e *env) int {
	slog.SetDefault(slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: logLevel()})))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printHelp(e.stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "gauntlet: unknown command %q (try 'gauntlet help')\n", args[0])
		return 2
	}
	err := c.run(ctx, e, args[1:])
	if rerr := harness.RemoveParamsFiles(); rerr != nil {
		fmt.Fprintf(e.stderr, "gauntlet %s: removing the bots' values files: %v\n", c.name, rerr)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "gauntlet %s: interrupted (%v)\n", c.name, err)
		return 130
	}
	fmt.Fprintf(e.stderr, "gauntlet %s: %v\n", c.name, err)
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

func logLevel() slog.Level {
	if os.Getenv("GAUNTLET_DEBUG") != "" {
		return slog.LevelDebug
	}
	return slog.LevelInfo
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
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'gauntlet <command> -h' for the flags of a command.")
}

// newFlags makes a FlagSet whose errors come back as usage errors.
func newFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("gauntlet "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: gauntlet %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors. Positional
// arguments after the flags are returned.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	// Flags may come before, between and after the positional arguments
	// (gauntlet hextris score a.json b.json --seeds); "--" ends the flags.
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// multiFlag collects a repeated string flag (--param k=v --param k2=v2).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// subcommands dispatches "gauntlet <name> <verb> ..." to per-verb handlers,
// e.g. "replay hextris". Game files add their verbs in init().
type subcommands map[string]func(ctx context.Context, e *env, args []string) error

func (s subcommands) run(name string) func(ctx context.Context, e *env, args []string) error {
	return func(ctx context.Context, e *env, args []string) error {
		verbs := make([]string, 0, len(s))
		for v := range s {
			verbs = append(verbs, v)
		}
		sort.Strings(verbs)
		if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
			return usagef("usage: gauntlet %s %s ...", name, strings.Join(verbs, "|"))
		}
		f, ok := s[args[0]]
		if !ok {
			return usagef("unknown %s target %q (want %s)", name, args[0], strings.Join(verbs, "|"))
		}
		return f(ctx, e, args[1:])
	}
}

// replayers holds "gauntlet replay <game>"; each referee's CLI file adds one.
var replayers = subcommands{}

func init() {
	register(&command{
		name:    "replay",
		summary: "conformance replay of recorded games (JSONL in, JSONL out): replay hextris|brew|paperio",
		run:     replayers.run("replay"),
	})
}
