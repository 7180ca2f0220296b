package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"gauntlet/internal/botlog"
	"gauntlet/internal/bounded"
)

// botLogsTable keeps external bots' stderr, one row per game and seat: the
// log (a botlog.Record as JSON, gzip-compressed, in base64 so that one
// TEXT column serves SQLite and PostgreSQL), why it was kept ("forfeit",
// "all" or "recent") and when, in Unix milliseconds (the latest games'
// logs are kept under "recent", the older ones deleted).
const botLogsTable = `CREATE TABLE IF NOT EXISTS bot_logs (
		run_id TEXT NOT NULL,
		match_key TEXT NOT NULL,
		seat INTEGER NOT NULL,
		why TEXT NOT NULL,
		at BIGINT NOT NULL,
		lines INTEGER NOT NULL,
		log TEXT NOT NULL,
		PRIMARY KEY (run_id, match_key, seat)
	)`

// Why a game's bots' logs are kept.
const (
	KeptForfeit = "forfeit" // a seat forfeited (crashed, timed out, broke the rules)
	KeptAll     = "all"     // --bot-logs all
	KeptRecent  = "recent"  // among the run's latest games (--bot-logs errors)
)

// maxLogText bounds a stored log's JSON when it is read back: the cap's
// bytes, each escaped in at most four ("\xff"), and the JSON around them.
const maxLogText = 8 * botlog.DefaultCap

// BotLog is one seat's stderr in one game.
type BotLog struct {
	Seat   int           `json:"seat"`
	Why    string        `json:"why"`
	Record botlog.Record `json:"log"`
}

// GameBotLogs are the kept logs of one game of a run.
type GameBotLogs struct {
	Key  string
	Logs []BotLog
}

// insertBotLogs stores the logs the games keep, in the games' transaction.
func (s *Store) insertBotLogs(ctx context.Context, tx *sql.Tx, runID string, games []GameRecord) error {
	at := time.Now().UnixMilli()
	for i := range games {
		if err := s.insertGameLogs(ctx, tx, runID, games[i].Key, games[i].BotLogs, at); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) insertGameLogs(ctx context.Context, tx *sql.Tx, runID, key string, logs []BotLog, at int64) error {
	for _, l := range logs {
		text, err := encodeLog(&l.Record)
		if err != nil {
			return fmt.Errorf("game %s seat %d: bot log: %w", key, l.Seat, err)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO bot_logs (run_id, match_key, seat, why, at, lines, log) VALUES (?,?,?,?,?,?,?)
			ON CONFLICT (run_id, match_key, seat) DO NOTHING`), runID, key, l.Seat, l.Why, at, l.Record.Lines(), text); err != nil {
			return fmt.Errorf("storing bot logs: %w", err)
		}
	}
	return nil
}

// SaveRecentBotLogs stores the logs of a run's latest games (kept as
// KeptRecent) and deletes those of older games kept for that reason, so
// that the run keeps the logs of its latest keep games (those kept for a
// forfeit or by --bot-logs all stay).
func (s *Store) SaveRecentBotLogs(ctx context.Context, runID string, games []GameBotLogs, keep int) error {
	if len(games) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Later games are later in the list, and later than the run's logs
	// stored before: their times say so, even within a millisecond.
	var last int64
	if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COALESCE(MAX(at), 0) FROM bot_logs WHERE run_id = ?`), runID).Scan(&last); err != nil {
		return fmt.Errorf("bot logs: %w", err)
	}
	at := max(time.Now().UnixMilli(), last+1)
	for i, g := range games {
		if err := s.insertGameLogs(ctx, tx, runID, g.Key, g.Logs, at+int64(i)); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM bot_logs WHERE run_id = ? AND why = ? AND match_key NOT IN (
		SELECT match_key FROM bot_logs WHERE run_id = ? AND why = ? GROUP BY match_key ORDER BY MAX(at) DESC, match_key DESC LIMIT ?)`),
		runID, KeptRecent, runID, KeptRecent, keep); err != nil {
		return fmt.Errorf("pruning bot logs: %w", err)
	}
	return tx.Commit()
}

// BotLogs returns the kept logs of one game of a run, by seat (none: an
// empty list).
func (s *Store) BotLogs(ctx context.Context, runID, key string) ([]BotLog, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT seat, why, log FROM bot_logs WHERE run_id = ? AND match_key = ? ORDER BY seat`), runID, key)
	if err != nil {
		return nil, fmt.Errorf("bot logs: %w", err)
	}
	defer rows.Close()
	var out []BotLog
	for rows.Next() {
		var l BotLog
		var text string
		if err := rows.Scan(&l.Seat, &l.Why, &text); err != nil {
			return nil, fmt.Errorf("bot logs: %w", err)
		}
		if l.Record, err = decodeLog(text); err != nil {
			return nil, fmt.Errorf("run %s game %s seat %d: bot log: %w", runID, key, l.Seat, err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// BotLogKeys returns the keys of a run's games that keep bots' logs.
func (s *Store) BotLogKeys(ctx context.Context, runID string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT DISTINCT match_key FROM bot_logs WHERE run_id = ? ORDER BY match_key`), runID)
	if err != nil {
		return nil, fmt.Errorf("bot logs: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("bot logs: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// encodeLog writes a record as stored: JSON, gzip, base64.
func encodeLog(r *botlog.Record) (string, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return "", err
	}
	if err := json.NewEncoder(zw).Encode(r); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// decodeLog reads a stored record, bounded in size: a store is a file
// anyone may have handed us.
func decodeLog(text string) (botlog.Record, error) {
	var r botlog.Record
	raw, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return r, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return r, err
	}
	data, err := bounded.ReadAll(zr, "bot log", maxLogText)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(data, &r)
}
