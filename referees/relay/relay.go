// Package relay plays games whose rules live in a referee program of their
// own, in any language, with external bots as players. It speaks three
// protocols:
//
//   - Relayed (cg-brutaltester's "old mode"): the referee talks to gauntlet
//     alone, by lines starting with "###", and gauntlet relays each player's
//     input and answers, timing every answer itself (Relayed).
//   - Direct (CodinGame SDK referees): the referee starts and times the
//     players itself from their command lines and prints one score per
//     player (Direct).
//   - Play (psyleague's play command): a script plays one game and prints
//     one JSON object with the players' ranks and errors (Play).
//
// The referee and every player run under package lineproc: each is ended,
// with every process it started, when the game ends. A player's fault is
// that player's forfeit; a referee's fault (a crash, a hang past the game's
// wall-clock limit, a broken protocol) is a *RefereeError, no player's.
package relay

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gauntlet/internal/untrusted"
)

// Player is one seat's bot: its command line and extra environment.
type Player struct {
	Argv []string
	Env  []string
	// Stderr, when set, also receives the player's stderr in the relayed
	// protocol, turn by turn when it is a lineproc.TurnMarker.
	Stderr io.Writer
}

// Limits bound a game.
type Limits struct {
	// FirstTurn and Turn limit a relayed player's first and later answers,
	// with their margins (0: no limit).
	FirstTurn, FirstTurnMargin time.Duration
	Turn, Margin               time.Duration
	// Game bounds the whole game's wall-clock time: a referee still
	// running after it is a referee error (0: DefaultGameTime).
	Game time.Duration
	// MaxLine is the longest line a relayed player may print, its newline
	// included (0: DefaultMaxLine).
	MaxLine int
}

// Defaults.
const (
	// DefaultGameTime bounds a game when Limits.Game is 0.
	DefaultGameTime = 5 * time.Minute
	// DefaultMaxLine is CodinGame's cap on a player's output in one turn.
	DefaultMaxLine = 10_000
	// maxRefLine is the longest line a referee may print.
	maxRefLine = 1 << 20
	// maxOutput caps what a direct referee or a play command prints.
	maxOutput = 1 << 20
	// maxNotes caps the referee's messages kept per game.
	maxNotes = 20
	// maxLinesPerOutput caps n in "###Output i n".
	maxLinesPerOutput = 10_000
)

func (l Limits) game() time.Duration {
	if l.Game > 0 {
		return l.Game
	}
	return DefaultGameTime
}

func (l Limits) maxLine() int {
	if l.MaxLine > 0 {
		return l.MaxLine
	}
	return DefaultMaxLine
}

// Result is one game's result, per seat.
type Result struct {
	// Places are 1 for the best, equal for a tie: what the referee ranked,
	// with the players at fault after the others.
	Places []int
	// Scores are the referee's scores (Direct); nil when it gives ranks
	// only.
	Scores []float64
	// Forfeit is why a seat forfeited ("" when it did not).
	Forfeit []string
	// Times are a relayed seat's answer times, in order.
	Times [][]time.Duration
	// Turns counts a relayed game's rounds: the most answers the referee
	// asked of any one player (###Output commands naming it), so that a
	// game where every player answers once a round counts each round
	// once, whatever the number of players. 0 in other protocols.
	Turns int
	// Notes are the referee's messages (###Error lines of a relayed
	// referee), at most a few, quoted.
	Notes []string
	// TestData and PlayerData are a play command's extra figures;
	// PlayerData of a relayed game are its players' [PDATA] stderr lines.
	TestData   map[string]any
	PlayerData []map[string]any
	// Transcript is what gauntlet saw of the game, for people to read.
	Transcript *Transcript
}

func newResult(n int) *Result {
	return &Result{Places: make([]int, n), Forfeit: make([]string, n), Times: make([][]time.Duration, n)}
}

func (r *Result) note(s string) {
	if len(r.Notes) < maxNotes {
		r.Notes = append(r.Notes, s)
	}
}

// RefereeError is a game the referee could not finish: it crashed, hung,
// or broke its protocol. No player is at fault; the game has no result.
type RefereeError struct {
	Reason string // what went wrong, e.g. "###End does not name player 2"
	Stderr string // the tail of the referee's stderr
}

func (e *RefereeError) Error() string {
	if s := strings.TrimSpace(e.Stderr); s != "" {
		return fmt.Sprintf("referee error: %s; stderr: %s", e.Reason, untrusted.LastLines(s, 3))
	}
	return "referee error: " + e.Reason
}

func refErr(stderr string, format string, args ...any) *RefereeError {
	return &RefereeError{Reason: fmt.Sprintf(format, args...), Stderr: tail(stderr, 4096)}
}

// IsRefereeError reports whether err is a referee's fault.
func IsRefereeError(err error) bool {
	var re *RefereeError
	return errors.As(err, &re)
}

// faultPlaces ranks the players at fault last (tied with each other) and
// keeps the others' order from places (nil: the others tie for first).
func faultPlaces(places []int, forfeit []string) []int {
	n := len(forfeit)
	out := make([]int, n)
	ok := 0
	for i := range n {
		if forfeit[i] == "" {
			ok++
		}
	}
	for i := range n {
		if forfeit[i] != "" {
			out[i] = ok + 1
			continue
		}
		p := 1
		if places != nil {
			for j := range n {
				if forfeit[j] == "" && places[j] < places[i] {
					p++
				}
			}
		}
		out[i] = p
	}
	return out
}

// Quote quotes untrusted text for a message: at most max bytes, as a Go
// string literal.
func Quote(s string, max int) string {
	if len(s) > max {
		return fmt.Sprintf("%q…", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// ShellQuote joins argv into one POSIX shell command line, each word in
// single quotes, prefixed with env and the environment entries when there
// are any: the form in which a direct referee or a play command is handed
// a player.
func ShellQuote(p Player) string {
	var words []string
	if len(p.Env) > 0 {
		words = append(words, "env")
		for _, e := range p.Env {
			words = append(words, quoteWord(e))
		}
	}
	for _, a := range p.Argv {
		words = append(words, quoteWord(a))
	}
	return strings.Join(words, " ")
}

func quoteWord(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
