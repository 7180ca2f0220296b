package workflow

import (
	"context"
	"io"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
)

// EvalRequest is an eval: one entrant on a case set against the other
// seats.
type EvalRequest struct {
	Options
	Entrant   EntrantSpec
	Cases     string   // case set ("": the game's choice, else smoke)
	Lineup    string   // --opponents
	Opponents []string // --opponent
	NoOptimum bool     // do not compute each case's optimum
}

// Ran is a plan as it was played: its results, by this process and
// resumed from the store.
type Ran struct {
	Game    contract.Game
	Plan    *runner.Plan
	Results *runner.Results
}

// EvalResult is a finished eval.
type EvalResult struct {
	Ran
	Summary *results.EvalSummary
}

// Eval checks the request, plays it on the store (resuming the run there)
// with a progress bar on progress, summarises it with each case's optimum
// and records the summary as the run's.
func Eval(ctx context.Context, req EvalRequest, progress io.Writer) (res *EvalResult, err error) {
	g, err := req.ResolveGame()
	if err != nil {
		return nil, err
	}
	ent, err := req.Entrant.Entrant(req.Game)
	if err != nil {
		return nil, err
	}
	opps, err := Opponents(g, req.Lineup, req.Opponents)
	if err != nil {
		return nil, err
	}
	cases := req.Cases
	if cases == "" {
		cases = contract.DefaultCases(g, "eval", "smoke")
	}
	plan, err := runner.EvalPlan(g, cases, ent, opps, req.Run)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	rs, st, err := req.runPlan(ctx, plan, nil, progress, nil)
	if err != nil {
		return nil, err
	}
	if st != nil {
		defer closeInto(&err, st)
	}
	sum := results.SummarizeEval(rs)
	if !req.NoOptimum {
		if err := sum.AddOptima(ctx, plan, req.Jobs); err != nil {
			return nil, err
		}
	}
	if st != nil {
		if err := st.FinishRun(context.WithoutCancel(ctx), plan.Run.ID, "complete", sum.Stored()); err != nil {
			return nil, err
		}
	}
	return &EvalResult{Ran: Ran{Game: g, Plan: plan, Results: rs}, Summary: sum}, nil
}

// closeInto closes c and keeps its error in *err unless an earlier error is
// there already: for a deferred Close of a store, whose failure (a failed
// checkpoint) the user must see.
func closeInto(err *error, c io.Closer) {
	if cerr := c.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}
