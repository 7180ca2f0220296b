package harness

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	"github.com/mattn/go-sqlite3"

	"gauntlet/internal/owner"
)

// DefaultStorage is the storage URL used when none is given.
const DefaultStorage = "sqlite:gauntlet.db"

// Store keeps runs and their finished games in SQLite or PostgreSQL.
// Every finished game is one row with its seats' results (games stored by
// versions before that have one outcomes row per seat), keyed by (run,
// match key) and inserted at most once, so a killed run resumes by playing
// exactly the games that have no row yet. Workers sharing a run claim its
// games in blocks (ClaimBlock).
type Store struct {
	db      *sql.DB
	dialect string // "sqlite" or "postgres"
	url     string
	mark    FileMark // an SQLite store's file as opened (CheckFile)
	// readOnly: an SQLite file opened by OpenStoreReadOnly, which nothing
	// writes to (and whose missing tables are read as empty).
	readOnly bool
}

// Storage describes a parsed storage URL.
type Storage struct {
	Dialect string // "sqlite" or "postgres"
	DSN     string // driver data source name
	Path    string // sqlite: the file
}

// ParseStorage reads "sqlite:FILE", "sqlite::memory:" or
// "postgres://user:pass@host/db?..." (also "postgresql://").
func ParseStorage(url string) (Storage, error) {
	switch {
	case strings.HasPrefix(url, "sqlite:"):
		path := strings.TrimPrefix(url, "sqlite:")
		if path == "" {
			return Storage{}, fmt.Errorf("storage %q: no file name after \"sqlite:\"", url)
		}
		if file, query, ok := strings.Cut(path, "?"); ok {
			// The store sets its own connection options; reading
			// commands open it read-only (mode=ro) on their own.
			var names []string
			for _, kv := range strings.Split(query, "&") {
				if k, _, _ := strings.Cut(kv, "="); k != "" {
					names = append(names, k)
				}
			}
			return Storage{}, fmt.Errorf("storage %q: options after \"?\" (%s) are not supported: give sqlite:%s (commands that only read open the store read-only on their own)", url, strings.Join(names, ", "), file)
		}
		if strings.HasPrefix(path, "//") {
			// SQLite's driver would read "//x.db" as a URI authority and
			// answer "invalid uri authority"; the form is another tool's.
			return Storage{}, fmt.Errorf("storage %q: write sqlite:FILE, with no \"//\" before the file (sqlite:%s)", url, path[2:])
		}
		// Each connection keeps its statements prepared (_stmt_cache_size):
		// the claims, renewals and batches repeat a few statements.
		params := "_journal_mode=WAL&_busy_timeout=60000&_txlock=immediate&_synchronous=NORMAL&_foreign_keys=1&_stmt_cache_size=32"
		if path == ":memory:" {
			// One shared in-memory database per process (tests).
			return Storage{Dialect: "sqlite", DSN: "file:gauntlet-mem?mode=memory&cache=shared&_busy_timeout=60000&_txlock=immediate", Path: path}, nil
		}
		return Storage{Dialect: "sqlite", DSN: "file:" + path + "?" + params, Path: path}, nil
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return Storage{Dialect: "postgres", DSN: url}, nil
	}
	return Storage{}, fmt.Errorf("storage %q: want sqlite:FILE or postgres://USER@HOST/DB", url)
}

// sqliteDriver is the SQLite driver of the store's connections: SQLite's
// own, with each connection's write-ahead log kept when the last one
// closes (SQLITE_FCNTL_PERSIST_WAL). Closing still moves the log into the
// database file, so the file alone holds everything, but it no longer
// deletes the log and the shared-memory index: the two unlinks took 3-7 ms
// each on this project's ext4 disks, a run's last milliseconds.
const sqliteDriver = "sqlite3-gauntlet"

func init() {
	const persistWAL = 10 // SQLITE_FCNTL_PERSIST_WAL
	sql.Register(sqliteDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		return c.SetFileControlInt("main", persistWAL, 1)
	}})
}

