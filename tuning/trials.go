package tuning

import (
	"context"

	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// The trials' bookkeeping beside Goptuna's tables: which trials wait, run
// and hold a budget slot, and tune_heartbeats, the lease protocol of the
// running trials (see sqldb). A worker claims a trial by writing its
// heartbeat row (claimTrial), renews it (beat), and ends it when the trial
// ends or is lost (dropHeartbeat); a trial whose heartbeat is older than
// its stale_ms, or whose worker is gone (sqldb.Gone), is lost. The methods
// taking tx work in a transaction holding the study's lock (locked).

// waitingTrials are the study's queued trials, oldest first.
func (s *Storage) waitingTrials(tx *gorm.DB, studyID int) ([]int, error) {
	var ids []int
	err := tx.Raw(`SELECT trial_id FROM trials WHERE study_id = ? AND state = 'WAITING' ORDER BY trial_id`, studyID).Scan(&ids).Error
	return ids, err
}

// countTrials counts the study's trials; running ones only when running.
func (s *Storage) countTrials(tx *gorm.DB, studyID int, running bool) (int, error) {
	q := `SELECT COUNT(*) FROM trials WHERE study_id = ?`
	if running {
		q += ` AND state = 'RUNNING'`
	}
	var n int64
	err := tx.Raw(q, studyID).Scan(&n).Error
	return int(n), err
}

// countSlots counts the study's trials that use a budget slot: all but the
// lost ones (whose re-run holds their slot).
func (s *Storage) countSlots(tx *gorm.DB, studyID int) (int, error) {
	var n int64
	err := tx.Raw(`SELECT COUNT(*) FROM trials t WHERE t.study_id = ? AND NOT EXISTS
		(SELECT 1 FROM trial_system_attributes a WHERE a.trial_id = t.trial_id AND a.key = ?)`, studyID, attrLost).Scan(&n).Error
	return int(n), err
}

// lastTrial is the ID of the study's newest trial (the one just queued).
func (s *Storage) lastTrial(tx *gorm.DB, studyID int) (int, error) {
	var id int
	err := tx.Raw(`SELECT MAX(trial_id) FROM trials WHERE study_id = ?`, studyID).Scan(&id).Error
	return id, err
}

// claimTrial records worker as the trial's owner with a fresh heartbeat
// that goes stale after staleMS milliseconds.
func (s *Storage) claimTrial(tx *gorm.DB, ts *rdb.Storage, studyID, id int, worker string, staleMS int64) error {
	if err := ts.SetTrialSystemAttr(id, attrWorker, worker); err != nil {
		return err
	}
	if err := s.dropHeartbeat(tx, id); err != nil {
		return err
	}
	return s.startHeartbeat(tx, studyID, id, worker, staleMS)
}

// startHeartbeat writes a trial's heartbeat row, beating now.
func (s *Storage) startHeartbeat(tx *gorm.DB, studyID, id int, worker string, staleMS int64) error {
	return tx.Exec(`INSERT INTO tune_heartbeats (trial_id, study_id, worker, beat_at, stale_ms) VALUES (?, ?, ?, `+s.dialect.NowMS()+`, ?)`,
		id, studyID, worker, staleMS).Error
}

// dropHeartbeat removes a trial's heartbeat row (the trial ended or is
// lost).
func (s *Storage) dropHeartbeat(tx *gorm.DB, id int) error {
	return tx.Exec(`DELETE FROM tune_heartbeats WHERE trial_id = ?`, id).Error
}

// runningTrial is a running trial with its heartbeat (nil fields: it has
// no heartbeat row).
type runningTrial struct {
	TrialID int
	Worker  *string
	Age     *int64 // milliseconds since the last beat, by the database's clock
	StaleMs *int64
}

// runningTrials returns the study's running trials with their heartbeats,
// and drops the heartbeats of trials that no longer run (left by a worker
// that died between ending a trial and dropping its heartbeat).
func (s *Storage) runningTrials(tx *gorm.DB, studyID int) ([]runningTrial, error) {
	var rows []runningTrial
	q := `SELECT t.trial_id AS trial_id, h.worker AS worker, ` + s.dialect.NowMS() + ` - h.beat_at AS age, h.stale_ms AS stale_ms
		FROM trials t LEFT JOIN tune_heartbeats h ON h.trial_id = t.trial_id
		WHERE t.study_id = ? AND t.state = 'RUNNING'`
	if err := tx.Raw(q, studyID).Scan(&rows).Error; err != nil {
		return nil, err
	}
	if err := tx.Exec(`DELETE FROM tune_heartbeats WHERE study_id = ? AND trial_id NOT IN
		(SELECT trial_id FROM trials WHERE study_id = ? AND state = 'RUNNING')`, studyID, studyID).Error; err != nil {
		return nil, err
	}
	return rows, nil
}

// heartbeatOwner is the worker of a trial's heartbeat ("" when it has
// none: it was declared lost).
func (s *Storage) heartbeatOwner(tx *gorm.DB, id int) (string, error) {
	var owner []string
	if err := tx.Raw(`SELECT worker FROM tune_heartbeats WHERE trial_id = ?`, id).Scan(&owner).Error; err != nil || len(owner) == 0 {
		return "", err
	}
	return owner[0], nil
}

// beat renews worker's heartbeat of a trial, and reports whether it still
// holds it (false: the trial was declared lost by another worker).
func (s *Storage) beat(ctx context.Context, id int, worker string) (bool, error) {
	res := s.db.WithContext(ctx).Exec(`UPDATE tune_heartbeats SET beat_at = `+s.dialect.NowMS()+` WHERE trial_id = ? AND worker = ?`, id, worker)
	return res.RowsAffected > 0, res.Error
}
