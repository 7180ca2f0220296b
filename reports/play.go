package reports

import (
	"fmt"
	"io"
	"sort"
	"strconv"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/internal/untrusted"
	"gauntlet/workflow"
)

// WritePlay writes the terminal answer of play: each seat's score, rank
// and forfeit, the conduct of external bots and the game's details.
func WritePlay(w io.Writer, res *workflow.PlayResult) error {
	t := &Table{Title: fmt.Sprintf("%s %s: %d turns, %.1f ms", res.Game, res.Case, res.Outcome.Turns, res.WallMS),
		Header: []string{"seat", "entrant", "score", "rank", "forfeit"}}
	for i, s := range res.Outcome.Seats {
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), res.Entrants[i], Num(s.Score), strconv.Itoa(s.Rank), s.Forfeit})
	}
	t.NumericRight()
	if err := t.WriteText(w); err != nil {
		return err
	}
	for i := range res.Outcome.Seats {
		// Each seat's ignored answers and answer times, in the words of ab
		// and eval (the forfeit is in the table).
		tally := results.ConductTally{Entrant: res.Entrants[i]}
		tally.Add(res.Case, &res.Outcome, i)
		c := tally.Conduct()
		c.Forfeits = 0
		for _, l := range ConductText("seat "+strconv.Itoa(i), c) {
			fmt.Fprintln(w, l)
		}
	}
	for _, k := range sortedKeys(res.Outcome.Detail) {
		if k == contract.AnswersDetailKey {
			continue // above
		}
		v := fmt.Sprint(res.Outcome.Detail[k])
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Fprintf(w, "%s: %s\n", untrusted.Line(k), untrusted.Line(v))
	}
	return writeSeatLogs(w, res.Logs)
}

// writeSeatLogs writes each bot's stderr after the game, turn by turn (its
// lines are escaped already: see botlog.Record).
func writeSeatLogs(w io.Writer, logs []workflow.SeatLog) error {
	for _, l := range logs {
		if _, err := fmt.Fprintf(w, "\nstderr of seat %d (%s), %d lines:\n%s", l.Seat, untrusted.Line(l.Entrant), l.Log.Lines(), l.Log.Text()); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
