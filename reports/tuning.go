package reports

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/internal/untrusted"
	"gauntlet/strategies/param"
	"gauntlet/tuning"
)

// WriteTuneSummary writes the terminal answer of `gauntlet tune`: the
// trials' table, then the study, its best and default configurations, the
// improvement and the notes; wall is the command's wall time.
func WriteTuneSummary(w io.Writer, s *tuning.Summary, wall time.Duration) {
	if err := tuneTrialTable(s).WriteText(w); err != nil {
		fmt.Fprintln(w, err)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "study %s: %s %s on %s (%d scored cases), objective: %s\n", s.Study, untrusted.Line(tuning.GameArg(s.Game, s.Source)), s.Strategy, s.Cases, s.Units, s.Objective)
	if len(s.Opponents) > 0 {
		fmt.Fprintf(w, "opponents: %s\n", strings.Join(s.Opponents, ", "))
	}
	if len(s.Fillers) > 0 {
		fmt.Fprintf(w, "fillers (the other seats of every game): %s\n", strings.Join(s.Fillers, ", "))
	}
	fmt.Fprintf(w, "trials: %d complete, %d pruned, %d failed, %d lost (re-run), %d running; sampler %s seed %d, pruner %s, chunk %d\n",
		s.Complete, s.Pruned, s.Failed, s.Lost, s.Running, s.Sampler, s.Seed, s.Pruner, s.Chunk)
	if s.BestTrial != nil {
		fmt.Fprintf(w, "best trial %d: value %s\n  params: %s\n", *s.BestTrial, optNum(s.BestValue), FormatParams(s.BestParams))
	} else {
		fmt.Fprintln(w, "best trial: none complete")
	}
	fmt.Fprintln(w, defaultLine(s))
	fmt.Fprintf(w, "  params: %s\n", FormatParams(s.DefaultParams))
	if s.BestTrial != nil && s.DefaultTrial != nil && *s.BestTrial == *s.DefaultTrial {
		fmt.Fprintln(w, "improvement: none, the best trial is the default configuration")
	} else if s.Improvement != nil && s.CI95 != nil {
		what := "best - default"
		if s.Direction == contract.Lower {
			what = "default - best, lower is better"
		}
		line := fmt.Sprintf("improvement (%s, paired per case): %s, 95%% CI [%s, %s]",
			what, Num(*s.Improvement), Num(s.CI95[0]), Num(s.CI95[1]))
		if s.WilcoxonP != nil {
			line += fmt.Sprintf(", Wilcoxon p = %.3g", *s.WilcoxonP)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, configsLine(s))
	if s.BestTotal != nil && s.DefaultTotal != nil {
		fmt.Fprintf(w, "official total: best %s, default %s\n", Num(*s.BestTotal), Num(*s.DefaultTotal))
	}
	if h := s.Holdout; h != nil {
		writeHoldout(w, h)
	}
	fmt.Fprintln(w, s.ReproducibleNote)
	for _, n := range s.Notes {
		fmt.Fprintln(w, "note:", untrusted.Line(n))
	}
	if s.TimedOut {
		fmt.Fprintln(w, "stopped by --timeout before the budget was spent: a trial in progress was interrupted and queued again; run the same command to resume")
	}
	fmt.Fprintf(w, "wall %.1fs\n", wall.Seconds())
}

// tuneTrialTable is the table of a study's trials: one row each, with the
// answer times and forfeits of an external entrant, and the seats
// eliminated in a game that has eliminations.
func tuneTrialTable(s *tuning.Summary) *Table {
	external, elim := false, false
	for _, tr := range s.Trials {
		if c := tr.Conduct; c != nil {
			// A built-in strategy's conduct is its eliminations alone.
			external = external || c.MaxMS > 0 || c.Forfeits > 0
			elim = elim || c.Eliminations
		}
	}
	tb := &Table{Title: "trials of study " + s.Study,
		Header: []string{"#", "state", "value", "cases", "pruned at", "params"}}
	if external {
		// The first answer of a game includes the bot's start-up.
		tb.Header = append(tb.Header, "first answer", "later answers", "forfeits")
	}
	if elim {
		// Of the games the trial played (not those it took from earlier
		// trials): the tuned entrant's, then the other seats'.
		tb.Header = append(tb.Header, "eliminated", "others eliminated")
	}
	tb.Header = append(tb.Header, "note")
	for _, tr := range s.Trials {
		pruned := ""
		if tr.PrunedAt != nil {
			pruned = fmt.Sprint(*tr.PrunedAt)
		}
		state := tr.State
		if tr.RetryOf != nil {
			state += fmt.Sprintf(" (re-run of %d)", *tr.RetryOf)
		}
		if tr.RepeatOf != nil {
			state += fmt.Sprintf(" (repeat of %d)", *tr.RepeatOf)
		}
		row := []string{fmt.Sprint(tr.Number), state, optNum(tr.Value), fmt.Sprint(tr.Cases), pruned, FormatParams(tr.Params)}
		note := tr.Reason
		switch {
		case tr.RepeatOf != nil:
			note = fmt.Sprintf("scores of trial %d taken, nothing played", *tr.RepeatOf)
		case tr.Reused > 0 && tr.RetryOf != nil:
			note = fmt.Sprintf("%d cases kept from the interrupted trial", tr.Reused)
		case tr.Reused > 0:
			note = fmt.Sprintf("%d cases taken from earlier trials with the same parameters", tr.Reused)
		}
		if tr.Base {
			note = strings.TrimPrefix(note+"; the default configuration", "; ")
		}
		if external {
			first, later, forfeits := "", "", ""
			if c := tr.Conduct; c != nil {
				if c.MaxMS > 0 {
					first, later = contract.MillisF(c.FirstMS), contract.MillisF(c.LaterMS)
				}
				forfeits = fmt.Sprintf("%d/%d", c.Forfeits, c.Games)
				if note == "" && c.FirstReason != "" {
					note = "first forfeit: " + c.FirstReason
				}
			}
			row = append(row, first, later, forfeits)
		}
		if elim {
			ours, others := "", ""
			if c := tr.Conduct; c != nil && c.Eliminations {
				ours, others = fmt.Sprintf("%d/%d", c.Eliminated, c.Games), strconv.Itoa(c.OthersEliminated)
			}
			row = append(row, ours, others)
		}
		tb.Rows = append(tb.Rows, append(row, Truncate(note, 100)))
	}
	tb.NumericRight()
	return tb
}

// FormatParams prints parameters as k=v in name order, on one line.
func FormatParams(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := m[k]
		if x, ok := v.(float64); ok {
			v = Num(x)
		}
		parts[i] = fmt.Sprintf("%s=%v", k, v)
	}
	return untrusted.Line(strings.Join(parts, " ")) // a cat choice may come from a spec file
}

