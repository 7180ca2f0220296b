package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// RunRecord is a stored run.
type RunRecord struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"` // "eval", "ab", "tune"
	Game      string          `json:"game"`
	CaseSet   string          `json:"case_set"`
	Spec      string          `json:"spec"` // canonical JSON of everything that defines the run
	Version   string          `json:"version"`
	Created   time.Time       `json:"created"`
	Updated   time.Time       `json:"updated"`
	Status    string          `json:"status"` // "running", "complete", "stopped"
	Summary   json.RawMessage `json:"summary,omitempty"`
	Entrants  []EntrantRecord `json:"entrants"`
	Resumed   bool            `json:"-"`
	GameCount int             `json:"games"`
}

// EntrantRecord is an entrant as stored with its run.
type EntrantRecord struct {
	Key      string         `json:"key"`
	Label    string         `json:"label"`
	Strategy string         `json:"strategy"` // "cmd" for external commands
	Params   map[string]any `json:"params"`
	Version  string         `json:"version"`
}

// ErrRunMismatch is returned when a run name is reused for a different
// configuration.
var ErrRunMismatch = errors.New("run exists with a different configuration")

// OpenRun creates the run, or finds it (same ID and same spec) and marks it
// resumed. A stored run with the same ID and another spec is an error.
// Workers on other machines may open the same run at the same moment: the
// insert does nothing when another worker's run row got there first, and the
// run is then read back as a resumed one.
func (s *Store) OpenRun(ctx context.Context, r *RunRecord) error {
	created, err := s.openRun(ctx, r)
	if err != nil || created || r.Resumed {
		return err
	}
	if _, err := s.openRun(ctx, r); err != nil {
		return err
	}
	if !r.Resumed {
		return fmt.Errorf("run %q: another worker's run row was neither found nor created", r.ID)
	}
	return nil
}

// openRun is one attempt of OpenRun. It reports created=false with
// r.Resumed=false when another worker created the run between the lookup and
// the insert.
func (s *Store) openRun(ctx context.Context, r *RunRecord) (created bool, err error) {
	now := time.Now().UTC()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var spec, createdAt string
	err = tx.QueryRowContext(ctx, s.rebind(`SELECT spec, created_at FROM runs WHERE id = ?`), r.ID).Scan(&spec, &createdAt)
	switch {
	case err == nil:
		if spec != r.Spec {
			return false, fmt.Errorf("run %q: %w (stored %s; now %s); pick another --run name", r.ID, ErrRunMismatch, spec, r.Spec)
		}
		r.Resumed = true
		if r.Created, err = time.Parse(time.RFC3339Nano, createdAt); err != nil {
			return false, fmt.Errorf("run %q: created: %w", r.ID, err)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE runs SET updated_at = ?, status = ? WHERE id = ?`),
			now.Format(time.RFC3339Nano), "running", r.ID); err != nil {
			return false, err
		}
	case errors.Is(err, sql.ErrNoRows):
		res, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO runs (id, kind, game, case_set, spec, version, created_at, updated_at, status) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO NOTHING`),
			r.ID, r.Kind, r.Game, r.CaseSet, r.Spec, r.Version, now.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), "running")
		if err != nil {
			return false, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, err
		} else if n == 0 {
			return false, nil
		}
		r.Created = now
		for i, e := range r.Entrants {
			params, err := json.Marshal(e.Params)
			if err != nil {
				return false, fmt.Errorf("run %q entrant %s: params: %w", r.ID, e.Key, err)
			}
			if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO run_entrants (run_id, idx, entrant_key, label, strategy, params, version) VALUES (?,?,?,?,?,?,?)`),
				r.ID, i, e.Key, e.Label, e.Strategy, string(params), e.Version); err != nil {
				return false, err
			}
		}
		created = true
	default:
		return false, err
	}
	r.Status = "running"
	return created, tx.Commit()
}

// FinishRun records the run's status and summary JSON (EvalSummary.Stored,
// ABSummary.Stored: the games hold the per-case rows).
func (s *Store) FinishRun(ctx context.Context, id, status string, summary any) error {
	js, err := json.Marshal(summary)
	if err != nil {
		return err
	}
	if _, err = s.db.ExecContext(ctx, s.rebind(`UPDATE runs SET status = ?, summary = ?, updated_at = ? WHERE id = ?`),
		status, string(js), time.Now().UTC().Format(time.RFC3339Nano), id); err != nil {
		return err
	}
	return s.CheckFile()
}

// Runs lists stored runs with their entrants, newest first (without their
// games).
func (s *Store) Runs(ctx context.Context) ([]RunRecord, error) { return s.runs(ctx, runFilter{}) }

// RunsWithPrefix lists the stored runs whose names begin with prefix, as
// Runs does: the runs that a study derives from its own name (its
// hold-outs), without reading every run of the store.
func (s *Store) RunsWithPrefix(ctx context.Context, prefix string) ([]RunRecord, error) {
	return s.runs(ctx, runFilter{prefix: prefix})
}

// Run loads one run with its entrants.
func (s *Store) Run(ctx context.Context, id string) (*RunRecord, error) {
	runs, err := s.runs(ctx, runFilter{id: id})
	if err != nil {
		return nil, err
	}
	if len(runs) == 1 {
		return &runs[0], nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM runs ORDER BY created_at DESC LIMIT 9`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var stored string
		if err := rows.Scan(&stored); err != nil {
			return nil, err
		}
		ids = append(ids, stored)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) > 8 {
		ids = append(ids[:8], "...")
	}
	return nil, fmt.Errorf("no run %q in %s (stored: %s)", id, redact(s.url), listOrNone(ids))
}