// OpenStore opens (and creates the tables of) the storage at url. An
// existing SQLite file must be a gauntlet store, or empty: any other
// database is refused before anything is written to it.
func OpenStore(ctx context.Context, url string) (*Store, error) { return openStore(ctx, url, false) }

// OpenStoreReadOnly opens the storage at url for reading only: an SQLite
// file must exist and be a gauntlet store (or empty), and nothing is
// written to it, nor made beside it on read-only media (see readDSN);
// tables it lacks read as empty. PostgreSQL stores are opened as by
// OpenStore.
func OpenStoreReadOnly(ctx context.Context, url string) (*Store, error) {
	return openStore(ctx, url, true)
}

func openStore(ctx context.Context, url string, readOnly bool) (*Store, error) {
	st, err := ParseStorage(url)
	if err != nil {
		return nil, err
	}
	driver, dsn := sqliteDriver, st.DSN
	file := st.Dialect == "sqlite" && st.Path != ":memory:"
	switch {
	case st.Dialect == "postgres":
		driver, readOnly = "pgx", false
	case !file:
		readOnly = false
	case readOnly:
		if driver, dsn, err = readOnlyFile(ctx, url, st.Path); err != nil {
			return nil, err
		}
	default:
		if err := writableFile(ctx, url, st.Path); err != nil {
			return nil, err
		}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("storage %q: %w", redact(url), err)
	}
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		_ = db.Close() // the ping's error is the one to report
		msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
		return nil, fmt.Errorf("storage %q unreachable: %s", redact(url), msg)
	}
	if st.Dialect == "sqlite" {
		db.SetMaxOpenConns(4)
	} else {
		// Keep the connections of the claims, renewals and batches open
		// between uses: a new PostgreSQL connection (a server process)
		// costs milliseconds, more on a loaded server.
		db.SetMaxIdleConns(8)
	}
	s := &Store{db: db, dialect: st.Dialect, url: url}
	if file {
		fi, err := os.Stat(st.Path)
		if err != nil {
			_ = db.Close() // the file's error is the one to report
			return nil, fmt.Errorf("storage %q: %w", url, err)
		}
		s.mark = FileMark{path: st.Path, file: fi}
	}
	if s.readOnly = readOnly; readOnly {
		return s, nil
	}
	if err := s.migrate(ctx); err != nil {
		_ = db.Close() // the migration's error is the one to report
		return nil, fmt.Errorf("storage %q: creating tables: %w", redact(url), err)
	}
	return s, nil
}

// writableFile prepares the SQLite file of a store opened for writing:
// made when missing, else checked to be a store or empty.
func writableFile(ctx context.Context, url, path string) error {
	if dir := filepath.Dir(path); dir != "." {
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("storage %q: directory %s: %w", url, dir, err)
		}
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if err := createSQLite(ctx, path); err != nil {
			return fmt.Errorf("storage %q: creating %s: %w", url, path, err)
		}
		return nil
	}
	if err := checkSQLite(ctx, path); err != nil {
		return fmt.Errorf("storage %q: %w", url, err)
	}
	return nil
}

// readOnlyFile checks the SQLite file of a store opened for reading (it
// exists, and is a store or empty) and returns the driver and data source
// name of its read-only connections.
func readOnlyFile(ctx context.Context, url, path string) (driver, dsn string, err error) {
	head, err := readHeader(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("storage %q: no database (%s: no such file)", url, path)
	} else if err != nil {
		return "", "", fmt.Errorf("storage %q: %w", url, err)
	}
	if err := checkSQLite(ctx, path); err != nil {
		return "", "", fmt.Errorf("storage %q: %w", url, err)
	}
	return sqliteReadDriver, readDSN(path, head), nil
}