// optNum is Num of *x, "-" for none.
func optNum(x *float64) string {
	if x == nil {
		return "-"
	}
	return Num(*x)
}

// Truncate shortens s to at most n runes for a table cell.
func Truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// defaultLine is the default configuration's value, or why it has none:
// "default (trial 0): value 0.41", "default (trial 0): failed (REASON)".
func defaultLine(s *tuning.Summary) string {
	what := "default"
	if s.DefaultTrial != nil {
		what = fmt.Sprintf("default (trial %d)", *s.DefaultTrial)
	}
	switch {
	case s.DefaultValue != nil:
		return fmt.Sprintf("%s: value %s", what, Num(*s.DefaultValue))
	case s.DefaultState == "":
		return what + ": not evaluated"
	case s.DefaultReason != "":
		return fmt.Sprintf("%s: %s (%s); no improvement figures", what, s.DefaultState, Truncate(s.DefaultReason, 200))
	}
	return fmt.Sprintf("%s: %s; no improvement figures", what, s.DefaultState)
}

// configsLine says how many configurations the trials evaluated, and what
// became of repeated ones.
func configsLine(s *tuning.Summary) string {
	finished := s.Complete + s.Pruned + s.Failed
	line := fmt.Sprintf("configurations: %d distinct in %d finished trials", s.Distinct, finished)
	switch {
	case s.Repeats > 0:
		line += fmt.Sprintf("; %d repeats took the scores of earlier trials without playing", s.Repeats)
	case s.Distinct < finished && !s.Deterministic:
		line += "; repeats were played again"
	}
	if s.DeterministicNote != "" {
		line += " (" + s.DeterministicNote + ")"
	}
	return line
}

// StudiesTable is the table of `gauntlet tune --list`, oldest study first.
func StudiesTable(list []tuning.StudyInfo) *Table {
	sort.SliceStable(list, func(i, j int) bool { return list[i].Created.Before(list[j].Created) })
	tb := &Table{Title: "studies", Header: []string{"study", "game", "strategy", "cases", "sampler", "trials", "complete", "pruned", "failed", "running", "best", "created"}}
	for _, s := range list {
		tb.Rows = append(tb.Rows, []string{s.Name, untrusted.Line(tuning.GameArg(s.Game, s.Source)), s.Strategy, s.Cases, s.Sampler, fmt.Sprint(s.Trials), fmt.Sprint(s.Complete),
			fmt.Sprint(s.Pruned), fmt.Sprint(s.Failed), fmt.Sprint(s.Running), optNum(s.Best), s.Created.UTC().Format(time.DateTime)})
	}
	tb.NumericRight()
	return tb
}

