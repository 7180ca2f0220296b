package main

import (
	"context"
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/reports"
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
	var ef entrantFlags
	var caseID, lineup, out, run, storage string
	var opp multiFlag
	fs := newFlags(e, "view", "(--game G --case CASE --strategy S[:k=v,...] [--opponents LINEUP] | --run ID --case GAME-KEY [--storage URL]) --out game.html")
	fs.StringVar(&run, "run", "", "watch a game of this stored eval or ab run (its --case: the case of an eval, CASE/ab or CASE/ba of an ab)")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "with --run: the results store")
	rf.register(fs, false)
	fs.StringVar(&ef.strategy, "strategy", "", "strategy NAME[:k=v,...] or cmd:COMMAND (an external bot) in seat 0")
	fs.Var(&ef.params, "param", "parameter k=v (repeatable)")
	fs.StringVar(&ef.paramsFile, "params-file", "", "JSON file of parameter values (e.g. from 'gauntlet tune --best-json')")
	fs.StringVar(&caseID, "case", "", "the case to play (e.g. seed:3, p1/s0)")
	fs.StringVar(&lineup, "opponents", "", "other seats, e.g. greedy or simple*5 (default: the game's lineup)")
	fs.Var(&opp, "opponent", "one more opponent, e.g. 'cmd:./bot' (repeatable)")
	fs.StringVar(&out, "out", "", "the HTML file to write")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := outputFiles("--out", out); err != nil {
		return err // before the game is played
	}
	if run != "" {
		if rf.game != "" || ef.strategy != "" || lineup != "" || len(opp) > 0 {
			return usagef("--run replays a stored game: no --game, --strategy or --opponents")
		}
		return viewStored(ctx, e, storage, run, caseID, out)
	}
	g, err := rf.gameOrErr()
	if err != nil {
		return err
	}
	viewer, ok := g.(contract.Viewer)
	if !ok {
		return usagef("game %s has no replay viewer", rf.game)
	}
	if out == "" {
		return usagef("--out is required (the HTML file to write)")
	}
	if caseID == "" {
		return usagef("--case is required")
	}
	cases, err := g.Cases(caseID)
	if err != nil {
		return usagef("%v", err)
	}
	if len(cases) != 1 {
		return usagef("--case %s names %d cases; give one case (the first is %s)", caseID, len(cases), cases[0].ID)
	}
	ent, err := ef.entrant(rf.game)
	if err != nil {
		return err
	}
	var opps []*entrant.Entrant
	if g.Info().MaxSeats > 1 {
		if opps, err = opponents(g, lineup, opp); err != nil {
			return err
		}
	} else if lineup != "" || len(opp) > 0 {
		return usagef("game %s is single-player: no --opponents", rf.game)
	}
	plan, err := runner.EvalPlan(g, cases[0].ID, ent, opps, "")
	if err != nil {
		return err
	}
	opt := rf.playOptions(e)
	opt.RecordMoves = true
	m := &plan.Matches[0]
	outcome, _, err := runner.PlayMatch(ctx, plan, m, opt)
	if err != nil {
		return err
	}
	labels := make([]string, len(m.Seats))
	for seat, ei := range m.Seats {
		labels[seat] = plan.Entrants[ei].Label()
	}
	r, err := viewer.Watch(m.Case, outcome, labels)
	if err != nil {
		return err
	}
	return writeView(e, out, r, viewer)
}

// viewStored writes the viewer page of one game of a stored run.
func viewStored(ctx context.Context, e *env, storage, run, key, out string) (retErr error) {
	if key == "" {
		return usagef("--case is required (a case of the run; CASE/ab or CASE/ba for an ab run)")
	}
	if out == "" {
		return usagef("--out is required (the HTML file to write)")
	}
	if err := readStorage("--storage", storage, "--run reads a stored run"); err != nil {
		return err
	}
	st, err := store.OpenReadOnly(ctx, storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	r, v, err := results.WatchStored(ctx, st, contract.Default, run, key)
	if err != nil {
		return err
	}
	return writeView(e, out, r, v)
}

func writeView(e *env, out string, r *contract.Replay, v contract.Viewer) error {
	if err := reports.WriteReplayFile(out, r, v.Renderer()); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%s: %s, %d frames; open %s (or %s#frame=last)\n", r.Case, vsScores(r), r.Count, out, out)
	return nil
}

// vsScores is "label score, label score".
func vsScores(r *contract.Replay) string {
	s := ""
	for i, l := range r.Seats {
		if i > 0 {
			s += ", "
		}
		s += l + " " + reports.Num(r.Scores[i])
	}
	return s
}