// createSQLite makes a new SQLite database at path, its tables made and in
// WAL mode, without waiting for the disk. Made by its first connection, a
// new file went through a rollback journal until it was in WAL mode: four
// fsyncs and the journal's unlinks, 6-20 ms on this project's disks, a
// short run's whole cost, for a file that holds nothing yet. Here it is
// made under a name of its own, with neither journal nor syncs,
// and linked into place at once whole: a worker that makes it at the same
// moment finds it there (its own link fails) and opens it; a machine that
// crashes meanwhile leaves at most the temporary file.
func createSQLite(ctx context.Context, path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Close(); err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	db, err := sql.Open("sqlite3", "file:"+tmp+"?_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	db.SetMaxOpenConns(1) // the journal mode changes on the connection that made the tables
	err = (&Store{db: db, dialect: "sqlite"}).migrate(ctx)
	if err == nil {
		_, err = db.ExecContext(ctx, `PRAGMA journal_mode=WAL`)
	}
	if err = errors.Join(err, db.Close()); err == nil {
		if err = os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
			err = nil // another worker made it first
		}
	}
	return errors.Join(err, os.Remove(tmp))
}

// RedactURL hides the password of a storage URL for messages.
func RedactURL(url string) string { return redact(url) }

// redact hides a password in a URL for messages.
func redact(url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		rest := url[i+3:]
		if at := strings.Index(rest, "@"); at >= 0 {
			if c := strings.Index(rest[:at], ":"); c >= 0 {
				return url[:i+3] + rest[:c] + ":***" + rest[at:]
			}
		}
	}
	return url
}

// DB exposes the database (for the tuning storage and reports).
func (s *Store) DB() *sql.DB { return s.db }

// Dialect is "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.dialect }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// ReadOnly reports whether the store is an SQLite file opened for reading
// only (OpenStoreReadOnly): the tables of other packages are not to be made
// in it, and read as empty where missing. PostgreSQL and in-memory stores
// opened for reading are not read-only.
func (s *Store) ReadOnly() bool { return s.readOnly }

var schema = []string{
	`CREATE TABLE IF NOT EXISTS runs (
		id TEXT PRIMARY KEY,
		kind TEXT NOT NULL,
		game TEXT NOT NULL,
		case_set TEXT NOT NULL,
		spec TEXT NOT NULL,
		version TEXT NOT NULL,
		created_at TEXT NOT NULL,
		updated_at TEXT NOT NULL,
		status TEXT NOT NULL,
		summary TEXT NOT NULL DEFAULT ''
	)`,
	`CREATE TABLE IF NOT EXISTS run_entrants (
		run_id TEXT NOT NULL,
		idx INTEGER NOT NULL,
		entrant_key TEXT NOT NULL,
		label TEXT NOT NULL,
		strategy TEXT NOT NULL,
		params TEXT NOT NULL,
		version TEXT NOT NULL,
		PRIMARY KEY (run_id, idx)
	)`,
	`CREATE TABLE IF NOT EXISTS games (
		run_id TEXT NOT NULL,
		match_key TEXT NOT NULL,
		idx INTEGER NOT NULL,
		case_id TEXT NOT NULL,
		grp TEXT NOT NULL,
		seed TEXT NOT NULL,
		seats TEXT NOT NULL,
		turns INTEGER NOT NULL,
		detail TEXT NOT NULL,
		wall_ms DOUBLE PRECISION NOT NULL,
		worker TEXT NOT NULL,
		finished_at TEXT NOT NULL,
		PRIMARY KEY (run_id, match_key)
	)`,
	// The seats' results of the games stored before they moved into the
	// games row (games.seat_results, added by migrate); no longer written.
	`CREATE TABLE IF NOT EXISTS outcomes (
		run_id TEXT NOT NULL,
		match_key TEXT NOT NULL,
		seat INTEGER NOT NULL,
		entrant_idx INTEGER NOT NULL,
		score DOUBLE PRECISION NOT NULL,
		rank INTEGER NOT NULL,
		forfeit TEXT NOT NULL,
		PRIMARY KEY (run_id, match_key, seat)
	)`,
	// The players' moves of a game, kept when a replay cannot be played
	// again (an external bot's game): see PlayOptions.RecordMoves.
	`CREATE TABLE IF NOT EXISTS game_moves (
		run_id TEXT NOT NULL,
		match_key TEXT NOT NULL,
		moves TEXT NOT NULL,
		PRIMARY KEY (run_id, match_key)
	)`,
	// Per-game claims of the versions before claim_blocks; kept so that
	// their databases open, no longer written.
	`CREATE TABLE IF NOT EXISTS claims (
		run_id TEXT NOT NULL,
		match_key TEXT NOT NULL,
		owner TEXT NOT NULL,
		expires_at BIGINT NOT NULL,
		PRIMARY KEY (run_id, match_key)
	)`,
	// Blocks of a run's games claimed by workers: positions [lo, hi) of
	// the run's launch order, leased to owner until expires_at (Unix ms)
	// and renewed while played; done once all their games are stored.
	`CREATE TABLE IF NOT EXISTS claim_blocks (
		run_id TEXT NOT NULL,
		lo INTEGER NOT NULL,
		hi INTEGER NOT NULL,
		owner TEXT NOT NULL,
		expires_at BIGINT NOT NULL,
		done INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (run_id, lo)
	)`,
}

