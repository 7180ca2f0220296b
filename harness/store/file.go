package store

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/mattn/go-sqlite3"
)

// A gauntlet store is recognised by the application_id of its SQLite file
// (PRAGMA application_id): storeAppID, set when the store is made. A store
// made before the id was set (application_id 0) is recognised by its
// tables, and given the id when a command that writes opens it. Any other
// database is refused before anything is written to it.

// storeAppID is the SQLite application_id of a gauntlet store ("gtlt").
const storeAppID = 0x67746c74

// sqliteReadDriver is the driver of the read-only connections: SQLite's own,
// each connection given temporary stand-ins for the tables and the column
// that the store lacks (made by an older version, or by nothing yet), so
// that reading a store never has to write to it.
const sqliteReadDriver = "sqlite3-gauntlet-ro"

func init() {
	sql.Register(sqliteReadDriver, &sqlite3.SQLiteDriver{ConnectHook: standIns})
}

// declaredTables returns the CREATE statements of every table of a store
// (the runs', the tuning studies', the SPSA studies' and the leagues') and
// the names of the tables declared by name only (Goptuna's).
func declaredTables() (creates, names []string) {
	return slices.Concat(schema, studySchema, spsaSchema, leagueSchema), goptunaTables
}

// createdTable is the table a CREATE TABLE IF NOT EXISTS statement makes.
func createdTable(create string) string {
	f := strings.Fields(strings.ReplaceAll(create, "(", " ("))
	if len(f) < 6 {
		return ""
	}
	return f[5]
}

// sqliteHeader is the start of every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkSQLite checks that the existing file at path is a gauntlet store (by
// its application_id, or by its tables when it was made before the id was
// set) or empty, writing nothing to it (a read-only connection, see
// readDSN). Any other file is an error naming its tables.
func checkSQLite(ctx context.Context, path string) error {
	head, err := readHeader(path)
	if err != nil {
		return err
	}
	switch {
	case len(head) == 0:
		return nil
	case len(head) < 100 || !bytes.HasPrefix(head, []byte(sqliteHeader)):
		return fmt.Errorf("%s is not a gauntlet store (not an SQLite database)", path)
	case binary.BigEndian.Uint32(head[68:72]) == storeAppID:
		return nil
	}
	// The id in the header is 0 or another program's, or the id is set in
	// the write-ahead log not yet copied into the file: SQLite says.
	db, err := sql.Open("sqlite3", readDSN(path, head))
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }() // read only: a failed close loses nothing
	db.SetMaxOpenConns(1)
	var id int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if uint32(id) == storeAppID {
		return nil
	}
	tables, err := tableColumns(ctx, db)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	names := slices.Sorted(maps.Keys(tables))
	switch {
	case id != 0:
		return fmt.Errorf("%s is not a gauntlet store (its application_id is %#x, another program's; it has tables %s)", path, uint32(id), listOrNone(names))
	case len(tables) == 0:
		return nil
	}
	ok, err := legacyStore(ctx, tables)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s is not a gauntlet store (it has tables %s)", path, strings.Join(names, ", "))
	}
	return nil
}

// readHeader reads the first 100 bytes of the file at path (fewer when it
// is shorter; none when it is empty).
func readHeader(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: a failed close loses nothing
	head := make([]byte, 100)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return head[:n], nil
}

// legacyStore reports whether tables (name: columns) are those of a store
// made before the application_id was set: every table is one of a store's,
// at least one is declared with its columns, and each such table has all
// its declared columns.
func legacyStore(ctx context.Context, tables map[string][]string) (bool, error) {
	declared, err := declaredColumns(ctx)
	if err != nil {
		return false, err
	}
	checked := false
	for name, cols := range tables {
		want, ok := declared[name]
		if !ok {
			return false, nil
		}
		if want == nil {
			continue // declared by name only
		}
		for _, c := range want {
			if !slices.Contains(cols, c) {
				return false, nil
			}
		}
		checked = true
	}
	return checked, nil
}

// declaredColumns returns the columns of every declared table, made in an
// in-memory database (nil for a table declared by name only).
func declaredColumns(ctx context.Context) (map[string][]string, error) {
	creates, names := declaredTables()
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return nil, err
	}
	defer func() { _ = db.Close() }() // in memory: nothing to lose
	db.SetMaxOpenConns(1)
	for _, q := range creates {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, err
		}
	}
	out, err := tableColumns(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			out[n] = nil
		}
	}
	return out, nil
}

// tablesQuery lists the tables of the main schema with their columns,
// SQLite's own tables left out: one row per column.
const tablesQuery = `SELECT m.name, p.name FROM main.sqlite_master m, pragma_table_info(m.name, 'main') p
	WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'`

// tableColumns returns the tables of db with their columns (tablesQuery).
func tableColumns(ctx context.Context, db *sql.DB) (map[string][]string, error) {
	rows, err := db.QueryContext(ctx, tablesQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			return nil, err
		}
		out[t] = append(out[t], c)
	}
	return out, rows.Err()
}