// runFilter chooses the runs that runs reads: the run id, or those whose
// names begin with prefix, or (both "") every run.
type runFilter struct{ id, prefix string }

// where is the filter's SQL condition on the run name column col ("" for
// every run) and its arguments. A prefix is compared with substr, not
// LIKE, whose wildcards a case set may hold; both engines count its length
// in characters.
func (f runFilter) where(col string) (string, []any) {
	switch {
	case f.id != "":
		return ` WHERE ` + col + ` = ?`, []any{f.id}
	case f.prefix != "":
		return ` WHERE substr(` + col + `, 1, ?) = ?`, []any{utf8.RuneCountInString(f.prefix), f.prefix}
	}
	return "", nil
}

// runs reads the stored runs that f chooses, with their entrants, newest
// first.
func (s *Store) runs(ctx context.Context, f runFilter) ([]RunRecord, error) {
	q := `SELECT r.id, r.kind, r.game, r.case_set, r.spec, r.version, r.created_at, r.updated_at, r.status, r.summary,
		(SELECT COUNT(*) FROM games g WHERE g.run_id = r.id) FROM runs r`
	where, args := f.where("r.id")
	rows, err := s.db.QueryContext(ctx, s.rebind(q+where+` ORDER BY r.created_at DESC`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunRecord
	for rows.Next() {
		var r RunRecord
		var created, updated, summary string
		if err := rows.Scan(&r.ID, &r.Kind, &r.Game, &r.CaseSet, &r.Spec, &r.Version, &created, &updated, &r.Status, &summary, &r.GameCount); err != nil {
			return nil, err
		}
		if r.Created, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, fmt.Errorf("run %s: created: %w", r.ID, err)
		}
		if r.Updated, err = time.Parse(time.RFC3339Nano, updated); err != nil {
			return nil, fmt.Errorf("run %s: updated: %w", r.ID, err)
		}
		if summary != "" {
			r.Summary = json.RawMessage(summary)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, s.addEntrants(ctx, out, f)
}

// addEntrants fills in the entrants of runs, the runs f chose, in one
// query.
func (s *Store) addEntrants(ctx context.Context, runs []RunRecord, f runFilter) error {
	if len(runs) == 0 {
		return nil
	}
	at := make(map[string]int, len(runs))
	for i := range runs {
		at[runs[i].ID] = i
	}
	q := `SELECT run_id, entrant_key, label, strategy, params, version FROM run_entrants`
	where, args := f.where("run_id")
	rows, err := s.db.QueryContext(ctx, s.rebind(q+where+` ORDER BY run_id, idx`), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var runID, params string
		var e EntrantRecord
		if err := rows.Scan(&runID, &e.Key, &e.Label, &e.Strategy, &params, &e.Version); err != nil {
			return err
		}
		i, ok := at[runID]
		if !ok {
			continue // a run created after the first query
		}
		if err := json.Unmarshal([]byte(params), &e.Params); err != nil {
			return fmt.Errorf("run %s entrant %s: params: %w", runID, e.Key, err)
		}
		runs[i].Entrants = append(runs[i].Entrants, e)
	}
	return rows.Err()
}

// listOrNone lists names for a message, or says there are none.
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