// lockHarnessSchema is the PostgreSQL advisory lock taken while the tables
// are created, so that workers starting together on a new database do not
// race in CREATE TABLE (the tuning storage uses its own keys).
const lockHarnessSchema = 0x67746e32

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.dialect == "postgres" {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, lockHarnessSchema); err != nil {
			return err
		}
	}
	for _, q := range schema {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if s.dialect == "sqlite" {
		// Mark the file as a gauntlet store (a new one, or one made
		// before the mark): see storeAppID.
		var id int64
		if err := tx.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil {
			return err
		}
		if uint32(id) != storeAppID {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, int32(storeAppID))); err != nil {
				return err
			}
		}
	}
	// Stores made before seat results moved into the games row get the
	// column; their games keep their rows in outcomes.
	has := 0
	q := `SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'seat_results'`
	if s.dialect == "postgres" {
		q = `SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'games' AND column_name = 'seat_results'`
	}
	if err := tx.QueryRowContext(ctx, q).Scan(&has); err != nil {
		return err
	}
	if has == 0 {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE games ADD COLUMN seat_results TEXT NOT NULL DEFAULT ''`); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// rebind turns ? placeholders into $1, $2... for PostgreSQL.
func (s *Store) rebind(q string) string {
	if s.dialect != "postgres" {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

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

	spec RunSpec // the decoded Spec of a run made by RunSpec.Record or loaded by LoadResults
	name string  // the run name it was given ("" for a derived ID)
}

// EntrantRecord is an entrant as stored with its run.
type EntrantRecord struct {
	Key      string         `json:"key"`
	Label    string         `json:"label"`
	Strategy string         `json:"strategy"` // "cmd" for external commands
	Params   map[string]any `json:"params"`
	Version  string         `json:"version"`
}

// Record returns the stored form of the entrant.
func (e *Entrant) Record() EntrantRecord {
	if e.stored != nil {
		return e.stored.rec
	}
	rec := EntrantRecord{Key: e.Key(), Label: e.Label(), Strategy: e.Name(), Version: e.Version}
	if e.Strategy != nil {
		rec.Params = e.Strategy.Params.Map(e.Params)
	} else {
		rec.Params = map[string]any{}
		for k, v := range e.Ext {
			rec.Params[k] = v
		}
	}
	return rec
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

// GameRecord is one finished game of a run.
type GameRecord struct {
	Key      string        `json:"key"`
	Index    int           `json:"index"`
	CaseID   string        `json:"case"`
	Group    string        `json:"group,omitempty"`
	Seed     uint64        `json:"seed"`
	Seats    []int         `json:"seats"` // entrant index per seat
	Outcome  Outcome       `json:"outcome"`
	Wall     time.Duration `json:"wall_ns"`
	Worker   string        `json:"worker"`
	Finished time.Time     `json:"finished"`
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

// gameText is the text columns of a game's row: seats, seat results and
// detail (JSON).
func gameText(g *GameRecord, buf []byte) (seats, results, detail string, _ []byte, err error) {
	buf = appendSeats(buf[:0], g.Seats)
	seats = string(buf)
	if buf, err = appendSeatResults(buf[:0], g.Outcome.Seats); err != nil {
		return "", "", "", buf, fmt.Errorf("game %s: %w", g.Key, err)
	}
	results = string(buf)
	if buf, err = appendDetail(buf[:0], g.Outcome.Detail); err != nil {
		return "", "", "", buf, fmt.Errorf("game %s: detail: %w", g.Key, err)
	}
	return seats, results, string(buf), buf, nil
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

// appendGameRow appends a game's row for insertGamesJSON: a JSON array of
// the games columns after run_id, in their order; seats, detail and seat
// results are JSON values inside it.
func appendGameRow(buf []byte, g *GameRecord) ([]byte, error) {
	buf = append(buf, '[')
	buf = appendJSONString(buf, g.Key)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(g.Index), 10)
	buf = append(buf, ',')
	buf = appendJSONString(buf, g.CaseID)
	buf = append(buf, ',')
	buf = appendJSONString(buf, g.Group)
	buf = append(buf, `,"`...)
	buf = strconv.AppendUint(buf, g.Seed, 10)
	buf = append(buf, `",`...)
	buf = appendSeats(buf, g.Seats)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(g.Outcome.Turns), 10)
	buf = append(buf, ',')
	buf, err := appendDetail(buf, g.Outcome.Detail)
	if err != nil {
		return buf, fmt.Errorf("game %s: detail: %w", g.Key, err)
	}
	buf = append(buf, ',')
	buf = strconv.AppendFloat(buf, float64(g.Wall)/1e6, 'g', -1, 64)
	buf = append(buf, ',')
	buf = appendJSONString(buf, g.Worker)
	buf = append(buf, `,"`...)
	buf = g.Finished.UTC().AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `",`...)
	if buf, err = appendSeatResults(buf, g.Outcome.Seats); err != nil {
		return buf, fmt.Errorf("game %s: %w", g.Key, err)
	}
	return append(buf, ']'), nil
}

