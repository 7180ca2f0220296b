package main

import (
	"context"

	"gauntlet/harness/contract"
	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "params",
		summary: "show an entrant's tunable parameters: a built-in strategy's, or an external command's declared placeholders",
		run:     runParams,
	})
}

func runParams(ctx context.Context, e *env, args []string) error {
	var rf runFlags
	var ef workflow.EntrantSpec
	fs := newFlags(e, "params", "--game G ENTRANT [--param k=v]... [--params-file F] [--json]")
	fs.StringVar(&rf.Game, "game", "", "game name (see 'gauntlet list')")
	fs.BoolVar(&rf.json, "json", false, "print JSON")
	fs.Var((*multiFlag)(&ef.Params), "param", "parameter k=v (repeatable)")
	fs.StringVar(&ef.ParamsFile, "params-file", "", "JSON file of parameter values")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("params: want one ENTRANT (a strategy NAME or 'cmd:COMMAND'), got %d arguments", len(rest))
	}
	if rf.Game == "" {
		return usagef("--game is required (games: %s)", workflow.GameNames())
	}
	if _, err := contract.Default.Game(rf.Game); err != nil {
		return usagef("--game: %v", err)
	}
	ef.Strategy = rest[0]
	ent, err := ef.Entrant(rf.Game)
	if err != nil {
		return err
	}
	out := reports.DescribeEntrant(rf.Game, ent)
	if rf.json {
		return writeJSON(e.stdout, out)
	}
	reports.WriteEntrant(e.stdout, out)
	return nil
}
