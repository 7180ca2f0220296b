package results

import (
	"context"
	"testing"

	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/runner"
)

// TestEvalStandings: in a three-seat line-up every entrant's record is
// counted in seat order. The duel game scores skill plus less than 4, so
// skills 9, 5 and 1 finish in that order in every game; with the line-up
// turned round, the last opponent comes first every time and the
// evaluated entrant second. Two seats keep no standings.
func TestEvalStandings(t *testing.T) {
	d := &harnesstest.Duel{Seats: 3}
	r := harnesstest.DuelRegistry(d)
	run := func(lineup ...string) *EvalSummary {
		t.Helper()
		var opps []*entrant.Entrant
		for _, o := range lineup[1:] {
			opps = append(opps, mustEntrant(t, r, o))
		}
		p, err := runner.EvalPlan(d, "seeds:20", mustEntrant(t, r, lineup[0]), opps, "")
		if err != nil {
			t.Fatal(err)
		}
		rs, err := (&runner.Runner{Jobs: 2}).Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return SummarizeEval(rs)
	}
	for _, c := range []struct {
		lineup []string
		firsts []int
		ranks  []float64
	}{
		{[]string{"fixed:skill=9", "fixed:skill=5", "fixed:skill=1"}, []int{20, 0, 0}, []float64{1, 2, 3}},
		{[]string{"fixed:skill=5", "fixed:skill=1", "fixed:skill=9"}, []int{0, 0, 20}, []float64{2, 3, 1}},
	} {
		s := run(c.lineup...)
		if len(s.Standings) != 3 {
			t.Fatalf("%v: %d standings, want 3", c.lineup, len(s.Standings))
		}
		for k, st := range s.Standings {
			if want := mustEntrant(t, r, c.lineup[k]).Label(); st.Entrant != want || st.Games != 20 || st.Firsts != c.firsts[k] || st.MeanRank != c.ranks[k] {
				t.Errorf("%v: seat %d: %+v, want %s with %d firsts and mean rank %v in 20 games",
					c.lineup, k, st, c.lineup[k], c.firsts[k], c.ranks[k])
			}
		}
		if got, want := s.Standings[0].MeanScore, s.Mean; got != want {
			t.Errorf("%v: the evaluated entrant's mean score %v, the summary's %v", c.lineup, got, want)
		}
	}
	if s := run("fixed:skill=9", "fixed:skill=1"); s.Standings != nil {
		t.Errorf("two seats: standings %+v, want none", s.Standings)
	}
}
