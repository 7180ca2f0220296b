package reports

import (
	"fmt"
	"slices"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/internal/untrusted"
)

// CompareHeadline is the answer of a comparison of two stored runs: what
// the first entrant scored in each on the common games, how many games
// changed their result and which way, and the paired difference of its
// margin.
func CompareHeadline(c *results.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: base %s (%s) → run %s (%s)", c.Game, c.Base.ID, c.Base.Entrant, c.Run.ID, c.Run.Entrant)
	if len(c.Run.Others) > 0 && slices.Equal(c.Base.Others, c.Run.Others) {
		fmt.Fprintf(&b, "; others %s", strings.Join(c.Run.Others, ", "))
	}
	fmt.Fprintf(&b, "\n%d %s in common, %d identical; result changed in %d: %d better, %d worse (sign test p = %.3g)\n",
		c.Common, plural(c.Common, "game"), c.Identical, c.Better+c.Worse, c.Better, c.Worse, c.SignP)
	if c.Seats > 1 {
		fmt.Fprintf(&b, "points per game %.3f → %.3f; firsts %d → %d; mean rank %.2f → %.2f; forfeits %d → %d",
			c.Base.Points, c.Run.Points, c.Base.Firsts, c.Run.Firsts, c.Base.MeanRank, c.Run.MeanRank, c.Base.Forfeits, c.Run.Forfeits)
		if c.Eliminations {
			fmt.Fprintf(&b, "; eliminated %d → %d", c.Base.Eliminated, c.Run.Eliminated)
		}
		b.WriteString("\n")
		b.WriteString("margin (score less the best other seat's)")
	} else {
		b.WriteString("score")
	}
	fmt.Fprintf(&b, " %s → %s, run − base %s", Num(c.Base.Margin), Num(c.Run.Margin), signed(c.Margin.Value))
	if c.Margin.Note != "" {
		fmt.Fprintf(&b, " (%s)", c.Margin.Note)
	} else {
		fmt.Fprintf(&b, " (95%% CI %s .. %s)", signed(c.Margin.Lo), signed(c.Margin.Hi))
	}
	if c.WilcoxonP != nil {
		fmt.Fprintf(&b, ", Wilcoxon p = %.3g", *c.WilcoxonP)
	}
	if c.Direction == contract.Lower {
		b.WriteString(" (lower is better)")
	}
	return untrusted.Text(b.String()) // names come from a store
}

func signed(x float64) string {
	if x > 0 {
		return "+" + Num(x)
	}
	return Num(x)
}

// CompareTable lists the common games of a comparison: those whose result
// changed, or all of them.
func CompareTable(c *results.Comparison, all bool) *Table {
	what := "games whose result changed"
	if all {
		what = "common games"
	}
	t := &Table{Title: fmt.Sprintf("%s: %s, base %s → run %s", c.Game, what, c.Base.ID, c.Run.ID)}
	if c.Seats > 1 {
		t.Header = []string{"game", "base rank", "base score", "base margin", "run rank", "run score", "run margin", "change"}
	} else {
		t.Header = []string{"game", "base score", "run score", "change"}
	}
	for _, g := range c.Games {
		if !all && g.Change == 0 {
			continue
		}
		ch := map[int]string{1: "better", -1: "worse", 0: "same"}[g.Change]
		if g.Identical {
			ch = "identical"
		}
		if c.Seats > 1 {
			t.Rows = append(t.Rows, []string{g.Key, fmt.Sprint(g.Base.Rank), score(g.Base), Num(g.Base.Margin),
				fmt.Sprint(g.Run.Rank), score(g.Run), Num(g.Run.Margin), ch})
		} else {
			t.Rows = append(t.Rows, []string{g.Key, score(g.Base), score(g.Run), ch})
		}
	}
	t.NumericRight()
	return t
}

// score is a seat's score, marked when it forfeited or was eliminated.
func score(s results.SeatSample) string {
	switch {
	case s.Forfeit != "":
		return Num(s.Score) + " (forfeit)"
	case s.Eliminated != "":
		return Num(s.Score) + " (eliminated)"
	}
	return Num(s.Score)
}
