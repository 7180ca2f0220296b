package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
)

func init() {
	register(&command{
		name:    "play",
		summary: "play one case with the given entrants; optional replayable JSONL record",
		run:     runPlay,
	})
}

type playResult struct {
	Game     string           `json:"game"`
	Case     string           `json:"case"`
	Entrants []string         `json:"entrants"`
	Outcome  contract.Outcome `json:"outcome"`
	WallMS   float64          `json:"-"`
}

func runPlay(ctx context.Context, e *env, args []string) (retErr error) {
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
	g, err := rf.gameOrErr()
	if err != nil {
		return err
	}
	if caseID == "" {
		return usagef("--case is required")
	}
	if err := outputFiles("--record", record); err != nil {
		return err
	}
	cases, err := g.Cases(caseID)
	if err != nil {
		return usagef("--case: %v", err)
	}
	if len(cases) != 1 {
		return usagef("--case %s names %d cases; give one case ID (the first is %s)", caseID, len(cases), cases[0].ID)
	}
	var ents []*entrant.Entrant
	if lineup != "" {
		if ents, err = entrant.ParseLineup(contract.Default, rf.game, lineup); err != nil {
			return usagef("--entrants: %v", err)
		}
	}
	for _, spec := range extra {
		en, err := entrant.Parse(contract.Default, rf.game, spec)
		if err != nil {
			return usagef("--entrant: %v", err)
		}
		ents = append(ents, en)
	}
	if len(ents) == 0 {
		return usagef("--entrants is required")
	}
	info := g.Info()
	if len(ents) < info.MinSeats || len(ents) > info.MaxSeats {
		return usagef("game %s takes %d to %d players, got %d", info.Name, info.MinSeats, info.MaxSeats, len(ents))
	}
	opt := rf.playOptions(e)
	if record != "" {
		f, err := os.Create(record)
		if err != nil {
			return err
		}
		defer closeInto(&retErr, f)
		opt.Record = f
	}
	seats := make([]int, len(ents))
	for i := range seats {
		seats[i] = i
	}
	plan := &runner.Plan{Game: g, Entrants: ents}
	m := runner.Match{Key: cases[0].ID, Case: cases[0], Seats: seats}
	out, wall, err := runner.PlayMatch(ctx, plan, &m, opt)
	if err != nil {
		return err
	}
	res := playResult{Game: info.Name, Case: cases[0].ID, Outcome: out, WallMS: float64(wall) / 1e6}
	for _, en := range ents {
		res.Entrants = append(res.Entrants, en.Label())
	}
	if rf.json {
		return writeJSON(e.stdout, res)
	}
	t := &reports.Table{Title: fmt.Sprintf("%s %s: %d turns, %.1f ms", info.Name, res.Case, out.Turns, res.WallMS),
		Header: []string{"seat", "entrant", "score", "rank", "forfeit"}}
	for i, s := range out.Seats {
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), res.Entrants[i], reports.Num(s.Score), strconv.Itoa(s.Rank), s.Forfeit})
	}
	t.NumericRight()
	if err := t.WriteText(e.stdout); err != nil {
		return err
	}
	for i := range out.Seats {
		// Each seat's ignored answers and answer times, in the words of ab
		// and eval (the forfeit is in the table).
		tally := results.ConductTally{Entrant: res.Entrants[i]}
		tally.Add(res.Case, &out, i)
		c := tally.Conduct()
		c.Forfeits = 0
		for _, l := range reports.ConductText("seat "+strconv.Itoa(i), c) {
			fmt.Fprintln(e.stdout, l)
		}
	}
	for _, k := range sortedKeys(out.Detail) {
		if k == contract.AnswersDetailKey {
			continue // above
		}
		v := fmt.Sprint(out.Detail[k])
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", untrusted.Line(k), untrusted.Line(v))
	}
	if record != "" {
		fmt.Fprintf(e.stderr, "record written to %s\n", record)
	}
	return nil
}
