package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/internal/botlog"
	"gauntlet/internal/untrusted"
)

// Num formats a score: integers without decimals, others with up to 4
// significant decimals; NaN and Inf as "-".
func Num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', decimals(x), 64)
}

func decimals(x float64) int {
	switch ax := math.Abs(x); {
	case ax >= 1000:
		return 1
	case ax >= 10:
		return 2
	default:
		return 4
	}
}

// PlusMinus formats "mean ± half-width" of an interval: the half-width to
// two significant digits and the mean to as many decimals ("79.14 ± 0.13",
// "54.1 ± 3.9", "755 ± 455"); digits finer than the interval's say nothing.
func PlusMinus(mean, lo, hi float64) string {
	hw := (hi - lo) / 2
	if !(hw > 0) || math.IsInf(hw, 0) || math.IsNaN(mean) || math.IsInf(mean, 0) {
		return fmt.Sprintf("%s ± %s", Num(mean), Num(hw))
	}
	d := min(max(1-int(math.Floor(math.Log10(hw))), 0), 8)
	return strconv.FormatFloat(mean, 'f', d, 64) + " ± " + strconv.FormatFloat(hw, 'f', d, 64)
}

// detailColumns lists the detail keys shown as columns: the game's choice
// when it makes one (contract.DetailColumner) and the bots' PDATA values
// (pdata.KEY), else every key whose values are short scalars.
func detailColumns(g contract.Game, cases []results.EvalCase) []string {
	if dc, ok := g.(contract.DetailColumner); ok {
		return append(slices.Clone(dc.DetailColumns()), pdataColumns(cases)...)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		for k, v := range c.Detail {
			switch x := v.(type) {
			case float64, int, int64, bool:
				seen[k] = true
			case string:
				if len(x) <= 24 {
					seen[k] = true
				}
			}
		}
	}
	cols := make([]string, 0, len(seen))
	for k := range seen {
		cols = append(cols, k)
	}
	sort.Strings(cols)
	return cols
}

func detailCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return Num(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
}

// EvalCaseTable is the per-case table of an eval. Games that know the
// optimum of a case (contract.OptimumFinder, see EvalSummary.AddOptima) get
// an optimum and a gap column; the title says when lower scores are better.
func EvalCaseTable(g contract.Game, s *results.EvalSummary, wall bool) *Table {
	multi := len(s.Opponents) > 0
	cols := detailColumns(g, s.Cases)
	t := &Table{Title: fmt.Sprintf("%s: %s on %s (%d games%s)", s.Game, s.Strategy, s.CaseSet, s.Games, lowerNote(s.Direction))}
	t.Header = []string{"case"}
	hasGroup := len(s.Groups) > 0
	if hasGroup {
		t.Header = append(t.Header, "group")
	}
	t.Header = append(t.Header, "score")
	optimum := s.OptimumKnown != nil
	if optimum {
		t.Header = append(t.Header, "optimum", "gap")
	}
	if multi {
		t.Header = append(t.Header, "rank", "opponents")
	}
	t.Header = append(t.Header, "turns")
	t.Header = append(t.Header, cols...)
	if s.Eliminations {
		t.Header = append(t.Header, "eliminated")
	}
	t.Header = append(t.Header, "forfeit")
	if wall {
		t.Header = append(t.Header, "ms")
	}
	t.Rows = make([][]string, 0, len(s.Cases))
	for _, c := range s.Cases {
		row := make([]string, 1, len(t.Header))
		row[0] = c.Case
		if hasGroup {
			row = append(row, c.Group)
		}
		row = append(row, Num(c.Score))
		if optimum {
			row = append(row, optCell(c.Optimum), optCell(c.Gap))
		}
		if multi {
			opp := make([]string, len(c.OpponentScores))
			for i, o := range c.OpponentScores {
				opp[i] = Num(o)
			}
			row = append(row, strconv.Itoa(c.Rank), strings.Join(opp, " "))
		}
		row = append(row, strconv.Itoa(c.Turns))
		for _, k := range cols {
			row = append(row, detailCell(c.Detail[k]))
		}
		if s.Eliminations {
			row = append(row, c.Eliminated)
		}
		row = append(row, c.Forfeit)
		if wall {
			row = append(row, strconv.FormatFloat(c.WallMS, 'f', 1, 64))
		}
		t.Rows = append(t.Rows, row)
	}
	t.NumericRight()
	t.Right[0] = false
	foot := make([]string, len(t.Header))
	foot[0] = "mean"
	foot[indexOf(t.Header, "score")] = PlusMinus(s.Mean, s.CI95[0], s.CI95[1])
	if optimum && s.MeanGap != nil {
		foot[indexOf(t.Header, "gap")] = Num(*s.MeanGap)
	}
	t.Footer = foot
	return t
}

