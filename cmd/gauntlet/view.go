package main

import (
	"context"
	"fmt"

	"gauntlet/harness/cli"
	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "view",
		summary: "play one case and write a replay viewer page (self-contained HTML)",
		run:     runView,
	})
}

func runView(ctx context.Context, e *env, args []string) error {
	var rf runFlags
	var req workflow.ViewRequest
	var out string
	fs := newFlags(e, "view", "(--game G --case CASE --strategy S[:k=v,...] [--opponents LINEUP] | --run ID --case GAME-KEY [--storage URL]) --out game.html")
	fs.StringVar(&req.Run, "run", "", "watch a game of this stored eval or ab run (its --case: the case of an eval, CASE/ab or CASE/ba of an ab)")
	rf.register(fs, false)
	fs.StringVar(&rf.Storage, "storage", store.DefaultStorage, "with --run: the results store")
	entrantFlags(fs, &req.Entrant, "strategy NAME[:k=v,...] or cmd:COMMAND (an external bot) in seat 0")
	fs.StringVar(&req.Case, "case", "", "the case to play (e.g. seed:3, p1/s0)")
	fs.StringVar(&req.Lineup, "opponents", "", "other seats, e.g. greedy or simple*5 (default: the game's lineup)")
	fs.Var((*multiFlag)(&req.Opponents), "opponent", "one more opponent, e.g. 'cmd:./bot' (repeatable)")
	fs.StringVar(&out, "out", "", "the HTML file to write")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if out == "" {
		return usagef("--out is required (the HTML file to write)")
	}
	if err := cli.OutputFiles("--out", out); err != nil {
		return err // before the game is played
	}
	req.Options = rf.Options
	r, v, err := workflow.View(ctx, req)
	if err != nil {
		return err
	}
	if err := reports.WriteReplayFile(out, r, v.Renderer()); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%s: %s, %d frames; open %s (or %s#frame=last)\n", r.Case, reports.VsScores(r), r.Count, out, out)
	return nil
}
