package contract

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// TimeLimits are a game's time limits on an external bot as its contest
// platform set them, the margins gauntlet adds by default, and which
// time-limit options apply to the game. A zero limit is one the platform
// did not have.
type TimeLimits struct {
	// Turn limits each answer (each after the first, where FirstTurn is
	// set); for a game answered once (hextris) it is the whole run.
	Turn time.Duration
	// FirstTurn limits the first answer of a game (0: the first answer has
	// the Turn limit).
	FirstTurn time.Duration
	// Total limits the sum of a bot's answer times in one game (0: none).
	Total time.Duration
	// Margin is added to Turn and Total, FirstTurnMargin to FirstTurn,
	// unless the options set their own (PlayOptions.TimeMargin).
	Margin          time.Duration
	FirstTurnMargin time.Duration
	// NoTurnTime and NoFirstTurnTime say why PlayOptions.TurnTime and
	// FirstTurnTime (--turn-time, --first-turn-time) do not apply to the
	// game; "" when they do.
	NoTurnTime      string
	NoFirstTurnTime string
	// Step, when set, is the unit limits are given in (hextris passes whole
	// seconds to its solver's -t).
	Step time.Duration
	// Measured says how an answer is timed, for people ("from the end of
	// the write of the turn input to the arrival of the answer's newline").
	Measured string
	// Answers is the most answers a bot gives in one game of a game without
	// a Total limit (brew: 100 rounds; 0: one), for the default game cap.
	Answers int
}

// Bounds on the time-limit options: under MinLimit no process answers (the
// pipe and a process wake-up alone take tens of microseconds, more under
// load); over MaxLimit or MaxMargin a value is a typo, not a time limit.
const (
	MinLimit  = time.Millisecond
	MaxLimit  = 24 * time.Hour
	MaxMargin = time.Hour
)

// Bounds on the game cap (--game-timeout): DefaultGameCap is the least
// default cap, whatever the limits; a cap under MinLimit or over
// MaxGameCap is a typo.
const (
	DefaultGameCap = 10 * time.Minute
	MaxGameCap     = 7 * 24 * time.Hour
)

// GameCap is the wall-clock cap of a game with that many external bots:
// GameTimeout when set, else twice what the bots may take by the time
// limits (the game's own ones with NoTimeLimit), at least DefaultGameCap.
// An answer still awaited at the cap is the bot's forfeit.
func (o PlayOptions) GameCap(l TimeLimits, external int) time.Duration {
	if o.GameTimeout > 0 {
		return o.GameTimeout
	}
	a := l
	if !o.NoTimeLimit {
		a = o.Applied(l)
	}
	var bot time.Duration
	switch n := time.Duration(max(a.Answers, 1)); {
	case a.Total > 0:
		bot = a.Total + a.Margin
	case a.FirstTurn > 0:
		bot = a.FirstTurn + a.FirstTurnMargin + (n-1)*(a.Turn+a.Margin)
	default:
		bot = n * (a.Turn + a.Margin)
	}
	return max(DefaultGameCap, 2*time.Duration(max(external, 1))*bot)
}

// SharedNote says how a machine of cores cores is shared by games games
// played at once of seats players each, when it has fewer cores than
// players: "2 games on 2 cores" ("" when each player has a core). A
// player's time on the wall clock is then not its own.
func SharedNote(games, seats, cores int) string {
	if games*seats <= cores {
		return ""
	}
	if games == 1 {
		return fmt.Sprintf("%d players on %d cores", seats, cores)
	}
	return fmt.Sprintf("%d games of %d players on %d cores", games, seats, cores)
}

// Check refuses time-limit options the game does not apply or that make no
// sense, with a message naming the option (as its command-line flag), the
// value and what is allowed. Every time-limit option either applies or is
// refused here.
func (l TimeLimits) Check(o PlayOptions) error {
	if l.Turn == 0 && l.FirstTurn == 0 && l.Total == 0 && (o.TurnTime != 0 || o.FirstTurnTime != 0 || o.MarginSet) {
		return fmt.Errorf("the game declares no time limit for external bots: --turn-time, --first-turn-time and --time-margin do not apply")
	}
	for _, f := range []struct {
		flag string
		d    time.Duration
		no   string
	}{{"--turn-time", o.TurnTime, l.NoTurnTime}, {"--first-turn-time", o.FirstTurnTime, l.NoFirstTurnTime}} {
		switch {
		case f.d < 0:
			return fmt.Errorf("%s %v: must not be negative (0 = the game's limit)", f.flag, f.d)
		case f.d == 0:
			continue
		case f.no != "":
			return fmt.Errorf("%s %v: %s", f.flag, f.d, f.no)
		case o.NoTimeLimit:
			return fmt.Errorf("%s %v with --no-time-limit: give one or the other", f.flag, f.d)
		case f.d < MinLimit || f.d > MaxLimit:
			return fmt.Errorf("%s %v: must be between %v and %v", f.flag, f.d, MinLimit, MaxLimit)
		case l.Step > 0 && f.d%l.Step != 0:
			return fmt.Errorf("%s %v: this game's limit is in whole multiples of %v", f.flag, f.d, l.Step)
		}
	}
	switch {
	case o.GameTimeout < 0:
		return fmt.Errorf("--game-timeout %v: must not be negative (0 = the default: twice the game's time limits, at least %v)", o.GameTimeout, DefaultGameCap)
	case o.GameTimeout > 0 && (o.GameTimeout < MinLimit || o.GameTimeout > MaxGameCap):
		return fmt.Errorf("--game-timeout %v: must be between %v and %v", o.GameTimeout, MinLimit, MaxGameCap)
	}
	if o.MarginSet {
		switch {
		case o.TimeMargin < 0:
			return fmt.Errorf("--time-margin %v: must not be negative (0 = no margin)", o.TimeMargin)
		case o.TimeMargin > MaxMargin:
			return fmt.Errorf("--time-margin %v: must be at most %v", o.TimeMargin, MaxMargin)
		case o.NoTimeLimit:
			return fmt.Errorf("--time-margin %v with --no-time-limit: there is no limit to add it to", o.TimeMargin)
		}
	}
	return nil
}

