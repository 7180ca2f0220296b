package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The reads below are what the dashboard shows of the work in progress:
// each reads an index range or a small table, so that a page never scans
// a run's games.

// RunWorker is one worker of a run as its claimed blocks tell it.
type RunWorker struct {
	Owner  string
	Blocks int // blocks claimed
	Done   int // of which done
	Open   int // games in its unfinished blocks
	// LeaseMS is how long its latest lease still runs (negative: it ended
	// that long ago), by this machine's clock: a run's leases are set by
	// its workers' clocks.
	LeaseMS int64
}

// RunWorkers lists the workers that claimed blocks of a run, from the
// claim_blocks table (a row per block of hundreds of games).
func (s *Store) RunWorkers(ctx context.Context, runID string) ([]RunWorker, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT owner, COUNT(*), SUM(done),
		SUM(CASE WHEN done = 0 THEN hi - lo ELSE 0 END), MAX(expires_at)
		FROM claim_blocks WHERE run_id = ? GROUP BY owner ORDER BY owner`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	now := time.Now().UnixMilli()
	var out []RunWorker
	for rows.Next() {
		var w RunWorker
		var exp int64
		if err := rows.Scan(&w.Owner, &w.Blocks, &w.Done, &w.Open, &exp); err != nil {
			return nil, err
		}
		w.LeaseMS = exp - now
		out = append(out, w)
	}
	return out, rows.Err()
}

// GameRow is one stored game of a run as a page of games shows it.
type GameRow struct {
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

// GamesPage reads up to limit games of a run in match key order from
// position offset: the primary key's order, so that the database walks
// the index to the page (the keys before it only, no rows) and reads the
// page's rows alone.
func (s *Store) GamesPage(ctx context.Context, runID string, offset, limit int) ([]GameRow, error) {
	var first string
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT match_key FROM games WHERE run_id = ? ORDER BY match_key LIMIT 1 OFFSET ?`), runID, offset).Scan(&first)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT match_key, idx, case_id, seats, seat_results, turns, wall_ms, worker, finished_at
		FROM games WHERE run_id = ? AND match_key >= ? ORDER BY match_key LIMIT ?`), runID, first, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []GameRow
	for rows.Next() {
		var g GameRow
		if err := rows.Scan(&g.Key, &g.Index, &g.Case, &g.Seats, &g.Results, &g.Turns, &g.WallMS, &g.Worker, &g.Finished); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// TrialBeat is a running trial's heartbeat.
type TrialBeat struct {
	Trial  int
	Worker string
	AgeMS  int64 // since its last beat, by the database's clock
	Stale  int64 // the age at which it is declared lost
}

// TrialBeats lists the heartbeats of a tuning study's running trials.
func (s *Store) TrialBeats(ctx context.Context, studyID int) ([]TrialBeat, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT trial_id, worker, `+s.dialect.NowMS()+` - beat_at, stale_ms
		FROM tune_heartbeats WHERE study_id = ? ORDER BY trial_id`), studyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TrialBeat
	for rows.Next() {
		var b TrialBeat
		if err := rows.Scan(&b.Trial, &b.Worker, &b.AgeMS, &b.Stale); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// SPSAWorker is a worker holding a block of an SPSA study's iterations.
type SPSAWorker struct {
	Owner   string
	Blocks  int   // blocks held, not yet applied
	LeaseMS int64 // how long its latest lease still runs, by the database's clock
}

// SPSAWorkers lists the workers holding unfinished blocks of an SPSA
// study.
func (s *Store) SPSAWorkers(ctx context.Context, study string) ([]SPSAWorker, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT owner, COUNT(*), MAX(expires_at) - `+s.dialect.NowMS()+`
		FROM spsa_blocks WHERE study = ? AND done = 0 GROUP BY owner ORDER BY owner`), study)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SPSAWorker
	for rows.Next() {
		var w SPSAWorker
		if err := rows.Scan(&w.Owner, &w.Blocks, &w.LeaseMS); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// LeagueWorker is a worker of a league as its claimed blocks tell it.
type LeagueWorker struct {
	Owner  string
	Blocks int // blocks stored
	InHand int // blocks claimed and not stored
	Games  int // games in the blocks in hand
	// LeaseMS is how long its latest lease still runs (negative: it ended
	// that long ago), by the database's clock.
	LeaseMS int64
}

// LeagueWorkers lists the workers that claimed blocks of a league, from
// league_blocks (a row per block of about a second of a worker's games).
func (s *Store) LeagueWorkers(ctx context.Context, name string) ([]LeagueWorker, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT owner, SUM(done), SUM(1 - done),
		SUM(CASE WHEN done = 0 THEN games ELSE 0 END), MAX(expires_at) - `+s.dialect.NowMS()+`
		FROM league_blocks WHERE league = ? GROUP BY owner ORDER BY owner`), name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LeagueWorker
	for rows.Next() {
		var w LeagueWorker
		if err := rows.Scan(&w.Owner, &w.Blocks, &w.InHand, &w.Games, &w.LeaseMS); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}
