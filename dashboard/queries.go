package dashboard

import (
	"context"
	"database/sql"
	"time"

	"gauntlet/internal/sqldb"
)

// queries holds every SQL statement of the dashboard, written once for
// both dialects through sqldb's helpers (placeholders by Rebind, the
// database clock by NowMS). Each reads an index range or a small table: a
// page never scans a run's games (see the package doc).
type queries struct {
	db      *sql.DB
	dialect sqldb.Dialect
}

// workerRow is one worker of a run as its claimed blocks tell it.
type workerRow struct {
	Owner  string
	Blocks int // blocks claimed
	Done   int // of which done
	Open   int // games in its unfinished blocks
	// LeaseMS is how long its latest lease still runs (negative: it ended
	// that long ago), by this machine's clock: a run's leases are set by
	// its workers' clocks.
	LeaseMS int64
}

// runWorkers lists the workers that claimed blocks of a run, from the
// claim_blocks table (a row per block of hundreds of games).
func (q queries) runWorkers(ctx context.Context, runID string) ([]workerRow, error) {
	rows, err := q.db.QueryContext(ctx, q.dialect.Rebind(`SELECT owner, COUNT(*), SUM(done),
		SUM(CASE WHEN done = 0 THEN hi - lo ELSE 0 END), MAX(expires_at)
		FROM claim_blocks WHERE run_id = ? GROUP BY owner ORDER BY owner`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	now := time.Now().UnixMilli()
	var out []workerRow
	for rows.Next() {
		var w workerRow
		var exp int64
		if err := rows.Scan(&w.Owner, &w.Blocks, &w.Done, &w.Open, &exp); err != nil {
			return nil, err
		}
		w.LeaseMS = exp - now
		out = append(out, w)
	}
	return out, rows.Err()
}

// gameRow is one stored game as a page of games shows it.
type gameRow struct {
	Key      string
	Index    int
	Case     string
	Seats    string // JSON: entrant index per seat
	Results  string // JSON: [score, rank, forfeit] per seat ("" in stores of old versions)
	Turns    int
	WallMS   float64
	Worker   string
	Finished string
}

// gamesPage reads up to limit games of a run in match key order from
// position offset: the primary key's order, so that the database walks
// the index to the page (the keys before it only, no rows) and reads the
// page's rows alone.
func (q queries) gamesPage(ctx context.Context, runID string, offset, limit int) ([]gameRow, error) {
	var first string
	err := q.db.QueryRowContext(ctx, q.dialect.Rebind(`SELECT match_key FROM games WHERE run_id = ? ORDER BY match_key LIMIT 1 OFFSET ?`), runID, offset).Scan(&first)
	if err == sql.ErrNoRows {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	rows, err := q.db.QueryContext(ctx, q.dialect.Rebind(`SELECT match_key, idx, case_id, seats, seat_results, turns, wall_ms, worker, finished_at
		FROM games WHERE run_id = ? AND match_key >= ? ORDER BY match_key LIMIT ?`), runID, first, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []gameRow
	for rows.Next() {
		var g gameRow
		if err := rows.Scan(&g.Key, &g.Index, &g.Case, &g.Seats, &g.Results, &g.Turns, &g.WallMS, &g.Worker, &g.Finished); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// trialBeat is a running trial's heartbeat.
type trialBeat struct {
	Trial  int
	Worker string
	AgeMS  int64 // since its last beat, by the database's clock
	Stale  int64 // the age at which it is declared lost
}

// trialBeats lists the heartbeats of a tuning study's running trials.
func (q queries) trialBeats(ctx context.Context, studyID int) ([]trialBeat, error) {
	rows, err := q.db.QueryContext(ctx, q.dialect.Rebind(`SELECT trial_id, worker, `+q.dialect.NowMS()+` - beat_at, stale_ms
		FROM tune_heartbeats WHERE study_id = ? ORDER BY trial_id`), studyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []trialBeat
	for rows.Next() {
		var b trialBeat
		if err := rows.Scan(&b.Trial, &b.Worker, &b.AgeMS, &b.Stale); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// spsaWorker is a worker holding a block of an SPSA study's iterations.
type spsaWorker struct {
	Owner   string
	Blocks  int   // blocks held, not yet applied
	LeaseMS int64 // how long its latest lease still runs, by the database's clock
}

// spsaWorkers lists the workers holding unfinished blocks of an SPSA
// study.
func (q queries) spsaWorkers(ctx context.Context, study string) ([]spsaWorker, error) {
	rows, err := q.db.QueryContext(ctx, q.dialect.Rebind(`SELECT owner, COUNT(*), MAX(expires_at) - `+q.dialect.NowMS()+`
		FROM spsa_blocks WHERE study = ? AND done = 0 GROUP BY owner ORDER BY owner`), study)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []spsaWorker
	for rows.Next() {
		var w spsaWorker
		if err := rows.Scan(&w.Owner, &w.Blocks, &w.LeaseMS); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// leagueWorker is a worker of a league as its claimed blocks tell it.
type leagueWorker struct {
	Owner  string
	Blocks int // blocks stored
	InHand int // blocks claimed and not stored
	Games  int // games in the blocks in hand
	// LeaseMS is how long its latest lease still runs (negative: it ended
	// that long ago), by the database's clock.
	LeaseMS int64
}

// leagueWorkers lists the workers that claimed blocks of a league, from
// league_blocks (a row per block of about a second of a worker's games).
func (q queries) leagueWorkers(ctx context.Context, name string) ([]leagueWorker, error) {
	rows, err := q.db.QueryContext(ctx, q.dialect.Rebind(`SELECT owner, SUM(done), SUM(1 - done),
		SUM(CASE WHEN done = 0 THEN games ELSE 0 END), MAX(expires_at) - `+q.dialect.NowMS()+`
		FROM league_blocks WHERE league = ? GROUP BY owner ORDER BY owner`), name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []leagueWorker
	for rows.Next() {
		var w leagueWorker
		if err := rows.Scan(&w.Owner, &w.Blocks, &w.InHand, &w.Games, &w.LeaseMS); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}
