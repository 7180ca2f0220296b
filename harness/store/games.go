package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
)

// GameRecord is one finished game of a run.
type GameRecord struct {
	Key      string           `json:"key"`
	Index    int              `json:"index"`
	CaseID   string           `json:"case"`
	Group    string           `json:"group,omitempty"`
	Seed     uint64           `json:"seed"`
	Seats    []int            `json:"seats"` // entrant index per seat
	Outcome  contract.Outcome `json:"outcome"`
	Wall     time.Duration    `json:"wall_ns"`
	Worker   string           `json:"worker"`
	Finished time.Time        `json:"finished"`
	// BotLogs are the external bots' stderr the game keeps (stored with
	// it; see BotLog). Not loaded with the game: see Store.BotLogs.
	BotLogs []BotLog `json:"-"`
}

// SaveGames stores finished games in one transaction. A game whose key is
// already stored is left as it is (the first result stands).
func (s *Store) SaveGames(ctx context.Context, runID string, games []GameRecord) error {
	_, err := s.SaveBatch(ctx, runID, games, nil)
	return err
}

// SaveBatch stores finished games and marks the claimed blocks done (the
// blocks whose last games are in this batch) in one transaction, so that a
// block is done exactly when all its games are stored. A game whose key is
// already stored is left as it is (the first result stands). It returns the
// number of games inserted: fewer than len(games) when another worker had
// stored some of them first.
func (s *Store) SaveBatch(ctx context.Context, runID string, games []GameRecord, done []Block) (int, error) {
	if len(games) == 0 && len(done) == 0 {
		return 0, nil
	}
	// Rows go in key order: concurrent PostgreSQL transactions inserting
	// the same keys then lock them in one order and cannot deadlock.
	slices.SortFunc(games, func(a, b GameRecord) int { return strings.Compare(a.Key, b.Key) })
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if s.dialect == "postgres" {
		// The commit returns once the server has the batch, before its
		// disk does: a worker killed with -9 loses nothing it committed,
		// and a server that crashes loses its last fraction of a second
		// (games and their blocks' done marks alike), played again on
		// resume.
		if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
			return 0, err
		}
	}
	var inserted int
	if s.dialect == "postgres" {
		inserted, err = s.insertGamesArrays(ctx, tx, runID, games)
	} else {
		inserted, err = s.insertGamesJSON(ctx, tx, runID, games)
	}
	if err != nil {
		return 0, err
	}
	// The moves of a game already stored are stored with it, in the same
	// transaction: inserting them again does nothing.
	for i := range games {
		g := &games[i]
		if len(g.Outcome.Moves) == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO game_moves (run_id, match_key, moves) VALUES (?,?,?) ON CONFLICT (run_id, match_key) DO NOTHING`),
			runID, g.Key, string(g.Outcome.Moves)); err != nil {
			return 0, err
		}
	}
	if err := s.insertBotLogs(ctx, tx, runID, games); err != nil {
		return 0, err
	}
	for _, b := range done {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE claim_blocks SET done = 1 WHERE run_id = ? AND lo = ?`), runID, b.Lo); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	// A file deleted or replaced while the run plays (a stat, a
	// microsecond a batch) stops the run at its next batch.
	return inserted, s.CheckFile()
}