// appendDetail appends a game's detail as encoding/json writes it. The
// games' own details (a few ints, strings, bools and slices of them) are
// written with appends: json.Marshal's reflection and sorting were a
// third of building a brew game's row and most of its garbage
// (BenchmarkSaveBatch); any other value goes through json.Marshal.
func appendDetail(buf []byte, d map[string]any) ([]byte, error) {
	if d == nil {
		return append(buf, "{}"...), nil
	}
	var keys [8]string
	if len(d) > len(keys) {
		return appendMarshal(buf, d)
	}
	n := 0
	for k, v := range d {
		if !plainDetail(v) || !plainString(k) {
			return appendMarshal(buf, d)
		}
		keys[n] = k
		n++
	}
	slices.Sort(keys[:n])
	buf = append(buf, '{')
	for i, k := range keys[:n] {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, k...)
		buf = append(buf, `":`...)
		switch v := d[k].(type) {
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case bool:
			buf = strconv.AppendBool(buf, v)
		case string:
			buf = appendJSONString(buf, v)
		case []int:
			buf = appendList(buf, v, appendInt)
		case []bool:
			buf = appendList(buf, v, strconv.AppendBool)
		case []string:
			buf = appendList(buf, v, appendJSONString)
		}
	}
	return append(buf, '}'), nil
}

// appendList appends xs as a JSON array, each element by appendElem.
func appendList[T any](buf []byte, xs []T, appendElem func([]byte, T) []byte) []byte {
	buf = append(buf, '[')
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendElem(buf, x)
	}
	return append(buf, ']')
}

func appendInt(buf []byte, x int) []byte { return strconv.AppendInt(buf, int64(x), 10) }

// plainDetail reports whether appendDetail writes v itself.
func plainDetail(v any) bool {
	switch v := v.(type) {
	case int, bool, string:
		return true
	case []int: // json.Marshal writes a nil slice as null
		return v != nil
	case []bool:
		return v != nil
	case []string:
		return v != nil
	}
	return false
}

// appendMarshal appends v as json.Marshal writes it.
func appendMarshal(buf []byte, v any) ([]byte, error) {
	js, err := json.Marshal(v)
	return append(buf, js...), err
}

