package main

import (
	"context"

	"gauntlet/referees/brew"
)

func init() {
	replayers["brew"] = replayBrew
}

// replayBrew is "gauntlet replay brew [--inputs]": recorded games (JSON
// lines with seed, league and actions) on stdin, one result line per game
// on stdout, in order.
func replayBrew(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "replay brew", "[--inputs] < games.jsonl > results.jsonl")
	inputs := fs.Bool("inputs", false, "also write every turn's full input text (field \"inputs\")")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("replay brew takes no arguments; got %q", rest)
	}
	return brew.Replay(ctx, e.stdin, e.stdout, *inputs)
}
