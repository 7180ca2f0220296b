package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	"github.com/mattn/go-sqlite3"

	"gauntlet/internal/sqldb"
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
	dialect sqldb.Dialect
	url     string
	mark    FileMark // an SQLite store's file as opened (CheckFile)
	// readOnly: an SQLite file opened by OpenReadOnly, which nothing
	// writes to (and whose missing tables are read as empty).
	readOnly bool
}

// Storage describes a parsed storage URL.
type Storage struct {
	Dialect sqldb.Dialect
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

// Open opens (and creates the tables of) the storage at url. An
// existing SQLite file must be a gauntlet store, or empty: any other
// database is refused before anything is written to it.
func Open(ctx context.Context, url string) (*Store, error) { return openStore(ctx, url, false) }

// OpenReadOnly opens the storage at url for reading only: an SQLite
// file must exist and be a gauntlet store (or empty), and nothing is
// written to it, nor made beside it on read-only media (see readDSN);
// tables it lacks read as empty. PostgreSQL stores are opened as by
// Open.
func OpenReadOnly(ctx context.Context, url string) (*Store, error) {
	return openStore(ctx, url, true)
}

// OpenLayer opens the storage at url (by OpenReadOnly where readOnly,
// else by Open) and returns the layer that on makes of it: the store of
// a league, a study or an SPSA study, sharing its connections. Should on
// fail, the storage is closed again and on's error returned.
func OpenLayer[T any](ctx context.Context, url string, readOnly bool, on func(context.Context, *Store) (T, error)) (T, error) {
	var zero T
	hs, err := openStore(ctx, url, readOnly)
	if err != nil {
		return zero, err
	}
	layer, err := on(ctx, hs)
	if err != nil {
		_ = hs.Close() // on's error is the one to report
		return zero, err
	}
	return layer, nil
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
	err = (&Store{db: db, dialect: sqldb.SQLite}).migrate(ctx)
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

// URL is the storage URL the store was opened with (RedactURL hides its
// password for messages).
func (s *Store) URL() string { return s.url }

// Dialect is "sqlite" or "postgres".
func (s *Store) Dialect() sqldb.Dialect { return s.dialect }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// ReadOnly reports whether the store is an SQLite file opened for reading
// only (OpenReadOnly): the tables of other packages are not to be made
// in it, and read as empty where missing. PostgreSQL and in-memory stores
// opened for reading are not read-only.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Schema returns the statements that create a store's tables and indexes,
// in order (a test builds a store of an earlier version from them).
func Schema() []string { return slices.Clone(schema) }

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
	// Games whose referee program failed (a crash, a hang, a broken
	// protocol): not played games, kept apart so that a rerun plays them
	// again (RefereeError).
	`CREATE TABLE IF NOT EXISTS referee_errors (
		run_id TEXT NOT NULL,
		match_key TEXT NOT NULL,
		case_id TEXT NOT NULL,
		reason TEXT NOT NULL,
		stderr TEXT NOT NULL,
		worker TEXT NOT NULL,
		at TEXT NOT NULL,
		PRIMARY KEY (run_id, match_key)
	)`,
	// External bots' stderr, kept per game and seat (--bot-logs): see
	// botlogs.go.
	botLogsTable,
}

// migrate creates the tables the store lacks, holding the advisory lock
// sqldb.LockRunsSchema on PostgreSQL, so that workers starting together on
// a new database do not race in CREATE TABLE.
func (s *Store) migrate(ctx context.Context) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(sqldb.LockRunsSchema, 0), func(tx *sql.Tx) error {
		return s.migrateTx(ctx, tx)
	})
}

// createTables runs a family's CREATE TABLE IF NOT EXISTS statements in
// one transaction holding the family's schema lock (on PostgreSQL).
func (s *Store) createTables(ctx context.Context, lock sqldb.LockKey, creates []string) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(lock, 0), func(tx *sql.Tx) error {
		for _, q := range creates {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// migrateTx is migrate's work in its transaction.
func (s *Store) migrateTx(ctx context.Context, tx *sql.Tx) error {
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
	return nil
}

// rebind is q with the store's placeholders (sqldb.Dialect.Rebind).
func (s *Store) rebind(q string) string { return s.dialect.Rebind(q) }
