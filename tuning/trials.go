package tuning

import (
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// The trials' bookkeeping beside Goptuna's tables is the store's
// (store.Studies: which trials wait, run and hold a budget slot, and the
// heartbeats, the lease of the running trials). A worker claims a trial by
// writing its heartbeat row (claimTrial), renews it (beat), and ends it
// when the trial ends or is lost (DropHeartbeat); a trial whose heartbeat
// is stale, or whose worker is gone, is lost (sqldb.Free, see
// recoverStale). The methods taking tx work in a transaction holding the
// study's lock (locked).

// countSlots counts the study's trials that use a budget slot: all but the
// lost ones (whose re-run holds their slot).
func (s *Storage) countSlots(tx *gorm.DB, studyID int) (int, error) {
	return s.in(tx).CountWithout(tx.Statement.Context, studyID, attrLost)
}

// claimTrial records worker as the trial's owner with a fresh heartbeat
// that goes stale after staleMS milliseconds.
func (s *Storage) claimTrial(tx *gorm.DB, ts *rdb.Storage, studyID, id int, worker string, staleMS int64) error {
	if err := ts.SetTrialSystemAttr(id, attrWorker, worker); err != nil {
		return err
	}
	q, ctx := s.in(tx), tx.Statement.Context
	if err := q.DropHeartbeat(ctx, id); err != nil {
		return err
	}
	return q.StartHeartbeat(ctx, studyID, id, worker, staleMS)
}
