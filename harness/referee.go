package harness

import (
	"context"
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

// withSource adds g's source and fingerprint to a run's spec.
func (spec RunSpec) withSource(g Game) RunSpec {
	if s, ok := g.(Sourcer); ok {
		spec.Source, spec.Referee = s.Source()
	}
	return spec
}

// SaveRefereeErrors records games of a run that their referee failed (the
// last failure of a game replaces an earlier one).
func (s *Store) SaveRefereeErrors(ctx context.Context, runID string, fs []RefereeFailure) error {
	if len(fs) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	del := s.rebind(`DELETE FROM referee_errors WHERE run_id = ? AND match_key = ?`)
	ins := s.rebind(`INSERT INTO referee_errors (run_id, match_key, case_id, reason, stderr, worker, at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	for _, f := range fs {
		if _, err := tx.ExecContext(ctx, del, runID, f.Key); err != nil {
			return fmt.Errorf("referee errors: %w", err)
		}
		if _, err := tx.ExecContext(ctx, ins, runID, f.Key, f.CaseID, f.Reason, f.Stderr, f.Worker, f.At.UTC().Format(time.RFC3339Nano)); err != nil {
			return fmt.Errorf("referee errors: %w", err)
		}
	}
	return tx.Commit()
}

// RefereeErrors returns the games of a run that their referee failed and
// that are not stored since (a rerun played them), in key order.
func (s *Store) RefereeErrors(ctx context.Context, runID string) ([]RefereeFailure, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT r.match_key, r.case_id, r.reason, r.stderr, r.worker, r.at FROM referee_errors r
		WHERE r.run_id = ? AND NOT EXISTS (SELECT 1 FROM games g WHERE g.run_id = r.run_id AND g.match_key = r.match_key)
		ORDER BY r.match_key`), runID)
	if err != nil {
		return nil, fmt.Errorf("referee errors: %w", err)
	}
	defer rows.Close()
	var out []RefereeFailure
	for rows.Next() {
		var f RefereeFailure
		var at string
		if err := rows.Scan(&f.Key, &f.CaseID, &f.Reason, &f.Stderr, &f.Worker, &at); err != nil {
			return nil, fmt.Errorf("referee errors: %w", err)
		}
		// A time this package wrote; an unreadable one is left zero.
		f.At, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, f)
	}
	return out, rows.Err()
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