// appendJSONString appends s as a JSON string, as encoding/json writes
// it: keys, case IDs and worker names need no escaping and are copied.
func appendJSONString(buf []byte, s string) []byte {
	if !plainString(s) {
		// Marshal of a string fails on nothing (invalid UTF-8 becomes
		// U+FFFD).
		js, _ := json.Marshal(s)
		return append(buf, js...)
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// plainString reports whether s is written in JSON as it is, between
// quotes: printable ASCII without the characters encoding/json escapes.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x80, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
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

// appendSeatResults appends the seats' results as a JSON array of
// [score, rank, forfeit] arrays.
func appendSeatResults(buf []byte, seats []SeatResult) ([]byte, error) {
	buf = append(buf, '[')
	for i, o := range seats {
		if math.IsNaN(o.Score) || math.IsInf(o.Score, 0) {
			return buf, fmt.Errorf("seat %d: score %v is not a finite number", i, o.Score)
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendFloat(buf, o.Score, 'g', -1, 64)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(o.Rank), 10)
		buf = append(buf, ',')
		buf = appendJSONString(buf, o.Forfeit)
		buf = append(buf, ']')
	}
	return append(buf, ']'), nil
}

// parseSeatResults reads what appendSeatResults wrote into seats.
func parseSeatResults(s string, seats []SeatResult) error {
	if scanSeatResults(s, seats) {
		return nil
	}
	var raw [][3]json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return err
	}
	for i := range min(len(raw), len(seats)) {
		o := &seats[i]
		if err := errors.Join(json.Unmarshal(raw[i][0], &o.Score), json.Unmarshal(raw[i][1], &o.Rank), json.Unmarshal(raw[i][2], &o.Forfeit)); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// scanSeatResults reads the form appendSeatResults writes without a JSON
// decoder (a resumed run reads every stored game); it reports false for
// anything else, which parseSeatResults then decodes as JSON.
func scanSeatResults(s string, seats []SeatResult) bool {
	rest, ok := strings.CutPrefix(s, "[")
	if !ok {
		return false
	}
	for i := 0; ; i++ {
		if rest == "]" {
			return true
		}
		if i > 0 {
			if rest, ok = strings.CutPrefix(rest, ","); !ok {
				return false
			}
		}
		if rest, ok = strings.CutPrefix(rest, "["); !ok {
			return false
		}
		score, after, ok := strings.Cut(rest, ",")
		if !ok {
			return false
		}
		rank, after, ok := strings.Cut(after, ",")
		if !ok || !strings.HasPrefix(after, `"`) {
			return false
		}
		end := strings.IndexByte(after[1:], '"')
		if end < 0 || strings.IndexByte(after[1:1+end], '\\') >= 0 {
			return false // escapes: JSON's decoder reads them
		}
		x, err1 := strconv.ParseFloat(score, 64)
		r, err2 := strconv.Atoi(rank)
		if err1 != nil || err2 != nil {
			return false
		}
		if i < len(seats) {
			seats[i] = SeatResult{Score: x, Rank: r, Forfeit: after[1 : 1+end]}
		}
		if rest, ok = strings.CutPrefix(after[2+end:], "]"); !ok {
			return false
		}
	}
}

// appendSeats appends the JSON array of seats ("[0,1]") to buf.
func appendSeats(buf []byte, seats []int) []byte { return appendList(buf, seats, appendInt) }

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
		g.Outcome.Seats = make([]SeatResult, len(g.Seats))
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
		g.Outcome.Seats[seat] = SeatResult{Score: score, Rank: rank, Forfeit: forfeit}
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
func (s *Store) Outcomes(ctx context.Context, runID string, keys []string, pick func(key []byte) (int, bool), add func(i int, o Outcome, wall time.Duration)) error {
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
		var o Outcome
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
		o.Seats = make([]SeatResult, n)
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

// Runs lists stored runs with their entrants, newest first (without their
// games).
func (s *Store) Runs(ctx context.Context) ([]RunRecord, error) { return s.runs(ctx, "") }

// Run loads one run with its entrants.
func (s *Store) Run(ctx context.Context, id string) (*RunRecord, error) {
	runs, err := s.runs(ctx, id)
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

// runs reads the stored runs with their entrants, newest first: every run,
// or only the run id when id is not "".
func (s *Store) runs(ctx context.Context, id string) ([]RunRecord, error) {
	q := `SELECT r.id, r.kind, r.game, r.case_set, r.spec, r.version, r.created_at, r.updated_at, r.status, r.summary,
		(SELECT COUNT(*) FROM games g WHERE g.run_id = r.id) FROM runs r`
	var args []any
	if id != "" {
		q += ` WHERE r.id = ?`
		args = append(args, id)
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(q+` ORDER BY r.created_at DESC`), args...)
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
	return out, s.addEntrants(ctx, out, id)
}

// addEntrants fills in the entrants of runs in one query: those of every
// run, or of the run id when id is not "".
func (s *Store) addEntrants(ctx context.Context, runs []RunRecord, id string) error {
	at := make(map[string]int, len(runs))
	for i := range runs {
		at[runs[i].ID] = i
	}
	q := `SELECT run_id, entrant_key, label, strategy, params, version FROM run_entrants`
	var args []any
	if id != "" {
		q += ` WHERE run_id = ?`
		args = append(args, id)
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(q+` ORDER BY run_id, idx`), args...)
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

// Block is a claimed block of a run's games: the positions [Lo, Hi) of
// the run's launch order (see launchOrder), the same for every worker of
// the run.
type Block struct {
	Lo, Hi int
	// Takeover is true for a block that another worker had claimed and
	// left (it died, or its lease expired): some of its games may be
	// stored already.
	Takeover bool
}

// ClaimBlock claims a block of run runID's games for owner for the lease
// duration, in one transaction that no other claimer of the run runs at the
// same time: first a block left by another worker (its lease expired, or
// its owner is a process of this machine that is gone: see WorkerGone),
// else the next fresh block of up to size positions of the n (less near the
// end, see below). held lists
// the blocks owner plays already (not taken again). ok is false when there
// is no block to take; others then reports how many unfinished blocks other
// workers hold (0: nothing is left to play).
func (s *Store) ClaimBlock(ctx context.Context, runID, owner string, n, size int, lease time.Duration, held func(lo int) bool) (b Block, ok bool, others int, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Block{}, false, 0, err
	}
	defer tx.Rollback()
	if s.dialect == "postgres" {
		// Serialise claimers of one run (SQLite's immediate transactions do this already).
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, runID); err != nil {
			return Block{}, false, 0, err
		}
	}
	now := time.Now()
	until := now.Add(lease).UnixMilli()
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT lo, hi, owner, expires_at FROM claim_blocks WHERE run_id = ? AND done = 0 ORDER BY lo`), runID)
	if err != nil {
		return Block{}, false, 0, err
	}
	var open []struct {
		b     Block
		owner string
		exp   int64
	}
	for rows.Next() {
		var o struct {
			b     Block
			owner string
			exp   int64
		}
		if err := rows.Scan(&o.b.Lo, &o.b.Hi, &o.owner, &o.exp); err != nil {
			rows.Close()
			return Block{}, false, 0, err
		}
		open = append(open, o)
	}
	if err := rows.Close(); err != nil {
		return Block{}, false, 0, err
	}
	found := false
	owners := map[string]bool{owner: true}
	for _, o := range open {
		owners[o.owner] = true
		if o.owner == owner && held(o.b.Lo) {
			continue
		}
		if !found && (o.exp < now.UnixMilli() || o.owner == owner || WorkerGone(o.owner)) {
			b, found = o.b, true
			b.Takeover = true
			continue
		}
		others++
	}
	if found {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE claim_blocks SET owner = ?, expires_at = ? WHERE run_id = ? AND lo = ?`), owner, until, runID, b.Lo); err != nil {
			return Block{}, false, 0, err
		}
		return b, true, others, tx.Commit()
	}
	var cursor int
	if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COALESCE(MAX(hi), 0) FROM claim_blocks WHERE run_id = ?`), runID).Scan(&cursor); err != nil {
		return Block{}, false, 0, err
	}
	if cursor >= n {
		return Block{}, false, others, tx.Commit()
	}
	// Guided self-scheduling: at most half of an even share of what is
	// left among the workers seen, so that the last blocks are small and
	// the workers finish together.
	size = min(size, (n-cursor+2*len(owners)-1)/(2*len(owners)))
	b = Block{Lo: cursor, Hi: min(cursor+max(size, 1), n)}
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO claim_blocks (run_id, lo, hi, owner, expires_at, done) VALUES (?,?,?,?,?,0)`),
		runID, b.Lo, b.Hi, owner, until); err != nil {
		return Block{}, false, 0, err
	}
	return b, true, others, tx.Commit()
}

