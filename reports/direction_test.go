package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
)

// evalLower is a lower-is-better eval (towers-like: moves) with the optimum
// of three of its four cases.
func evalLower() *results.EvalSummary {
	return &results.EvalSummary{
		Game: "moves", Strategy: "best", CaseSet: "deals:4", Run: "ev-lower", Direction: contract.Lower,
		Cases: []results.EvalCase{
			{Case: "d1", Score: 40, Turns: 40, Optimum: fp(38), Gap: fp(2)},
			{Case: "d2", Score: 35, Turns: 35, Optimum: fp(35), Gap: fp(0)},
			{Case: "d3", Score: 51, Turns: 51, Optimum: fp(47), Gap: fp(4)},
			{Case: "d4", Score: 44, Turns: 44},
		},
		Total: 170, Mean: 42.5, CI95: [2]float64{32.1, 52.9}, Games: 4,
		OptimumKnown: ip(3), AtOptimum: ip(1), MeanGap: fp(2),
	}
}

func TestEvalTablesShowTheOptimumAndTheDirection(t *testing.T) {
	s := evalLower()
	tb := EvalCaseTable(nil, s, false)
	if !strings.Contains(tb.Title, "lower is better") {
		t.Errorf("title %q", tb.Title)
	}
	opt, gap := indexOf(tb.Header, "optimum"), indexOf(tb.Header, "gap")
	if opt < 0 || gap < 0 {
		t.Fatalf("header %v lacks optimum and gap", tb.Header)
	}
	for i, want := range [][2]string{{"38", "2"}, {"35", "0"}, {"47", "4"}, {"", ""}} {
		if tb.Rows[i][opt] != want[0] || tb.Rows[i][gap] != want[1] {
			t.Errorf("row %d: optimum %q gap %q, want %q %q", i, tb.Rows[i][opt], tb.Rows[i][gap], want[0], want[1])
		}
	}
	if tb.Footer[gap] != "2" {
		t.Errorf("footer gap %q, want the mean gap 2", tb.Footer[gap])
	}
	head := EvalHeadline(s)
	for _, want := range []string{"(lower is better)", "optimum known for 3 cases: 1 at the optimum, mean gap 2"} {
		if !strings.Contains(head, want) {
			t.Errorf("headline %q lacks %q", head, want)
		}
	}
	// Higher-is-better games without an optimum keep their table.
	if tb := EvalCaseTable(nil, evalSingle(), false); indexOf(tb.Header, "optimum") >= 0 || strings.Contains(tb.Title, "lower") {
		t.Errorf("a game without optimum: %v %q", tb.Header, tb.Title)
	}
	dir := t.TempDir()
	r, err := WriteEvalReport(dir, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]string{}
	for _, f := range r.Headline {
		facts[f.Label] = f.Value
	}
	if facts["direction"] != "lower is better" || facts["at the optimum"] != "1 of 3" || facts["mean gap to the optimum"] != "2" {
		t.Errorf("report headline %v", r.Headline)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "case-scores.svg"))
	if err != nil || !strings.Contains(string(svg), "optimum") {
		t.Errorf("case-scores.svg has no optimum legend: %v", err)
	}
}

func TestABVerdictFollowsTheDirection(t *testing.T) {
	for _, c := range []struct {
		diff, lo, hi float64
		lower        bool
		want         string
	}{
		{-2, -3, -1, true, "A better (95% CI excludes 0)"},
		{-2, -3, -1, false, "B better (95% CI excludes 0)"},
		{2, 1, 3, true, "B better (95% CI excludes 0)"},
		{2, 1, 3, false, "A better (95% CI excludes 0)"},
		{-1, -3, 1, true, "A better on average, not significant at 95%"},
		{-1, -3, 1, false, "B better on average, not significant at 95%"},
		{0, 0, 0, true, "no difference"},
	} {
		s := &results.ABSummary{MeanDiff: fp(c.diff), CI95: &[2]float64{c.lo, c.hi}, Direction: lowerIf(c.lower)}
		if got := ABVerdict(s); got != c.want {
			t.Errorf("diff %v [%v, %v] lower %v: %q, want %q", c.diff, c.lo, c.hi, c.lower, got, c.want)
		}
	}
	s := abSingle()
	s.Direction = contract.Lower
	var label string
	for _, f := range abFacts(s) {
		if strings.HasPrefix(f.Label, "A − B") {
			label = f.Label
		}
	}
	if !strings.Contains(label, "lower is better") {
		t.Errorf("ab headline label %q", label)
	}
}

// A minimising study's best trial is its lowest, in the table, the headline
// and the best-so-far line.
func TestMinimizingStudy(t *testing.T) {
	s := study()
	s.Direction = contract.Lower
	b := s.Best()
	for _, tr := range s.Trials {
		if tr.State == TrialComplete && tr.Value < b.Value {
			t.Fatalf("best %d (%v), but trial %d has %v", b.Number, b.Value, tr.Number, tr.Value)
		}
	}
	tb := StudyTrialTable(s)
	for i, row := range tb.Rows {
		if strings.HasSuffix(row[0], "*") != (s.Trials[i].Number == b.Number) {
			t.Errorf("row %v: best marker wrong (best is %d)", row, b.Number)
		}
	}
	facts := studyFacts(s)
	if facts[0].Value != "minimised (lower is better)" || facts[1].Value != Num(b.Value) {
		t.Errorf("headline %v", facts)
	}
	if _, err := WriteStudyReport(t.TempDir(), s); err != nil {
		t.Fatal(err)
	}
}

// lowerIf is Lower when lower is true.
func lowerIf(lower bool) contract.Direction {
	if lower {
		return contract.Lower
	}
	return contract.Higher
}
