package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"gauntlet/harness"
)

// botServers run an in-process bot over a game's native protocol on stdin
// and stdout, so that a built-in strategy can play in the organisers' own
// runner (or any runner of the same protocol).
var botServers = map[string]func(ctx context.Context, r io.Reader, w io.Writer, bot any) error{}

func init() {
	register(&command{
		name:    "bot",
		summary: "run a built-in strategy as an external bot speaking the game's protocol on stdin/stdout",
		run:     runBot,
	})
}

func runBot(ctx context.Context, e *env, args []string) error {
	var params multiFlag
	var paramsFile string
	var seed uint64
	fs := newFlags(e, "bot", "GAME STRATEGY[:k=v,...] [--param k=v]... [--params-file F] [--seed N]")
	fs.Var(&params, "param", "parameter k=v (repeatable)")
	fs.StringVar(&paramsFile, "params-file", "", "JSON file of parameter values (e.g. from 'gauntlet tune --best-json')")
	fs.Uint64Var(&seed, "seed", 1, "the bot's random seed")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return usagef("bot: want GAME STRATEGY, got %q", strings.Join(rest, " "))
	}
	game, spec := rest[0], rest[1]
	serve, ok := botServers[game]
	if !ok {
		var names []string
		for n := range botServers {
			names = append(names, n)
		}
		sort.Strings(names)
		return usagef("bot: game %q has no bot protocol here (games with one: %s)", game, strings.Join(names, ", "))
	}
	assign := []string(params)
	if paramsFile != "" {
		m, err := readParamsFile(paramsFile)
		if err != nil {
			return err
		}
		assign = append(paramAssignments(m), assign...)
	}
	ent, err := harness.Default.ParseEntrant(game, spec, assign...)
	if err != nil {
		return err
	}
	if ent.IsExternal() {
		return usagef("bot: %s is an external command; give a built-in strategy", spec)
	}
	b, err := ent.Bot(seed)
	if err != nil {
		return err
	}
	if err := serve(ctx, e.stdin, e.stdout, b); err != nil {
		return fmt.Errorf("bot %s %s: %w", game, ent.Label(), err)
	}
	return nil
}
