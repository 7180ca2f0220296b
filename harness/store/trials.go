package store

import (
	"context"
	"database/sql"
	"errors"
)

// The tuning trials' bookkeeping beside Goptuna's tables: which trials
// wait, run and hold a budget slot, and tune_heartbeats, the lease of the
// running trials. A worker claims a trial by writing its heartbeat row
// (StartHeartbeat), renews it (Beat), and ends it when the trial ends or
// is lost (DropHeartbeat); a trial whose heartbeat is older than its
// stale_ms, or whose worker is gone, is lost (sqldb.Free judges it, as it
// judges the run store's blocks and the SPSA blocks). These statements run
// in a transaction holding the study's lock (sqldb.LockTuneStudy), except
// Beat.

// WaitingTrials are the study's queued trials, oldest first.
func (q Studies) WaitingTrials(ctx context.Context, studyID int) ([]int, error) {
	return q.ints(ctx, `SELECT trial_id FROM trials WHERE study_id = ? AND state = 'WAITING' ORDER BY trial_id`, studyID)
}

// CountTrials counts the study's trials; running ones only when running.
func (q Studies) CountTrials(ctx context.Context, studyID int, running bool) (int, error) {
	query := `SELECT COUNT(*) FROM trials WHERE study_id = ?`
	if running {
		query += ` AND state = 'RUNNING'`
	}
	return q.count(ctx, query, studyID)
}

// CountWithout counts the study's trials that lack the system attribute
// key (the trials that use a budget slot: all but the lost ones, whose
// re-run holds their slot).
func (q Studies) CountWithout(ctx context.Context, studyID int, key string) (int, error) {
	return q.count(ctx, `SELECT COUNT(*) FROM trials t WHERE t.study_id = ? AND NOT EXISTS
		(SELECT 1 FROM trial_system_attributes a WHERE a.trial_id = t.trial_id AND a.key = ?)`, studyID, key)
}

// LastTrial is the ID of the study's newest trial (0: none).
func (q Studies) LastTrial(ctx context.Context, studyID int) (int, error) {
	var id sql.NullInt64
	err := q.c.QueryRowContext(ctx, q.q(`SELECT MAX(trial_id) FROM trials WHERE study_id = ?`), studyID).Scan(&id)
	return int(id.Int64), err
}

// StartHeartbeat writes a trial's heartbeat row for worker, beating now by
// the database's clock and going stale after staleMS milliseconds without
// a beat.
func (q Studies) StartHeartbeat(ctx context.Context, studyID, trialID int, worker string, staleMS int64) error {
	_, err := q.c.ExecContext(ctx, q.q(`INSERT INTO tune_heartbeats (trial_id, study_id, worker, beat_at, stale_ms) VALUES (?, ?, ?, `+q.d.NowMS()+`, ?)`),
		trialID, studyID, worker, staleMS)
	return err
}

// DropHeartbeat removes a trial's heartbeat row (the trial ended or is
// lost).
func (q Studies) DropHeartbeat(ctx context.Context, trialID int) error {
	_, err := q.c.ExecContext(ctx, q.q(`DELETE FROM tune_heartbeats WHERE trial_id = ?`), trialID)
	return err
}

// RunningTrial is a running trial with its heartbeat.
type RunningTrial struct {
	TrialID int
	// Beating is false for a trial without a heartbeat row (one that
	// gauntlet did not start); the fields below are then zero.
	Beating bool
	Worker  string
	AgeMS   int64 // since the last beat, by the database's clock
	StaleMS int64 // the age at which the heartbeat is stale
}

// Stale reports whether the trial's heartbeat is older than it may be.
func (r RunningTrial) Stale() bool { return r.AgeMS > r.StaleMS }

// RunningTrials returns the study's running trials with their heartbeats,
// and drops the heartbeats of trials that no longer run (left by a worker
// that died between ending a trial and dropping its heartbeat).
func (q Studies) RunningTrials(ctx context.Context, studyID int) ([]RunningTrial, error) {
	rows, err := q.c.QueryContext(ctx, q.q(`SELECT t.trial_id, h.worker, `+q.d.NowMS()+` - h.beat_at, h.stale_ms
		FROM trials t LEFT JOIN tune_heartbeats h ON h.trial_id = t.trial_id
		WHERE t.study_id = ? AND t.state = 'RUNNING'`), studyID)
	if err != nil {
		return nil, err
	}
	var out []RunningTrial
	for rows.Next() {
		var r RunningTrial
		var worker sql.NullString
		var age, stale sql.NullInt64
		if err := rows.Scan(&r.TrialID, &worker, &age, &stale); err != nil {
			rows.Close()
			return nil, err
		}
		if worker.Valid && age.Valid && stale.Valid {
			r.Beating, r.Worker, r.AgeMS, r.StaleMS = true, worker.String, age.Int64, stale.Int64
		}
		out = append(out, r)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	_, err = q.c.ExecContext(ctx, q.q(`DELETE FROM tune_heartbeats WHERE study_id = ? AND trial_id NOT IN
		(SELECT trial_id FROM trials WHERE study_id = ? AND state = 'RUNNING')`), studyID, studyID)
	return out, err
}

// HeartbeatOwner is the worker of a trial's heartbeat ("" when it has
// none: it was declared lost).
func (q Studies) HeartbeatOwner(ctx context.Context, trialID int) (string, error) {
	var owner string
	err := q.c.QueryRowContext(ctx, q.q(`SELECT worker FROM tune_heartbeats WHERE trial_id = ?`), trialID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return owner, err
}

// Beat renews worker's heartbeat of a trial, and reports whether it still
// holds it (false: the trial was declared lost by another worker).
func (q Studies) Beat(ctx context.Context, trialID int, worker string) (bool, error) {
	res, err := q.c.ExecContext(ctx, q.q(`UPDATE tune_heartbeats SET beat_at = `+q.d.NowMS()+` WHERE trial_id = ? AND worker = ?`), trialID, worker)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// ints runs a query of one integer column.
func (q Studies) ints(ctx context.Context, query string, args ...any) ([]int, error) {
	rows, err := q.c.QueryContext(ctx, q.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// count runs a query of one count.
func (q Studies) count(ctx context.Context, query string, args ...any) (int, error) {
	var n int64
	err := q.c.QueryRowContext(ctx, q.q(query), args...).Scan(&n)
	return int(n), err
}

// FinishedTrials counts the study's finished trials (complete, pruned or
// failed) that lack the system attribute key (the lost ones, whose re-runs
// hold their budget slots), and returns its best complete trial, the
// smallest value first when minimize, else the largest, the earliest on a
// tie; found is false without a complete trial.
func (q Studies) FinishedTrials(ctx context.Context, studyID int, key string, minimize bool) (done, number int, best float64, found bool, err error) {
	done, err = q.count(ctx, `SELECT COUNT(*) FROM trials t WHERE t.study_id = ? AND t.state IN ('COMPLETE', 'PRUNED', 'FAIL') AND NOT EXISTS
		(SELECT 1 FROM trial_system_attributes a WHERE a.trial_id = t.trial_id AND a.key = ?)`, studyID, key)
	if err != nil {
		return 0, 0, 0, false, err
	}
	order := "DESC"
	if minimize {
		order = "ASC"
	}
	err = q.c.QueryRowContext(ctx, q.q(`SELECT number, value FROM trials WHERE study_id = ? AND state = 'COMPLETE' ORDER BY value `+order+`, number LIMIT 1`),
		studyID).Scan(&number, &best)
	if errors.Is(err, sql.ErrNoRows) {
		return done, 0, 0, false, nil
	}
	return done, number, best, err == nil, err
}
