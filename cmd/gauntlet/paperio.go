package main

import (
	"context"
	"fmt"
	"io"

	"gauntlet/referees/paperio"
)

func init() {
	replayers["paperio"] = replayPaperio
	botServers["paperio"] = func(ctx context.Context, r io.Reader, w io.Writer, bot any) error {
		b, ok := bot.(paperio.Bot)
		if !ok {
			return fmt.Errorf("not a paperio bot")
		}
		return paperio.Serve(ctx, r, w, b)
	}
}

// replayPaperio is "gauntlet replay paperio": one trace on stdin (header
// line, then rows with tick, cmds and optional spawn), one state line per
// processed tick on stdout.
func replayPaperio(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "replay paperio", "< trace.jsonl > states.jsonl")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("replay paperio takes no arguments; got %q", rest)
	}
	return paperio.Replay(e.stdin, e.stdout)
}