// optCell formats an optional number ("" when unknown).
func optCell(x *float64) string {
	if x == nil {
		return ""
	}
	return Num(*x)
}

// lowerNote is ", lower is better" for games whose scores are costs.
func lowerNote(d contract.Direction) string {
	if d == contract.Lower {
		return ", lower is better"
	}
	return ""
}

// EvalGroupTable is the per-group (official aggregation) table, or nil when
// the game has none.
func EvalGroupTable(s *results.EvalSummary) *Table {
	if len(s.Groups) == 0 {
		return nil
	}
	t := &Table{Title: fmt.Sprintf("%s: %s, official aggregation per group%s", s.Game, s.Strategy, lowerNote(s.Direction)),
		Header: []string{"group", "cases", "score"}}
	cases := 0
	for _, g := range s.Groups {
		t.Rows = append(t.Rows, []string{g.Group, strconv.Itoa(g.Cases), Num(g.Score)})
		cases += g.Cases
	}
	t.NumericRight()
	t.Footer = []string{"total", strconv.Itoa(cases), Num(s.Total)}
	return t
}

// EvalStandingsTable is every entrant's record in a line-up of three
// seats or more (first places, mean rank, mean score, forfeits, and
// eliminations where the game has them), in seat order, or nil.
func EvalStandingsTable(s *results.EvalSummary) *Table {
	if len(s.Standings) == 0 {
		return nil
	}
	t := &Table{Title: fmt.Sprintf("%s: every seat of the line-up (%d games%s)", s.Game, s.Games, lowerNote(s.Direction)),
		Header: []string{"seat", "entrant", "games", "first", "first %", "mean rank", "mean score", "forfeits"}}
	if s.Eliminations {
		t.Header = append(t.Header, "eliminated")
	}
	for k, st := range s.Standings {
		row := []string{strconv.Itoa(k), st.Entrant, strconv.Itoa(st.Games), strconv.Itoa(st.Firsts),
			fmt.Sprintf("%.1f", 100*float64(st.Firsts)/float64(max(st.Games, 1))),
			fmt.Sprintf("%.2f", st.MeanRank), Num(st.MeanScore), strconv.Itoa(st.Forfeits)}
		if s.Eliminations {
			row = append(row, strconv.Itoa(st.Eliminated))
		}
		t.Rows = append(t.Rows, row)
	}
	t.NumericRight()
	return t
}

// EvalHeadline is the one-paragraph summary printed after the tables.
func EvalHeadline(s *results.EvalSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s on %s: %d games, total %s, mean %s (95%% CI %s .. %s)",
		s.Game, s.Strategy, s.CaseSet, s.Games, Num(s.Total), Num(s.Mean), Num(s.CI95[0]), Num(s.CI95[1]))
	if s.Direction == contract.Lower {
		b.WriteString(" (lower is better)")
	}
	if s.FirstRate != nil {
		fmt.Fprintf(&b, ", first place %.1f%%, mean rank %.2f", 100**s.FirstRate, *s.MeanRank)
	}
	if s.OptimumKnown != nil {
		fmt.Fprintf(&b, ", optimum known for %d cases: %d at the optimum", *s.OptimumKnown, *s.AtOptimum)
		if s.MeanGap != nil {
			fmt.Fprintf(&b, ", mean gap %s", Num(*s.MeanGap))
		}
	}
	if s.Forfeits > 0 {
		fmt.Fprintf(&b, ", %d forfeits", s.Forfeits)
	}
	if s.Missing > 0 {
		fmt.Fprintf(&b, ", %d cases missing", s.Missing)
	}
	return untrusted.Line(b.String()) // names come from the command line or a store
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// pdataColumns lists the PDATA keys of the cases' details (botlog.DetailKey),
// sorted.
func pdataColumns(cases []results.EvalCase) []string {
	seen := map[string]bool{}
	for _, c := range cases {
		for k := range c.Detail {
			if botlog.IsDetailKey(k) {
				seen[k] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
