// Package contract is what a game and the harness agree on: Game (its
// info, its case sets, Play), Case, Player, PlayOptions and Outcome, the
// time limits of external bots, the optional abilities a game may have
// (abilities.go), and the Registry of games and their strategies.
//
// A game plugs in by implementing Game (in package games, wrapping a
// referee package) and registering itself with its strategies. Referees and
// strategies never import this package; the rest of the harness
// (store, entrant, runner, results) builds on it.
package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"gauntlet/internal/botlog"
	"gauntlet/strategies/param"
)

// Game is one registered game.
type Game interface {
	// Info describes the game: its name, seat range and case sets.
	Info() GameInfo
	// Cases expands a case-set name ("smoke", "seeds:100", "qualifier") into
	// its cases, in a fixed order. Unknown names are an error listing the
	// known ones.
	Cases(set string) ([]Case, error)
	// Play plays one case with one player per seat. It fails only on the
	// harness's own errors (a bad case, a cancelled context); a player that
	// crashes, hangs or breaks the rules is a forfeit in the Outcome.
	Play(ctx context.Context, c Case, players []Player, opt PlayOptions) (Outcome, error)
}

// Aggregator is implemented by games whose official leaderboard combines the
// cases of a group in its own way (hextris: floor(sum / len(sourceSeeds))).
type Aggregator interface {
	// Aggregate returns the group's official score from the scores of the
	// cases played in that group (case ID → score). Cases of the group that
	// were not played count as the rules say (hextris: 0).
	Aggregate(group string, scores map[string]float64) float64
}

// Coster is implemented by games whose cases differ much in playing time
// (hextris: problem 24's 1620 units on a 100x40 board against a few dozen
// on 10x10). A run without an early stop starts the costliest cases first,
// so that a long case does not end the run on one busy worker while the
// others idle. Results are the same whatever the order.
type Coster interface {
	// Cost estimates the relative playing time of case c (any unit, >= 0).
	Cost(c Case) float64
}

// GameInfo describes a game for `gauntlet list` and argument checks.
type GameInfo struct {
	Name     string
	Title    string
	MinSeats int
	MaxSeats int
	// Opponents is the default lineup for the other seats in eval (e.g.
	// "greedy"); empty for single-player games.
	Opponents string
	CaseSets  []CaseSetInfo
	// Direction says which way scores improve: Higher for games scored by
	// points (hextris, brew, paperio), Lower for games scored by a cost
	// such as a number of moves (towers). Ranks, ab's win/loss and
	// "better", tuning's direction, pruners and reports all follow it.
	Direction Direction
	// Limits are the game's time limits on an external bot, as its
	// platform set them, gauntlet's default margins, and which time-limit
	// options apply (see TimeLimits.Check).
	Limits TimeLimits
}

// Better reports whether score a is strictly better than score b in the
// game's direction.
func (i GameInfo) Better(a, b float64) bool { return i.Direction.Better(a, b) }

// Direction says which way scores improve. The zero value is Higher.
type Direction int8

const (
	// Higher: scores are points, higher is better.
	Higher Direction = iota
	// Lower: scores are costs (a number of moves), lower is better.
	Lower
)

// Better reports whether score a is strictly better than score b.
func (d Direction) Better(a, b float64) bool {
	if d == Lower {
		return a < b
	}
	return a > b
}

// String is "higher is better" or "lower is better", for output.
func (d Direction) String() string {
	if d == Lower {
		return "lower is better"
	}
	return "higher is better"
}

// MarshalJSON writes a direction as the boolean "lower is better": the
// form stored runs, their summaries, studies and game files hold it in
// (fields lower_is_better and minimize), which stay readable both ways.
func (d Direction) MarshalJSON() ([]byte, error) {
	if d == Lower {
		return []byte("true"), nil
	}
	return []byte("false"), nil
}

// UnmarshalJSON reads the boolean "lower is better" (null: Higher).
func (d *Direction) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true":
		*d = Lower
	case "false", "null":
		*d = Higher
	default:
		return fmt.Errorf("score direction %.40q: want true (lower is better) or false", b)
	}
	return nil
}

// CaseSetInfo documents one case-set name (or pattern such as "seeds:N").
type CaseSetInfo struct {
	Name string
	Doc  string
}

// Case is one game setup, fixed by the game and its ID.
type Case struct {
	ID    string // stable and unique within the game, e.g. "p14/s0" or "seed:17"
	Group string // aggregation group (e.g. "14" for hextris problem 14), "" if none
	Seed  uint64 // every random choice of the case derives from it
	Data  any    // game-specific setup (read-only)
}