// insertGamesJSON inserts games in one statement with one bound value:
// the batch as a JSON array of rows, which SQLite's jsonb_each unpacks.
// Thirteen bound values a row (a cgo call and a copy each) were half of
// storing a batch; one text built with appends is one call and almost no
// garbage beside the games (BenchmarkSaveBatch). It returns how many games
// were new.
func (s *Store) insertGamesJSON(ctx context.Context, tx *sql.Tx, runID string, games []GameRecord) (int, error) {
	buf := make([]byte, 0, 192*len(games))
	buf = append(buf, '[')
	for i := range games {
		g := &games[i]
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendGameRow(buf, g); err != nil {
			return 0, err
		}
	}
	buf = append(buf, ']')
	res, err := tx.ExecContext(ctx, `INSERT INTO games (run_id, match_key, idx, case_id, grp, seed, seats, turns, detail, wall_ms, worker, finished_at, seat_results)
		SELECT ?1, value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10, value->>11
		FROM jsonb_each(?2) WHERE true
		ON CONFLICT (run_id, match_key) DO NOTHING`, runID, buf)
	if err != nil {
		return 0, fmt.Errorf("storing %d games: %w", len(games), err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// insertGamesArrays inserts games in one statement whose columns are
// arrays (PostgreSQL's unnest): one parameter per column instead of one
// per value, and returns how many were new.
func (s *Store) insertGamesArrays(ctx context.Context, tx *sql.Tx, runID string, games []GameRecord) (int, error) {
	n := len(games)
	keys, cases, groups, seeds, seats, details, workers, finished, results := make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	idx, turns := make([]int64, n), make([]int64, n)
	walls := make([]float64, n)
	var buf []byte
	for i := range games {
		g := &games[i]
		var err error
		if seats[i], results[i], details[i], buf, err = gameText(g, buf); err != nil {
			return 0, err
		}
		keys[i], idx[i], cases[i], groups[i], seeds[i] = g.Key, int64(g.Index), g.CaseID, g.Group, strconv.FormatUint(g.Seed, 10)
		turns[i], walls[i], workers[i], finished[i] = int64(g.Outcome.Turns), float64(g.Wall)/1e6, g.Worker, g.Finished.UTC().Format(time.RFC3339Nano)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO games (run_id, match_key, idx, case_id, grp, seed, seats, turns, detail, wall_ms, worker, finished_at, seat_results)
		SELECT $1, * FROM unnest($2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int8[], $9::text[], $10::float8[], $11::text[], $12::text[], $13::text[])
		ON CONFLICT (run_id, match_key) DO NOTHING`,
		runID, keys, idx, cases, groups, seeds, seats, turns, details, walls, workers, finished, results)
	if err != nil {
		return 0, fmt.Errorf("storing %d games: %w", n, err)
	}
	ins, err := res.RowsAffected()
	return int(ins), err
}

// Games loads a run's finished games by match key.
func (s *Store) Games(ctx context.Context, runID string) (map[string]GameRecord, error) {
	return s.GamesExcept(ctx, runID, nil)
}

// GamesExcept loads a run's finished games by match key, leaving out those
// whose key skip reports (a nil skip leaves out none). The runner reads
// only what it needs of a game through Outcomes.
func (s *Store) GamesExcept(ctx context.Context, runID string, skip func(key string) bool) (map[string]GameRecord, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT match_key, idx, case_id, grp, seed, seats, turns, detail, wall_ms, worker, finished_at, seat_results FROM games WHERE run_id = ?`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]GameRecord{}
	old := false // games stored with their seats' results in outcomes
	// The text columns are scanned without copies (sql.RawBytes, valid
	// until the next row) and made strings only for the games kept.
	var key, caseID, group, seed, seats, detail, worker, fin, results sql.RawBytes
	for rows.Next() {
		var g GameRecord
		var wall float64
		if err := rows.Scan(&key, &g.Index, &caseID, &group, &seed, &seats, &g.Outcome.Turns, &detail, &wall, &worker, &fin, &results); err != nil {
			return nil, err
		}
		if skip != nil && skip(string(key)) {
			continue
		}
		g.Key, g.CaseID, g.Group, g.Worker = string(key), string(caseID), string(group), string(worker)
		if g.Seed, err = strconv.ParseUint(string(seed), 10, 64); err != nil {
			return nil, fmt.Errorf("run %s game %s: seed: %w", runID, g.Key, err)
		}
		if err := json.Unmarshal(seats, &g.Seats); err != nil {
			return nil, fmt.Errorf("run %s game %s: seats: %w", runID, g.Key, err)
		}
		if len(detail) > 0 && string(detail) != "{}" {
			var err error
			if g.Outcome.Detail, err = parseDetail(detail); err != nil {
				return nil, fmt.Errorf("run %s game %s: detail: %w", runID, g.Key, err)
			}
		}
		g.Wall = time.Duration(wall * 1e6)
		if g.Finished, err = time.Parse(time.RFC3339Nano, string(fin)); err != nil {
			return nil, fmt.Errorf("run %s game %s: finished: %w", runID, g.Key, err)
		}
		g.Outcome.Seats = make([]contract.SeatResult, len(g.Seats))
		if len(results) == 0 {
			old = true
		} else if err := parseSeatResults(string(results), g.Outcome.Seats); err != nil {
			return nil, fmt.Errorf("run %s game %s: seat results: %w", runID, g.Key, err)
		}
		out[g.Key] = g
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !old {
		return out, nil
	}
	orows, err := s.db.QueryContext(ctx, s.rebind(`SELECT match_key, seat, score, rank, forfeit FROM outcomes WHERE run_id = ?`), runID)
	if err != nil {
		return nil, err
	}
	defer orows.Close()
	for orows.Next() {
		var key, forfeit string
		var seat, rank int
		var score float64
		if err := orows.Scan(&key, &seat, &score, &rank, &forfeit); err != nil {
			return nil, err
		}
		g, ok := out[key]
		if !ok || seat < 0 || seat >= len(g.Outcome.Seats) {
			continue
		}
		g.Outcome.Seats[seat] = contract.SeatResult{Score: score, Rank: rank, Forfeit: forfeit}
	}
	return out, orows.Err()
}

// Outcomes reads what the runner needs of a run's stored games, all of
// them or, with keys non-nil, those keys: pick gives a key's plan index,
// or false for a game to leave out (one the caller has or does not know,
// or one add has received), and add receives the others' outcomes and
// game times. It reads five of a game's twelve columns and no seats,
// times or names: a worker decodes every game the other workers played,
// and GamesExcept's whole records cost about twice as much
// (BenchmarkOutcomes).
func (s *Store) Outcomes(ctx context.Context, runID string, keys []string, pick func(key []byte) (int, bool), add func(i int, o contract.Outcome, wall time.Duration)) error {
	const cols = `SELECT match_key, turns, detail, wall_ms, seat_results, seats FROM games `
	var rows *sql.Rows
	var err error
	switch {
	case keys == nil:
		rows, err = s.db.QueryContext(ctx, s.rebind(cols+`WHERE run_id = ?`), runID)
	case len(keys) == 0:
		return nil
	case s.dialect == "postgres":
		rows, err = s.db.QueryContext(ctx, cols+`WHERE run_id = $1 AND match_key = ANY($2::text[])`, runID, keys)
	default:
		list := appendList(nil, keys, appendJSONString)
		rows, err = s.db.QueryContext(ctx, cols+`WHERE run_id = ?1 AND match_key IN (SELECT value FROM json_each(?2))`, runID, string(list))
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	var key, detail, results, seats sql.RawBytes
	old := false // games stored with their seats' results in outcomes
	for rows.Next() {
		var o contract.Outcome
		var wall float64
		if err := rows.Scan(&key, &o.Turns, &detail, &wall, &results, &seats); err != nil {
			return err
		}
		i, ok := pick(key)
		if !ok {
			continue
		}
		if len(results) == 0 {
			old = true
			continue
		}
		if len(detail) > 0 && string(detail) != "{}" {
			var err error
			if o.Detail, err = parseDetail(detail); err != nil {
				return fmt.Errorf("run %s game %s: detail: %w", runID, key, err)
			}
		}
		n := 0 // seats: "[0,1]"
		if len(seats) > 2 {
			n = bytes.Count(seats, []byte{','}) + 1
		}
		o.Seats = make([]contract.SeatResult, n)
		if err := parseSeatResults(string(results), o.Seats); err != nil {
			return fmt.Errorf("run %s game %s: seat results: %w", runID, key, err)
		}
		add(i, o, time.Duration(wall*1e6))
	}
	if err := rows.Err(); err != nil || !old {
		return err
	}
	// A store from before seat_results: its games, less those added.
	stored, err := s.GamesExcept(ctx, runID, func(key string) bool {
		_, ok := pick([]byte(key))
		return !ok
	})
	if err != nil {
		return err
	}
	for key, g := range stored {
		i, _ := pick([]byte(key))
		add(i, g.Outcome, g.Wall)
	}
	return nil
}

// GameMoves returns the recorded moves of one stored game (nil when the
// game kept none: see PlayOptions.RecordMoves).
func (s *Store) GameMoves(ctx context.Context, runID, key string) (json.RawMessage, error) {
	var moves string
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT moves FROM game_moves WHERE run_id = ? AND match_key = ?`), runID, key).Scan(&moves)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return json.RawMessage(moves), nil
}

// NewKeys returns the match keys of a run's stored games that known does
// not report, and how many games the run holds in all. It reads the key
// column alone, which the primary key's index holds: a reader following a
// run (results.Follower) learns which of a million games are new in a
// fraction of what reading their outcomes costs (BenchmarkNewKeys).
func (s *Store) NewKeys(ctx context.Context, runID string, known func(key []byte) bool) ([]string, int, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT match_key FROM games WHERE run_id = ?`), runID)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []string
	n := 0
	var key sql.RawBytes // valid until the next row: copied for the keys kept
	for rows.Next() {
		if err := rows.Scan(&key); err != nil {
			return nil, 0, err
		}
		n++
		if !known(key) {
			out = append(out, string(key))
		}
	}
	return out, n, rows.Err()
}

// StoredKeys returns the match keys of a run's stored games.
func (s *Store) StoredKeys(ctx context.Context, runID string) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT match_key FROM games WHERE run_id = ?`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}