// TuningStudy converts a stored study (and its summary, for the objective,
// the default value and the improvement) into the plain data a report
// takes. Categorical parameters (string values) become the index of their
// choice; reg, when it knows the strategy, gives their declared order and
// the log-scale parameters.
func TuningStudy(reg *contract.Registry, rec *tuning.StudyRecord, sum *tuning.Summary) *Study {
	s := &Study{Name: rec.Name, Game: rec.Spec.Game, Strategy: rec.Spec.Strategy, Cases: rec.Spec.Cases,
		Params: append([]string{}, rec.Spec.Space...), Choices: map[string][]string{}, Direction: rec.Spec.Direction,
		Objective: rec.Spec.Objective()}
	for _, u := range rec.Units {
		name := u.Case
		if u.Opponent != "" {
			name += " vs " + u.Opponent
		}
		s.Units = append(s.Units, name)
	}
	// Every parameter seen in a trial is shown, searched ones first.
	known := map[string]bool{}
	for _, p := range s.Params {
		known[p] = true
	}
	var extra []string
	choices := map[string]map[string]bool{}
	for _, t := range rec.Trials {
		for k, v := range t.Params {
			if !known[k] {
				known[k] = true
				extra = append(extra, k)
			}
			if str, ok := v.(string); ok {
				if choices[k] == nil {
					choices[k] = map[string]bool{}
				}
				choices[k][str] = true
			}
		}
	}
	sort.Strings(extra)
	s.Params = append(s.Params, extra...)
	// Choices in their declared order when the strategy is registered here,
	// else the names seen, sorted; log-scale parameters get a log axis.
	var specs param.Specs
	if st, err := reg.Strategy(rec.Spec.Game, rec.Spec.Strategy); err == nil {
		specs = st.Params
	}
	declared := map[string]param.Spec{}
	for _, sp := range specs {
		declared[sp.Name] = sp
	}
	for k, set := range choices {
		var list []string
		if sp, ok := declared[k]; ok && sp.Kind == param.Categorical {
			list = append(list, sp.Choices...)
			for _, c := range list {
				delete(set, c)
			}
		}
		var rest []string
		for c := range set {
			rest = append(rest, c)
		}
		sort.Strings(rest)
		s.Choices[k] = append(list, rest...)
	}
	for _, sp := range specs {
		if sp.Kind == param.LogFloat {
			if s.Log == nil {
				s.Log = map[string]bool{}
			}
			s.Log[sp.Name] = true
		}
	}
	for _, t := range rec.Trials {
		tr := Trial{Number: t.Number, State: t.State, Value: t.Value, Params: map[string]float64{},
			Scores: t.Scores}
		for k, v := range t.Params {
			if x, ok := paramNumber(v, s.Choices[k]); ok {
				tr.Params[k] = x
			}
		}
		for _, st := range t.Intermediate {
			tr.Intermediate = append(tr.Intermediate, Step{Step: st.Step, Value: st.Value})
		}
		s.Trials = append(s.Trials, tr)
	}
	if sum != nil {
		s.DefaultValue, s.Improvement, s.CI95, s.WilcoxonP = sum.DefaultValue, sum.Improvement, sum.CI95, sum.WilcoxonP
		s.Notes = append(s.Notes, sum.Notes...)
		if sum.DefaultValue == nil && sum.DefaultState != "" {
			s.Notes = append(s.Notes, "the default configuration"+strings.TrimPrefix(defaultLine(sum), "default"))
		}
		s.Notes = append(s.Notes, configsLine(sum))
	}
	return s
}

// paramNumber turns a parameter value in Goptuna's external representation
// into a number: itself, or the index of a categorical choice.
func paramNumber(v any, choices []string) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		for i, c := range choices {
			if c == x {
				return float64(i), true
			}
		}
	}
	return 0, false
}

// writeHoldout is the hold-out's lines of a study summary.
func writeHoldout(w io.Writer, h *tuning.Holdout) {
	what := "best - default"
	if h.Minimize {
		what += ", lower is better"
	}
	fmt.Fprintf(w, "held out (%s, %d scored cases): best trial %d %s, default %s\n", h.Cases, h.Units, h.BestTrial, Num(h.BestValue), Num(h.BaseValue))
	line := fmt.Sprintf("  difference (%s, paired per case): %s, 95%% CI [%s, %s]; %d better, %d worse, %d equal (sign test p = %.3g",
		what, Num(h.Diff), Num(h.DiffLo), Num(h.DiffHi), h.Better, h.Worse, h.Equal, h.SignP)
	if h.WilcoxonP != nil {
		line += fmt.Sprintf(", Wilcoxon p = %.3g", *h.WilcoxonP)
	}
	fmt.Fprintln(w, line+")")
}