// BlockState is a claimed block of a run as the store has it.
type BlockState struct {
	Block
	Owner string
	Done  bool
}

// BlocksFrom returns the claimed blocks of a run from launch position lo
// on, in launch order: a worker reading the games of the blocks others
// have finished asks only for those past the ones it has read.
func (s *Store) BlocksFrom(ctx context.Context, runID string, lo int) ([]BlockState, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT lo, hi, owner, done FROM claim_blocks WHERE run_id = ? AND lo >= ? ORDER BY lo`), runID, lo)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BlockState
	for rows.Next() {
		var b BlockState
		var done int
		if err := rows.Scan(&b.Lo, &b.Hi, &b.Owner, &done); err != nil {
			return nil, err
		}
		b.Done = done != 0
		out = append(out, b)
	}
	return out, rows.Err()
}

// RenewBlocks extends the lease of owner's unfinished blocks of a run.
func (s *Store) RenewBlocks(ctx context.Context, runID, owner string, lease time.Duration) error {
	_, err := s.db.ExecContext(ctx, s.rebind(`UPDATE claim_blocks SET expires_at = ? WHERE run_id = ? AND owner = ? AND done = 0`),
		time.Now().Add(lease).UnixMilli(), runID, owner)
	return err
}

// ReopenBlocks marks the done blocks of a run that hold any of the given
// positions as left (not done, lease ended), so that a worker takes them
// over and plays their games that are not stored.
func (s *Store) ReopenBlocks(ctx context.Context, runID string, positions []int) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT lo, hi FROM claim_blocks WHERE run_id = ? AND done = 1`), runID)
	if err != nil {
		return err
	}
	var reopen []int
	for rows.Next() {
		var lo, hi int
		if err := rows.Scan(&lo, &hi); err != nil {
			rows.Close()
			return err
		}
		for _, p := range positions {
			if p >= lo && p < hi {
				reopen = append(reopen, lo)
				break
			}
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, lo := range reopen {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE claim_blocks SET done = 0, expires_at = 0 WHERE run_id = ? AND lo = ?`), runID, lo); err != nil {
			return err
		}
	}
	return tx.Commit()
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

// Release hands back owner's unfinished blocks of a run (an interrupted or
// early-stopped worker): their leases end now, so that another worker takes
// them over at once and plays their games that are not stored.
func (s *Store) Release(ctx context.Context, runID, owner string) error {
	_, err := s.db.ExecContext(ctx, s.rebind(`UPDATE claim_blocks SET expires_at = 0 WHERE run_id = ? AND owner = ? AND done = 0`), runID, owner)
	return err
}

// WorkerName is the default name of this process as a worker of a run:
// "host:TOKEN", TOKEN being its owner token (pid and start time, see
// internal/owner), so that another process on the same machine can tell
// that it is gone.
func WorkerName() string {
	host, _ := os.Hostname()
	return host + ":" + owner.Token()
}

// WorkerGone reports whether a worker name ("host:TOKEN", see WorkerName,
// or "host:pid" of earlier versions) is a process of this machine that no
// longer exists: a run killed with SIGKILL resumes at once on the same
// machine instead of waiting for its claims to expire. Names of other
// machines, and names of another form, are never gone.
func WorkerGone(name string) bool {
	i := strings.LastIndexByte(name, ':')
	if i <= 0 {
		return false
	}
	host, _ := os.Hostname()
	tok := name[i+1:]
	if name[:i] != host || tok == owner.Token() {
		return false
	}
	if pidText, _, hasStart := strings.Cut(tok, "."); !hasStart {
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			return false
		}
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	}
	return !owner.Alive(tok)
}