// Applied returns the limits and margins an external bot is held to in a
// run with these options: the game's, with the options' overrides; all
// zero with NoTimeLimit.
func (o PlayOptions) Applied(l TimeLimits) TimeLimits {
	a := l
	if o.NoTimeLimit {
		a.Turn, a.FirstTurn, a.Total, a.Margin, a.FirstTurnMargin = 0, 0, 0, 0, 0
		return a
	}
	if o.TurnTime > 0 {
		a.Turn = o.TurnTime
	}
	if o.FirstTurnTime > 0 && l.FirstTurn > 0 {
		a.FirstTurn = o.FirstTurnTime
	}
	if o.MarginSet {
		a.Margin, a.FirstTurnMargin = o.TimeMargin, o.TimeMargin
	}
	return a
}

// DefaultBotProcs is the default most processes an external bot may run
// at once: room for a bot that starts helpers or a pool of workers, none
// for one that forks without end.
const DefaultBotProcs = 256

// LimitKey is the text of the limit settings of a run that change its
// results (an external bot forfeits or not by them): the applied time
// limits and margins, or "none", " clock=cpu" when answers are timed by
// their CPU time, and the caps a run sets beyond the defaults: the game
// timeout, the bot's memory and its processes (no cap and the default
// cap of processes share the key: a bot that needs more than
// DefaultBotProcs at once is an outlier either way). Runs whose keys
// differ are different runs.
func (o PlayOptions) LimitKey(l TimeLimits) string {
	key := "none"
	if !o.NoTimeLimit {
		a := o.Applied(l)
		key = fmt.Sprintf("turn=%v first=%v total=%v margin=%v first-margin=%v", a.Turn, a.FirstTurn, a.Total, a.Margin, a.FirstTurnMargin)
		if o.CPUClock {
			key += " clock=cpu"
		}
	}
	if o.GameTimeout > 0 {
		key += fmt.Sprintf(" game-timeout=%v", o.GameTimeout)
	}
	if o.BotMemory > 0 {
		key += fmt.Sprintf(" memory=%d", o.BotMemory)
	}
	if o.BotProcs > 0 && o.BotProcs != DefaultBotProcs {
		key += fmt.Sprintf(" procs=%d", o.BotProcs)
	}
	return key
}

// String describes the limits for people: "50 ms a turn + 30 ms margin,
// 1,000 ms the first turn + 250 ms".
func (l TimeLimits) String() string {
	var parts []string
	plus := func(d time.Duration) string {
		if d <= 0 {
			return ""
		}
		return " + " + Millis(d) + " margin"
	}
	if l.Turn > 0 {
		what := "an answer"
		if l.FirstTurn > 0 {
			what = "a later answer"
		}
		parts = append(parts, Millis(l.Turn)+" "+what+plus(l.Margin))
	}
	if l.FirstTurn > 0 {
		parts = append(parts, Millis(l.FirstTurn)+" the first answer"+plus(l.FirstTurnMargin))
	}
	if l.Total > 0 {
		parts = append(parts, Millis(l.Total)+" all answers of a game"+plus(l.Margin))
	}
	if len(parts) == 0 {
		return "no time limit"
	}
	return strings.Join(parts, ", ")
}

// Millis writes a duration in milliseconds with thousands separators
// ("1,013 ms"); under 100 ms with one decimal where it has one ("2.5 ms").
func Millis(d time.Duration) string {
	return MillisF(float64(d) / float64(time.Millisecond))
}

// MillisF is Millis for a number of milliseconds, with one decimal under
// 100 ms (answer times: "53.2 ms").
func MillisF(ms float64) string {
	if ms < 100 && math.Round(ms*10) != 10*math.Round(ms) {
		return fmt.Sprintf("%.1f ms", ms)
	}
	n := int64(ms + 0.5)
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + " ms"
}
