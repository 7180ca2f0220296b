package main

import (
	"context"
	"fmt"

	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "play",
		summary: "play one case with the given entrants; optional replayable JSONL record",
		run:     runPlay,
	})
}

func runPlay(ctx context.Context, e *env, args []string) error {
	var rf runFlags
	var caseID, lineup, record string
	var extra multiFlag
	fs := newFlags(e, "play", "--game G --case C --entrants A,B [--entrant 'cmd:...'] [--record out.jsonl]")
	rf.register(fs, false)
	fs.StringVar(&caseID, "case", "", "case ID (e.g. seed:17, p14/s0) or a case set with one case")
	fs.StringVar(&lineup, "entrants", "", "entrants seat by seat, e.g. greedy,random or simple*6")
	fs.Var(&extra, "entrant", "one more entrant, e.g. 'cmd:./mybot --w 2' (repeatable; seats follow --entrants)")
	fs.StringVar(&record, "record", "", "write the game's replayable record (JSONL) to this file")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	res, err := workflow.Play(ctx, workflow.PlayRequest{Options: rf.Options, Case: caseID, Lineup: lineup, Extra: extra, Record: record})
	if err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, res)
	}
	if err := reports.WritePlay(e.stdout, res); err != nil {
		return err
	}
	if record != "" {
		fmt.Fprintf(e.stderr, "record written to %s\n", record)
	}
	return nil
}
