package workflow

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/stats"
)

// DefaultReportPeriod is how often ab prints its interim statistics
// without --report-every.
const DefaultReportPeriod = 10 * time.Second

// Every is how often a command prints interim statistics (--report-every):
// every Games games, or every Period; Off: never. The zero value is every
// DefaultReportPeriod.
type Every struct {
	Games  int
	Period time.Duration
	Off    bool
}

// String is the flag's value as Set reads it.
func (e *Every) String() string {
	switch {
	case e == nil:
		return ""
	case e.Off:
		return "0"
	case e.Games > 0:
		return strconv.Itoa(e.Games)
	case e.Period > 0:
		return e.Period.String()
	}
	return DefaultReportPeriod.String()
}

// Set reads a number of games (200), a duration (30s) or 0 (never).
func (e *Every) Set(s string) error {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 {
			return fmt.Errorf("%d: want a number of games >= 0 (0: no interim statistics)", n)
		}
		*e = Every{Games: n, Off: n == 0}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q: want a number of games (200), a duration (30s) or 0 (none)", s)
	}
	*e = Every{Period: d, Off: d == 0}
	return nil
}

// due reports whether a report is due after n games, the last one having
// been made after last games at time at.
func (e Every) due(n, last int, at, now time.Time) bool {
	switch {
	case e.Off:
		return false
	case e.Games > 0:
		return n-last >= e.Games
	}
	period := e.Period
	if period <= 0 {
		period = DefaultReportPeriod
	}
	return now.Sub(at) >= period
}

// abInterim prints an ab run's interim statistics while it plays: every so
// often, the summary SummarizeAB computes on the results known so far, in
// one line. It is the Runner's Watch, so it sees the results one at a time.
type abInterim struct {
	w       io.Writer
	tty     bool
	every   Every
	sp      results.SPRTSpec // the run's test, evaluated without stopping
	shown   bool             // the LLR and its bounds are shown (--sprt)
	rs      runner.Results
	n, last int // results seen; results seen at the last report
	counted int // games the last line counted
	at      time.Time
	cost    time.Duration // what the last summary took
}

// reportShare bounds the time the interim lines take: a summary reads every
// game so far, so with lines due every game (--report-every 1) a run of
// 6,000 fast games took 78 s instead of 0.4 s. Once a summary costs
// freeCost or more, a line waits until reportShare times the last one's
// cost has passed since the last line, which keeps the lines under
// 1/reportShare of the run's time; cheaper summaries (the first thousand
// games or so) cost a fraction of a second in all. A line due after the
// plan's last game never waits: the last line says what the run ends with.
const (
	reportShare = 10
	freeCost    = time.Millisecond
)

// waits reports whether a due line must wait at now (see reportShare).
func (a *abInterim) waits(now time.Time) bool {
	return a.cost >= freeCost && now.Sub(a.at) < reportShare*a.cost
}

// newABInterim returns the interim reporter of plan to w, or nil when
// every is Off or w is nil.
func newABInterim(w io.Writer, every Every, plan *runner.Plan, sp results.SPRTSpec) *abInterim {
	if every.Off || w == nil {
		return nil
	}
	a := &abInterim{w: w, tty: isTerminal(w), every: every, sp: sp, shown: sp.Early, at: time.Now()}
	// The run stops when its test decides, before a report could show
	// the decision: evaluated on the results so far, without stopping, the
	// test gives the figures the run's own summary would give on them.
	a.sp.Early = false
	a.rs = runner.Results{Plan: plan, Results: make([]*runner.Result, len(plan.Matches))}
	return a
}

// watch takes the next result and prints a line when one is due.
func (a *abInterim) watch(r *runner.Result) {
	if r.Index < 0 || r.Index >= len(a.rs.Results) || a.rs.Results[r.Index] != nil {
		return
	}
	a.rs.Results[r.Index] = r
	a.n++
	now := time.Now()
	if !a.every.due(a.n, a.last, a.at, now) || a.waits(now) && a.n < len(a.rs.Results) {
		return // a due line waits for its share, but the last game's never
	}
	a.last, a.at = a.n, now
	s, line := a.summary()
	a.cost = time.Since(now)
	if s != nil && s.Games == a.counted {
		// No more games counted than at the last line (games count in plan
		// order, up to the first one not yet played): nothing new to say.
		return
	}
	if s != nil {
		a.counted = s.Games
	}
	if a.tty {
		line = "\r\x1b[K" + line // over the progress bar, which is drawn again after it
	}
	// A report that cannot be written is no reason to stop the run.
	_, _ = fmt.Fprintln(a.w, line)
}

// summary is the summary of the results so far and its interim line (a
// nil summary: the line says why there is none).
func (a *abInterim) summary() (*results.ABSummary, string) {
	s, err := results.SummarizeAB(&a.rs, a.sp)
	if err != nil {
		return nil, "ab: interim statistics: " + err.Error()
	}
	return s, ABInterimLine(s, a.shown)
}

// ABInterimLine is ab's interim statistics line of a summary: the games it
// counts of those planned, W/D/L, score, Elo ± 95% CI and, when llr, the
// LLR with its bounds (for single-player games the mean difference A − B
// and the cases each entrant did better on).
func ABInterimLine(s *results.ABSummary, llr bool) string {
	if s.SPRTConfig == nil { // a single-player game
		if s.MeanDiff == nil || s.CI95 == nil || s.BetterA == nil || s.BetterB == nil {
			return fmt.Sprintf("ab: %d/%d games: no case played by both entrants yet", s.Games, s.Planned)
		}
		return fmt.Sprintf("ab: %d/%d games: A − B %s (95%% CI %s .. %s); A better on %d cases, B on %d",
			s.Games, s.Planned, num(*s.MeanDiff), num(s.CI95[0]), num(s.CI95[1]), *s.BetterA, *s.BetterB)
	}
	line := fmt.Sprintf("ab: %d/%d games: +%d =%d -%d, score %.3f, Elo %+.1f (95%% CI %+.1f .. %+.1f)",
		s.Games, s.Planned, s.Wins, s.Draws, s.Losses, s.Score, s.Elo, s.EloCI95[0], s.EloCI95[1])
	if !llr {
		return line
	}
	sp := *s.SPRTConfig
	line += fmt.Sprintf(", LLR %.2f", s.LLR)
	if t, err := stats.NewSPRT(sp.Elo0, sp.Elo1, sp.Alpha, sp.Beta, sp.EloModel()); err == nil { // the run checked it
		lo, hi := t.Bounds()
		line += fmt.Sprintf(" (%.2f, %.2f)", lo, hi)
	}
	return line + fmt.Sprintf(" %v", sp)
}

// num formats x as reports.Num does: an integer whole, else with 1 to 4
// decimals by its size.
func num(x float64) string {
	switch ax := math.Abs(x); {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "-"
	case x == math.Trunc(x) && ax < 1e15:
		return strconv.FormatInt(int64(x), 10)
	case ax >= 1000:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case ax >= 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// isTerminal reports whether w is a terminal (a progress bar is redrawn in
// place there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
