package main

import (
	"context"

	"gauntlet/harness/contract"
	"gauntlet/reports"
)

func init() {
	register(&command{
		name:    "list",
		summary: "games, case sets, strategies and their parameters",
		run:     runList,
	})
}

func runList(ctx context.Context, e *env, args []string) error {
	var asJSON bool
	var only string
	fs := newFlags(e, "list", "[--game G] [--json]")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.StringVar(&only, "game", "", "only this game")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	games, err := reports.ListGames(contract.Default, only)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, games)
	}
	reports.WriteGames(e.stdout, games)
	return nil
}