// readDSN is the data source name of a read-only connection to the SQLite
// file at path, whose header is head. The file is opened immutable (no
// locks; no write-ahead log or shared-memory index made beside it, and a
// log there not read) when its directory cannot be written (read-only
// media) and the log and index are not both there, and when it is in WAL
// mode with no log, or an empty one, beside it: there is nothing in a log
// to read, and opening it otherwise would make the log and its index.
func readDSN(path string, head []byte) string {
	params := "mode=ro&_busy_timeout=60000&_txlock=deferred&_stmt_cache_size=32"
	wal := len(head) >= 20 && head[18] == 2 && head[19] == 2
	noLog := emptyOrMissing(path + "-wal")
	logs := !noLog && !emptyOrMissing(path+"-shm")
	if !writableDir(filepath.Dir(path)) && !logs || wal && noLog {
		params += "&immutable=1"
	}
	return "file:" + path + "?" + params
}

// writableDir reports whether files can be made in dir. A variable so that
// tests, which run as root (to whom a directory's permissions deny
// nothing), can act out read-only media.
var writableDir = func(dir string) bool {
	const wOK = 2 // W_OK
	return syscall.Access(dir, wOK) == nil
}

// emptyOrMissing reports whether the file at path is missing or empty.
func emptyOrMissing(path string) bool {
	st, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist) || err == nil && st.Size() == 0
}

// standIns gives a read-only connection temporary, empty stand-ins for the
// declared tables the store lacks, and, when its games table predates the
// seat_results column, a temporary view of it with the column empty:
// unqualified names find the temporary schema first.
func standIns(c *sqlite3.SQLiteConn) error {
	tables, err := connTableColumns(c)
	if err != nil {
		return err
	}
	creates, _ := declaredTables()
	for _, q := range creates {
		if _, ok := tables[createdTable(q)]; ok {
			continue
		}
		tmp := strings.Replace(q, "CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE IF NOT EXISTS", 1)
		if _, err := c.Exec(tmp, nil); err != nil {
			return err
		}
	}
	if cols, ok := tables["games"]; ok && !slices.Contains(cols, "seat_results") {
		if _, err := c.Exec(`CREATE TEMP VIEW games AS SELECT *, '' AS seat_results FROM main.games`, nil); err != nil {
			return err
		}
	}
	return nil
}

// connTableColumns is tableColumns on a driver connection.
func connTableColumns(c *sqlite3.SQLiteConn) (map[string][]string, error) {
	rows, err := c.Query(tablesQuery, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read side: Next's error is returned
	out := map[string][]string{}
	row := make([]driver.Value, 2)
	for {
		err := rows.Next(row)
		if errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		t, c := text(row[0]), text(row[1])
		out[t] = append(out[t], c)
	}
}

// text is a driver value read as text.
func text(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// FileMark is the identity of a store's SQLite file when it was opened,
// to check later that the file there is still that one (Check).
type FileMark struct {
	path string
	file os.FileInfo // nil: no file (PostgreSQL, in memory)
}

// MarkFile marks the SQLite file of storage url as it is now; the zero
// mark (nothing to check) for PostgreSQL, in-memory and missing files.
func MarkFile(url string) FileMark {
	st, err := ParseStorage(url)
	if err != nil || st.Dialect != "sqlite" || st.Path == ":memory:" {
		return FileMark{}
	}
	fi, err := os.Stat(st.Path)
	if err != nil {
		return FileMark{}
	}
	return FileMark{path: st.Path, file: fi}
}

// Check reports an error when the marked file is no longer there, or is
// another file: deleted or replaced while in use, what was stored in it
// since is in no file a later command can read.
func (m FileMark) Check() error {
	if m.file == nil {
		return nil
	}
	st, err := os.Stat(m.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("store %s was deleted while in use: what was stored in it is lost", m.path)
	case err != nil:
		return fmt.Errorf("store %s: %w", m.path, err)
	case !os.SameFile(m.file, st):
		return fmt.Errorf("store %s was replaced while in use: what was stored in it is not in the file there now", m.path)
	}
	return nil
}

// CheckFile reports an error when the SQLite file of the store is no longer
// the one it opened (FileMark.Check). Nil for PostgreSQL and in-memory
// stores.
func (s *Store) CheckFile() error { return s.mark.Check() }

// CheckRun reports an error unless the store still holds at least n games
// of the run, and is still its file (CheckFile): a run's last check before
// it reports its games as stored.
func (s *Store) CheckRun(ctx context.Context, runID string, n int) error {
	if err := s.CheckFile(); err != nil {
		return err
	}
	var stored int
	if err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM games WHERE run_id = ?`), runID).Scan(&stored); err != nil {
		return err
	}
	if stored < n {
		where := redact(s.url)
		if s.mark.path != "" {
			where = s.mark.path
		}
		return fmt.Errorf("store %s holds %d games of run %s, %d were stored: it was changed by something else while the run played", where, stored, runID, n)
	}
	return nil
}
