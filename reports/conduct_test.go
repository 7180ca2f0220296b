package reports

import (
	"slices"
	"strings"
	"testing"

	"gauntlet/harness/results"
	"gauntlet/tuning"
)

func TestConductText(t *testing.T) {
	c := results.Conduct{Entrant: "cmd:./bot", Games: 20, Forfeits: 3,
		Reasons: []results.ReasonCount{
			{Kind: "timeout in round #: …", Count: 2, First: "timeout in round 1: answered after 2,002 ms, limit 1,000 ms + margin 250 ms", Case: "seed:1"},
			{Kind: "crashed in round #: exit status #", Count: 1, First: "crashed in round 4: exit status 3", Case: "seed:9"},
		},
		Eliminated: 4, Causes: []results.ReasonCount{
			{Kind: "line crossed by other player", Count: 3, First: "line crossed by other player", Case: "seed:2"},
			{Kind: "faced the border", Count: 1, First: "faced the border", Case: "seed:7"},
		},
		Ignored: 97, IgnoredGames: 1, IgnoredFirst: `"BREW 9999": no such id for this verb (round 1)`, IgnoredCase: "seed:3",
		Times: &results.TimesSummary{
			First: &results.TimeFigures{Answers: 20, MeanMS: 1004.2, P99MS: 1005, MaxMS: 1005.4, LimitMS: 1000, MarginMS: 250},
			Later: &results.TimeFigures{Answers: 800, MeanMS: 52.26, P99MS: 58.1, MaxMS: 61, LimitMS: 50, MarginMS: 20},
		},
		Warnings: []string{"later answers: up to 61 ms against a limit of 50 ms + 20 ms margin: within 10% of it or over"},
	}
	want := []string{
		"A forfeits: 3 of 20 games",
		"A   2 × timeout in round 1: answered after 2,002 ms, limit 1,000 ms + margin 250 ms (first in seed:1)",
		"A   1 × crashed in round 4: exit status 3 (seed:9)",
		"A eliminated: 4 of 20 games",
		"A   3 × line crossed by other player (first in seed:2)",
		"A   1 × faced the border (seed:7)",
		`A ignored answers: 97 in 1 game; first "BREW 9999": no such id for this verb (round 1), in seed:3`,
		"A answer times: first mean 1,004 ms, p99 1,005 ms, max 1,005 ms (limit 1,000 ms + 250 ms margin); " +
			"later mean 52.3 ms, p99 58.1 ms, max 61 ms (limit 50 ms + 20 ms margin)",
		"A warning: later answers: up to 61 ms against a limit of 50 ms + 20 ms margin: within 10% of it or over",
	}
	got := ConductText("A", c)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if lines := ConductText("", results.Conduct{Games: 5}); len(lines) != 0 {
		t.Fatalf("nothing to say, said %q", lines)
	}
	tb := ConductTable("t", []string{"A"}, []results.Conduct{c})
	if tb == nil || len(tb.Rows) != 8 || tb.Rows[0][0] != "A = cmd:./bot" || tb.Rows[2][1] != "eliminated" ||
		tb.Rows[2][2] != "3" || tb.Rows[4][1] != "ignored answers" || tb.Rows[5][1] != "first answer times" {
		t.Fatalf("table %+v", tb)
	}
	if ConductTable("t", nil, []results.Conduct{{Games: 3}}) != nil {
		t.Fatal("a table of nothing")
	}
}

// TestEvalTablesShowEliminations: in a game with eliminations the case
// table has each game's cause and the standings each entrant's count;
// without, neither column.
func TestEvalTablesShowEliminations(t *testing.T) {
	s := &results.EvalSummary{Game: "g", Strategy: "a", Opponents: []string{"b", "c"}, Games: 2, Eliminations: true,
		Cases:     []results.EvalCase{{Case: "seed:1", Score: 3, Rank: 2, Eliminated: "faced the border"}, {Case: "seed:2", Score: 9, Rank: 1}},
		Standings: []results.EvalStanding{{Entrant: "a", Games: 2, Eliminated: 1}, {Entrant: "b", Games: 2}, {Entrant: "c", Games: 2, Eliminated: 2}}}
	ct := EvalCaseTable(nil, s, false)
	col := slices.Index(ct.Header, "eliminated")
	if col < 0 || ct.Rows[0][col] != "faced the border" || ct.Rows[1][col] != "" {
		t.Fatalf("case table %q %q", ct.Header, ct.Rows)
	}
	st := EvalStandingsTable(s)
	col = slices.Index(st.Header, "eliminated")
	if col < 0 || st.Rows[0][col] != "1" || st.Rows[1][col] != "0" || st.Rows[2][col] != "2" {
		t.Fatalf("standings %q %q", st.Header, st.Rows)
	}
	s.Eliminations = false
	if slices.Contains(EvalCaseTable(nil, s, false).Header, "eliminated") || slices.Contains(EvalStandingsTable(s).Header, "eliminated") {
		t.Fatal("a game without eliminations has the column")
	}
}

// TestTrialTableShowsEliminations: a study's trial table has the answer
// columns only for an external entrant and the elimination columns only in
// a game with eliminations.
func TestTrialTableShowsEliminations(t *testing.T) {
	s := &tuning.Summary{Study: "s", Trials: []tuning.TrialRow{
		{Number: 0, State: "complete", Conduct: &tuning.TrialConduct{Games: 10, Eliminations: true, Eliminated: 2, OthersEliminated: 5}},
		{Number: 1, State: "complete", Conduct: &tuning.TrialConduct{Games: 4, Eliminations: true}},
		{Number: 2, State: "complete"},
	}}
	tb := tuneTrialTable(s)
	ours, others := slices.Index(tb.Header, "eliminated"), slices.Index(tb.Header, "others eliminated")
	if slices.Contains(tb.Header, "forfeits") || ours < 0 || others < 0 {
		t.Fatalf("header %q", tb.Header)
	}
	if tb.Rows[0][ours] != "2/10" || tb.Rows[0][others] != "5" || tb.Rows[1][ours] != "0/4" || tb.Rows[2][ours] != "" {
		t.Fatalf("rows %q", tb.Rows)
	}
	s.Trials[0].Conduct = &tuning.TrialConduct{Games: 10, Forfeits: 1, MaxMS: 40}
	s.Trials[1].Conduct = nil
	tb = tuneTrialTable(s)
	if !slices.Contains(tb.Header, "forfeits") || slices.Contains(tb.Header, "eliminated") {
		t.Fatalf("an external bot in a game without eliminations: header %q", tb.Header)
	}
}
