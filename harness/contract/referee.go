package contract

import (
	"fmt"
	"strings"
	"time"

	"gauntlet/internal/untrusted"
)

// RefereeError is a game that a game's own referee program could not
// finish: it crashed, hung past the game's time limit or broke its
// protocol. Play returns it (wrapped or not) instead of an Outcome: no
// player is at fault. The runner records it apart from the results (see
// Results.RefereeErrors and Store.SaveRefereeErrors), does not store the
// game, and goes on; a rerun of the run plays that game again.
type RefereeError struct {
	Reason string // what went wrong, e.g. `"###End 1" does not name player 0`
	Stderr string // the tail of the referee's stderr
}

func (e *RefereeError) Error() string {
	if s := strings.TrimSpace(e.Stderr); s != "" {
		return "referee error: " + e.Reason + "; stderr: " + untrusted.LastLines(s, 3)
	}
	return "referee error: " + e.Reason
}

// RefereeFailure is one game a referee failed, as a run records it.
type RefereeFailure struct {
	Key    string    `json:"key"` // the match's key
	CaseID string    `json:"case"`
	Reason string    `json:"reason"`
	Stderr string    `json:"stderr,omitempty"`
	Worker string    `json:"worker,omitempty"`
	At     time.Time `json:"at"`
}

// Sourcer is implemented by games that are not built in but made from a
// source the user names (a referee program, a game file): the run records
// the source, so that a stored run can rebuild its game (Registry.Game
// resolves it again), and the fingerprint of its files, so that a changed
// referee makes a new run.
type Sourcer interface {
	// Source returns the text that resolves to the game again (the --game
	// value) and a fingerprint of the files it names.
	Source() (source, fingerprint string)
}

// RefereeErrorsLine summarises a run's referee errors for people, or ""
// when there are none: "referee errors: 2 games (not stored; rerun to
// play them again); first in seed:3: the referee ended before ###End
// (exit status 1); stderr: boom".
func RefereeErrorsLine(fs []RefereeFailure) string {
	if len(fs) == 0 {
		return ""
	}
	f := fs[0]
	msg := (&RefereeError{Reason: f.Reason, Stderr: f.Stderr}).Error()
	msg = strings.TrimPrefix(msg, "referee error: ")
	return fmt.Sprintf("referee errors: %d games (not stored; rerun to play them again); first in %s: %s", len(fs), f.CaseID, msg)
}
