package workflow

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/strategies/param"
	"gauntlet/tuning/spsa"
)

// ABRequest is an A/B comparison of two entrants.
type ABRequest struct {
	Options
	A, B         string // entrant specs (--a, --b)
	AFile, BFile string // their params files
	// AParams and BParams are k=v values after those of the params files
	// (what --param is to eval).
	AParams, BParams []string
	Cases            string // "": the game's choice, else seeds:GAMES/2 (smoke for single-player games)
	Games            int    // at most this many games; 0: the whole case set
	Fillers          string // lineup of the other seats of games of 3+ players
	SPRT             string // [model:]elo0,elo1[,alpha,beta]; "": results.DefaultSPRT
	// Report is how often the interim statistics are printed beside the
	// progress bar (not with Quiet).
	Report Every
}

// ABResult is a finished A/B comparison.
type ABResult struct {
	Ran
	Summary *results.ABSummary
}

// AB checks the request, plays it on the store (resuming the run there)
// with a progress bar and interim statistics on progress, stopping early when the SPRT decides,
// and records the summary as the run's (status "stopped" after an early
// stop).
func AB(ctx context.Context, req ABRequest, progress io.Writer) (res *ABResult, err error) {
	g, err := req.ResolveGame()
	if err != nil {
		return nil, err
	}
	info := g.Info()
	plan, sp, err := req.plan(g)
	if err != nil {
		return nil, err
	}
	var stop runner.Stopper
	if info.MaxSeats > 1 && sp.Early {
		if stop, err = results.NewSPRTStopper(plan, sp); err != nil {
			return nil, err
		}
	}
	watch := func(w io.Writer) func(*runner.Result) {
		if a := newABInterim(w, req.Report, plan, sp); a != nil {
			return a.watch
		}
		return nil
	}
	rs, st, err := req.runPlan(ctx, plan, stop, progress, watch)
	if err != nil {
		return nil, err
	}
	if st != nil {
		defer closeInto(&err, st)
	}
	sum, err := results.SummarizeAB(rs, sp)
	if err != nil {
		return nil, err
	}
	if st != nil {
		rec, err := st.Run(context.WithoutCancel(ctx), plan.Run.ID)
		if err != nil {
			return nil, err
		}
		sum.CountStored(rec.GameCount)
		status := "complete"
		if sum.Stopped {
			status = "stopped"
		}
		if err := st.FinishRun(context.WithoutCancel(ctx), plan.Run.ID, status, sum.Stored()); err != nil {
			return nil, err
		}
	}
	return &ABResult{Ran: Ran{Game: g, Plan: plan, Results: rs}, Summary: sum}, nil
}

// plan checks the rest of the request and makes its plan.
func (req *ABRequest) plan(g contract.Game) (*runner.Plan, results.SPRTSpec, error) {
	info := g.Info()
	sp := results.DefaultSPRT
	if req.A == "" || req.B == "" {
		return nil, sp, cli.Usagef("--a and --b are required")
	}
	a, err := abEntrant(req.Game, "--a", req.A, req.AFile, req.AParams...)
	if err != nil {
		return nil, sp, err
	}
	b, err := abEntrant(req.Game, "--b", req.B, req.BFile, req.BParams...)
	if err != nil {
		return nil, sp, err
	}
	if req.Games < 0 {
		return nil, sp, cli.Usagef("--games %d: want a number of games >= 0 (0: the whole case set)", req.Games)
	}
	cases := req.Cases
	if cases == "" {
		switch {
		case info.MaxSeats == 1:
			cases = "smoke"
		case req.Games > 0:
			cases = fmt.Sprintf("seeds:%d", (req.Games+1)/2)
		default:
			cases = "seeds:100"
		}
		cases = contract.DefaultCases(g, "ab", cases)
	}
	var fill []*entrant.Entrant
	if req.Fillers != "" {
		if info.MaxSeats < 3 {
			return nil, sp, cli.Usagef("game %s has %d seats: no --fillers", info.Name, info.MaxSeats)
		}
		if fill, err = entrant.ParseLineup(contract.Default, info.Name, req.Fillers); err != nil {
			return nil, sp, cli.Usagef("--fillers: %v", err)
		}
	}
	if req.SPRT != "" {
		if info.MaxSeats == 1 {
			return nil, sp, cli.Usagef("--sprt: game %s is single-player; ab compares per-case scores there", info.Name)
		}
		if sp, err = results.ParseSPRT(req.SPRT); err != nil {
			return nil, sp, cli.Usagef("%v", err)
		}
	}
	plan, err := runner.ABPlan(g, cases, a, b, fill, req.Games, req.Run, map[string]any{"sprt": sp})
	if err != nil {
		return nil, sp, cli.Usagef("%v", err)
	}
	return plan, sp, nil
}

// SPSAHoldout plays the hold-out of a finished SPSA study (spsa
// --holdout): its final values (A) against its start (B) on cases, seats
// swapped, on the study's game, stored at opt.Storage as the run
// spsa.HoldoutRun names, so that the same command resumes it and the
// study's readers find it. The result is also sum.Holdout.
func SPSAHoldout(ctx context.Context, opt Options, sum *spsa.Summary, cases string, progress io.Writer) (*ABResult, error) {
	final, begin := param.Assignments(sum.Final), param.Assignments(sum.Start)
	slices.Sort(final) // the run's identity: the same command resumes it
	slices.Sort(begin)
	opt.Game = cmp.Or(sum.Source, sum.Game) // the study's game, as its --game named it
	opt.Run = spsa.HoldoutRun(sum.Study, cases)
	req := ABRequest{Options: opt, A: sum.Target, AParams: final, B: sum.Target, BParams: begin, Cases: cases}
	res, err := AB(ctx, req, progress)
	if err != nil {
		return nil, fmt.Errorf("--holdout %s: %w", cases, err)
	}
	sum.Holdout = res.Summary
	return res, nil
}
