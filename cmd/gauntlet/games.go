package main

import (
	"context"
	"fmt"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/workflow"
)

// Everything a game offers beyond playing (replay, a bot protocol, tools of
// its own) is found here in the registry, through the optional interfaces
// of harness/abilities.go: this package names no game.

func init() {
	register(&command{
		name:    "replay",
		summary: "conformance replay of a game's recorded games (JSONL in, JSONL out): replay GAME [flags]",
		run:     runReplay,
	})
	register(&command{
		name:    "bot",
		summary: "run a built-in strategy as an external bot speaking the game's protocol on stdin/stdout: bot GAME STRATEGY",
		run:     runBot,
	})
}

// runReplay is "gauntlet replay GAME [flags]".
func runReplay(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		have := workflow.GamesWith(func(g contract.Game) bool { _, ok := g.(contract.Replayer); return ok })
		return usagef("usage: gauntlet replay GAME [flags] < records.jsonl (games: %s)", strings.Join(have, "|"))
	}
	r, err := workflow.AbilityGame[contract.Replayer](args[0], "replay")
	if err != nil {
		return err
	}
	return r.Replay(ctx, e.io(), args[1:])
}

// gameToolCommand is "gauntlet GAME VERB ..." for a registered game with
// tools of its own (a command of the same name wins).
func gameToolCommand(name string) (*command, bool) {
	g, err := contract.Default.Game(name)
	if err != nil || len(contract.ToolsOf(g)) == 0 {
		return nil, false
	}
	return toolCommand(g), true
}

// toolCommands lists the games' tool commands, by game name.
func toolCommands() []*command {
	var out []*command
	for _, g := range contract.Default.Games() {
		if _, taken := commands[g.Info().Name]; !taken && len(contract.ToolsOf(g)) > 0 {
			out = append(out, toolCommand(g))
		}
	}
	return out
}

func toolCommand(g contract.Game) *command {
	name := g.Info().Name
	tools := contract.ToolsOf(g)
	var verbs []string
	for _, t := range tools {
		verbs = append(verbs, t.Name)
	}
	return &command{
		name:    name,
		summary: fmt.Sprintf("%s's own tools: %s ('gauntlet list --game %s' says what each does)", name, strings.Join(verbs, ", "), name),
		run: func(ctx context.Context, e *env, args []string) error {
			if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
				return usagef("usage: gauntlet %s %s ...", name, strings.Join(verbs, "|"))
			}
			t, err := contract.FindTool(g, args[0])
			if err != nil {
				return err
			}
			return t.Run(ctx, e.io(), args[1:])
		},
	}
}

// runBot is "gauntlet bot GAME STRATEGY": a built-in strategy served over
// the game's native protocol on stdin and stdout, so that it can play in the
// organisers' own runner (or any runner of the same protocol).
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
		return usagef("want GAME STRATEGY, got %q", strings.Join(rest, " "))
	}
	assign, err := workflow.FileAssignments(paramsFile)
	if err != nil {
		return err
	}
	return workflow.ServeBot(ctx, e.io(), rest[0], rest[1], append(assign, params...), seed)
}
