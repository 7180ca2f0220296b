package store

import (
	"context"
	"fmt"
	"time"

	"gauntlet/harness/contract"
)

// SaveRefereeErrors records games of a run that their referee failed (the
// last failure of a game replaces an earlier one).
func (s *Store) SaveRefereeErrors(ctx context.Context, runID string, fs []contract.RefereeFailure) error {
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
func (s *Store) RefereeErrors(ctx context.Context, runID string) ([]contract.RefereeFailure, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT r.match_key, r.case_id, r.reason, r.stderr, r.worker, r.at FROM referee_errors r
		WHERE r.run_id = ? AND NOT EXISTS (SELECT 1 FROM games g WHERE g.run_id = r.run_id AND g.match_key = r.match_key)
		ORDER BY r.match_key`), runID)
	if err != nil {
		return nil, fmt.Errorf("referee errors: %w", err)
	}
	defer rows.Close()
	var out []contract.RefereeFailure
	for rows.Next() {
		var f contract.RefereeFailure
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
