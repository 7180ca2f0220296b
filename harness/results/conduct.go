package results

import (
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
)

// Conduct is how an entrant's games went beyond their scores: its forfeits
// counted by reason with the first example of each, in games that say so
// (contract.Eliminator) its eliminations counted by cause the same way, the
// answers the rules ignored with the first one, and an external bot's
// answer times with a warning where they come within 10% of a limit. The
// eval and ab summaries carry one per entrant; ConductTally builds it from
// games.
type Conduct struct {
	Entrant  string        `json:"entrant"`
	Games    int           `json:"games"`
	Forfeits int           `json:"forfeits"`
	Reasons  []ReasonCount `json:"forfeit_reasons,omitempty"`
	// Eliminated counts the games the entrant was out of before their
	// end; Causes groups them by the game's cause, as Reasons does the
	// forfeits.
	Eliminated int           `json:"eliminated,omitempty"`
	Causes     []ReasonCount `json:"elimination_causes,omitempty"`
	// Ignored counts the answers the rules ignored over IgnoredGames games;
	// IgnoredFirst is the first, in case IgnoredCase.
	Ignored      int           `json:"ignored_answers,omitempty"`
	IgnoredGames int           `json:"ignored_games,omitempty"`
	IgnoredFirst string        `json:"ignored_first,omitempty"`
	IgnoredCase  string        `json:"ignored_case,omitempty"`
	Times        *TimesSummary `json:"answer_times,omitempty"`
	Warnings     []string      `json:"warnings,omitempty"`
}

// TimesSummary are an external bot's answer times over games, per kind of
// turn (see AnswerTimes), in milliseconds.
type TimesSummary struct {
	First *TimeFigures `json:"first,omitempty"`
	Later *TimeFigures `json:"later,omitempty"`
	// GameMaxMS is the most the answers of one game took in all, against
	// TotalLimitMS where the game has such a limit.
	GameMaxMS    float64 `json:"game_max_ms"`
	TotalLimitMS float64 `json:"total_limit_ms,omitempty"`
	MarginMS     float64 `json:"margin_ms,omitempty"`
}

// TimeFigures are the answer times of one kind of turn.
type TimeFigures struct {
	Answers  int     `json:"answers"`
	MeanMS   float64 `json:"mean_ms"`
	P99MS    float64 `json:"p99_ms"`
	MaxMS    float64 `json:"max_ms"`
	LimitMS  float64 `json:"limit_ms,omitempty"`
	MarginMS float64 `json:"margin_ms,omitempty"`
}

// IsZero reports whether there is nothing to say: no forfeit, no
// elimination, no ignored answer, no answer time.
func (c *Conduct) IsZero() bool {
	return c.Forfeits == 0 && c.Eliminated == 0 && c.Ignored == 0 && c.Times == nil
}

// WarnShare is how close to its limit an answer time must come to be
// warned of: within 10%.
const WarnShare = 0.9

// ConductTally accumulates one entrant's Conduct over games. The zero value
// is ready to use (set Entrant to name it, Game to count eliminations); it
// is not safe for concurrent use.
type ConductTally struct {
	Entrant string
	// Game is the game played; when it is a contract.Eliminator the tally
	// counts the entrant's eliminations (nil: none counted).
	Game   contract.Game
	c      Conduct
	kinds  ReasonTally // forfeits
	causes ReasonTally // eliminations
	times  *contract.AnswerTimes
}

// Add counts the game of case caseID in which the entrant played seat.
func (t *ConductTally) Add(caseID string, o *contract.Outcome, seat int) {
	if seat < 0 || seat >= len(o.Seats) {
		return
	}
	t.c.Games++
	if r := o.Seats[seat].Forfeit; r != "" {
		t.c.Forfeits++
		t.kinds.Add(r, caseID)
	}
	if r := contract.EliminatedOf(t.Game, o, seat); r != "" {
		t.c.Eliminated++
		t.causes.Add(r, caseID)
	}
	a := o.SeatAnswers(seat)
	if a.Ignored > 0 {
		if t.c.Ignored == 0 {
			t.c.IgnoredFirst, t.c.IgnoredCase = a.IgnoredFirst, caseID
		}
		t.c.Ignored += a.Ignored
		t.c.IgnoredGames++
	}
	if a.Times != nil {
		if t.times == nil {
			t.times = &contract.AnswerTimes{}
		}
		t.times.Merge(a.Times)
	}
}

// Conduct returns the tally so far, with the answer-time figures and
// warnings.
func (t *ConductTally) Conduct() Conduct {
	c := t.c
	c.Entrant = t.Entrant
	c.Reasons = t.kinds.Counts()
	c.Causes = t.causes.Counts()
	if t.times != nil {
		c.Times, c.Warnings = summarizeTimes(t.times)
	}
	return c
}

func summarizeTimes(a *contract.AnswerTimes) (*TimesSummary, []string) {
	s := &TimesSummary{GameMaxMS: a.GameMaxMS, TotalLimitMS: a.TotalLimitMS}
	if a.TotalLimitMS > 0 {
		s.MarginMS = a.MarginMS
	}
	var warn []string
	figures := func(name string, st contract.TimeStats, limit, margin float64) *TimeFigures {
		if st.N == 0 {
			return nil
		}
		f := &TimeFigures{Answers: st.N, MeanMS: st.MeanMS(), P99MS: st.QuantileMS(0.99), MaxMS: st.MaxMS, LimitMS: limit, MarginMS: margin}
		if limit > 0 && f.MaxMS >= WarnShare*limit {
			warn = append(warn, fmt.Sprintf("%s answers: up to %s against a limit of %s%s: within 10%% of it or over",
				name, contract.MillisF(f.MaxMS), contract.MillisF(limit), marginText(margin)))
		}
		return f
	}
	s.First = figures("first", a.First, a.FirstLimitMS, a.FirstMarginMS)
	s.Later = figures("later", a.Later, a.LimitMS, a.MarginMS)
	if a.TotalLimitMS > 0 && a.GameMaxMS >= WarnShare*a.TotalLimitMS {
		warn = append(warn, fmt.Sprintf("a game's answers took up to %s in all against a limit of %s%s: within 10%% of it or over",
			contract.MillisF(a.GameMaxMS), contract.MillisF(a.TotalLimitMS), marginText(a.MarginMS)))
	}
	return s, warn
}

func marginText(m float64) string {
	if m <= 0 {
		return ""
	}
	return " + " + contract.MillisF(m) + " margin"
}

// Conducts tallies the Conduct of every entrant of a run from its played
// games (in plan order; games not played are skipped).
func Conducts(rs *runner.Results) []Conduct {
	p := rs.Plan
	tallies := make([]ConductTally, len(p.Entrants))
	for i, e := range p.Entrants {
		tallies[i].Entrant, tallies[i].Game = e.Label(), p.Game
	}
	for i, m := range p.Matches {
		r := rs.Results[i]
		if r == nil {
			continue
		}
		for seat, ei := range m.Seats {
			if ei >= 0 && ei < len(tallies) {
				tallies[ei].Add(m.Case.ID, &r.Outcome, seat)
			}
		}
	}
	out := make([]Conduct, len(tallies))
	for i := range tallies {
		out[i] = tallies[i].Conduct()
	}
	return out
}