// Player is one seat's player, made ready before Play (Entrant.Player): a
// built-in strategy's bot, built for this game with the seat's own seed, or
// an external bot's command line. A game hands both halves on to its
// referee, which runs whichever is set (brew.Agent, paperio.Agent): Play
// does not ask which kind of player it has.
type Player struct {
	// Name is the entrant's label, for messages and records.
	Name string
	// Bot is a built-in bot, of the game's bot type (what its strategies'
	// New build); nil for an external bot.
	Bot any
	// Command is an external bot's process; empty for a built-in bot.
	Command Command
	// Seed is the seat's own random seed for this game, which Bot was
	// built with (an external bot has it as {seed}).
	Seed uint64
}

// Command is an external bot's process: its argv, placeholders filled in,
// and the environment entries added to the caller's.
type Command struct {
	Argv []string
	Env  []string
	// Stderr, when set, keeps the bot's stderr for the harness (a
	// *botlog.Log, which the referee also tells of each input: see
	// lineproc.Options.WithSeat); nil when it is not kept.
	Stderr io.Writer
}

// PlayOptions carry per-run settings to Play.
type PlayOptions struct {
	// NoTimeLimit disables external bots' time limits (reproducible runs).
	NoTimeLimit bool
	// TurnTime and FirstTurnTime override the game's per-turn limits for
	// external bots (0 = the game's default).
	TurnTime      time.Duration
	FirstTurnTime time.Duration
	// TimeMargin, when MarginSet, replaces the game's default margins on
	// every limit (0 included: no margin). Games read the limits to apply
	// with Applied.
	TimeMargin time.Duration
	MarginSet  bool
	// Record, when non-nil, receives the game's replayable record (the
	// game's own conformance format, JSON lines).
	Record io.Writer
	// Log, when non-nil, receives external bots' stderr.
	Log io.Writer
	// BotLogs says which games keep their external bots' stderr, seat by
	// seat (Outcome.Logs); with botlog.None none is captured.
	BotLogs botlog.Policy
	// RecordMoves asks Play to keep what a replay of the game needs in
	// Outcome.Moves (the players' moves, compactly; see Viewer).
	RecordMoves bool
	// GameTimeout caps the wall-clock time of a game with external bots,
	// whatever the time limits (0: the default, see PlayOptions.GameCap).
	GameTimeout time.Duration
	// BotMemory and BotProcs cap the resident memory (bytes) and the
	// number of processes of each external bot, its descendants included
	// (0: no cap).
	BotMemory int64
	BotProcs  int
	// CPUClock times external bots' answers by the CPU time of their
	// processes instead of the wall clock.
	CPUClock bool
	// Concurrent is how many games are played at once (the Runner sets
	// it; 0 counts as 1): a wall-clock timeout on a machine shared with
	// more players than cores says so.
	Concurrent int
}

// Outcome is the result of one played case.
type Outcome struct {
	Seats []SeatResult `json:"seats"`
	Turns int          `json:"turns"`
	// Detail holds game-specific figures (hextris: move_score, power_score,
	// error...). It is stored as JSON and shown in tables.
	Detail map[string]any `json:"detail,omitempty"`
	// Moves holds the players' moves when PlayOptions.RecordMoves asked for
	// them: a game-specific JSON value that the game's Viewer turns back
	// into frames.
	Moves json.RawMessage `json:"moves,omitempty"`
	// Logs are the external bots' stderr by seat (nil for a built-in
	// bot), when PlayOptions.BotLogs captures them; the runner stores
	// them apart from the game (store.BotLog) and drops them here.
	Logs []*botlog.Log `json:"-"`
}

// SeatResult is one seat's result.
type SeatResult struct {
	Score   float64 `json:"score"`
	Rank    int     `json:"rank"`              // 1 = best; equal scores share a rank
	Forfeit string  `json:"forfeit,omitempty"` // why the player was disqualified/timed out, if it was
	// Answers are the seat's answers beyond its score: those the rules
	// ignored and an external bot's answer times. A game loaded from the
	// store has them in Detail instead: read them with Outcome.SeatAnswers.
	Answers
}

// RanksByScore fills Rank from Score, higher being better; ties share the
// best rank: scores 5, 9, 5 give ranks 2, 1, 2. Games whose scores are
// costs use Ranks(seats, Lower).
func RanksByScore(seats []SeatResult) { Ranks(seats, Higher) }

// Ranks fills Rank from Score in direction d (GameInfo.Direction); ties
// share the best rank: with lower being better, scores 5, 9, 5 give ranks
// 1, 3, 1.
func Ranks(seats []SeatResult, d Direction) {
	for i := range seats {
		r := 1
		for j := range seats {
			if d.Better(seats[j].Score, seats[i].Score) {
				r++
			}
		}
		seats[i].Rank = r
	}
}

// Strategy is a registered built-in bot.
type Strategy struct {
	Game   string
	Name   string
	Doc    string
	Params param.Specs
	// New builds one bot for one game from validated values and a seed. The
	// concrete type is the game's bot type; the game's adapter (one per
	// game in package games) asserts it, with one error for every misfit.
	New func(v param.Values, seed uint64) (any, error)
}
