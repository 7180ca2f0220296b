package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// dirState is what a directory holds: each file's bytes and time of change.
type dirState map[string]struct {
	data []byte
	mod  time.Time
}

func readDirState(t *testing.T, dir string) dirState {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := dirState{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = struct {
			data []byte
			mod  time.Time
		}{data, st.ModTime()}
	}
	return out
}

// sameDir fails the test unless dir holds what before held, byte for byte.
func sameDir(t *testing.T, what, dir string, before dirState) {
	t.Helper()
	after := readDirState(t, dir)
	for name, b := range before {
		a, ok := after[name]
		switch {
		case !ok:
			t.Errorf("%s: %s was removed", what, name)
		case !bytes.Equal(a.data, b.data):
			t.Errorf("%s: %s was changed", what, name)
		case !a.mod.Equal(b.mod):
			t.Errorf("%s: %s was touched (%v, then %v)", what, name, b.mod, a.mod)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s: %s was made", what, name)
		}
	}
}

// makeSQLite makes an SQLite file at path (rollback journal, as most
// programs leave theirs) with the statements run.
func makeSQLite(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestForeignDatabaseIsRefusedUntouched opens databases of other programs,
// one with tables named like a store's: both opens refuse them, naming the
// file and its tables, and leave the directory as it was (before, a store
// opened on them added its tables and switched them to WAL).
func TestForeignDatabaseIsRefusedUntouched(t *testing.T) {
	for _, c := range []struct {
		name  string
		stmts []string
		want  string
	}{
		{"users", []string{`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)`, `INSERT INTO users (name) VALUES ('ann')`}, "it has tables users"},
		{"lookalike", []string{`CREATE TABLE runs (id TEXT PRIMARY KEY, distance REAL)`, `CREATE TABLE games (id INTEGER, score INTEGER)`}, "it has tables games, runs"},
		{"other-id", []string{`PRAGMA application_id = 1234`, `CREATE TABLE t (x)`}, "application_id is 0x4d2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "other.db")
			makeSQLite(t, path, c.stmts...)
			before := readDirState(t, dir)
			for _, open := range []struct {
				name string
				fn   func(context.Context, string) (*Store, error)
			}{{"Open", Open}, {"OpenReadOnly", OpenReadOnly}} {
				st, err := open.fn(context.Background(), "sqlite:"+path)
				if err == nil {
					_ = st.Close() // the foreign database opening is the failure to report
					t.Fatalf("%s opened a foreign database", open.name)
				}
				if msg := err.Error(); !strings.Contains(msg, path+" is not a gauntlet store") || !strings.Contains(msg, c.want) {
					t.Errorf("%s: %v; want it to say %q and %q", open.name, err, path+" is not a gauntlet store", c.want)
				}
				sameDir(t, open.name, dir, before)
			}
		})
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), "sqlite:"+path); err == nil || !strings.Contains(err.Error(), "not an SQLite database") {
		t.Errorf("a text file: %v", err)
	}
}

// appID reads the application_id in the header of the SQLite file at path.
func appID(t *testing.T, path string) uint32 {
	t.Helper()
	head, err := readHeader(path)
	if err != nil || len(head) < 100 {
		t.Fatalf("header of %s: %d bytes, %v", path, len(head), err)
	}
	return binary.BigEndian.Uint32(head[68:72])
}

// TestStoreIsMarked: a new store carries gauntlet's application_id, an
// empty file opened by a writing command becomes a store.
func TestStoreIsMarked(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"new.db", "empty.db"} {
		path := filepath.Join(dir, name)
		if name == "empty.db" {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		st, err := Open(context.Background(), "sqlite:"+path)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if id := appID(t, path); id != storeAppID {
			t.Errorf("%s: application_id %#x, want %#x", name, id, storeAppID)
		}
	}
}

// legacyStore makes, at path, a store as versions before the
// application_id left it: the tables of the time (games without
// seat_results, no game_moves or claim_blocks), one run with two games,
// application_id 0.
func makeLegacyStore(t *testing.T, path string) {
	t.Helper()
	var stmts []string
	for _, q := range schema {
		switch createdTable(q) {
		case "game_moves", "claim_blocks":
			continue
		}
		stmts = append(stmts, q)
	}
	stmts = append(stmts,
		`INSERT INTO runs VALUES ('old', 'eval', 'brew', 'smoke', '{}', 'v0', '2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z', 'complete', '')`,
		`INSERT INTO run_entrants VALUES ('old', 0, 'greedy', 'greedy', 'greedy', '{}', 'v0')`,
		`INSERT INTO games VALUES ('old', 'seed:1', 0, 'seed:1', '', '1', '[0]', 10, '{}', 1.5, 'w', '2024-01-02T03:04:05Z')`,
		`INSERT INTO games VALUES ('old', 'seed:2', 1, 'seed:2', '', '2', '[0]', 10, '{}', 1.5, 'w', '2024-01-02T03:04:05Z')`,
		`INSERT INTO outcomes VALUES ('old', 'seed:1', 0, 0, 7, 1, '')`,
		`INSERT INTO outcomes VALUES ('old', 'seed:2', 0, 0, 9, 1, '')`,
		`PRAGMA journal_mode = WAL`)
	makeSQLite(t, path, stmts...)
}

// TestLegacyStoreIsRead: a store made before the application_id is read
// without a byte written (its missing tables and column read as empty),
// and a writing open adopts it: its tables completed, its id set.
func TestLegacyStoreIsRead(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "old.db")
	makeLegacyStore(t, path)
	if appID(t, path) != 0 {
		t.Fatal("the legacy store has an application_id")
	}
	before := readDirState(t, dir)
	st, err := OpenReadOnly(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.Runs(ctx)
	if err != nil || len(runs) != 1 || runs[0].ID != "old" || runs[0].GameCount != 2 {
		t.Fatalf("runs of the legacy store: %+v, %v", runs, err)
	}
	games, err := st.Games(ctx, "old")
	if err != nil || len(games) != 2 || games["seed:2"].Outcome.Seats[0].Score != 9 {
		t.Fatalf("games of the legacy store: %+v, %v", games, err)
	}
	if _, err := st.GameMoves(ctx, "old", "seed:1"); err != nil {
		t.Errorf("moves of a store without game_moves: %v", err)
	}
	if err := st.SaveGames(ctx, "old", brewLikeGames(1)); err == nil {
		t.Error("a store opened read-only took a write")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	sameDir(t, "reading the legacy store", dir, before)

	st, err = Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveGames(ctx, "old", brewLikeGames(3)[2:]); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if id := appID(t, path); id != storeAppID {
		t.Errorf("adopted legacy store: application_id %#x, want %#x", id, storeAppID)
	}
}

// TestReadOnlyMediaStoreIsRead reads a store on (acted out) read-only
// media, and one in WAL mode with no log beside it: nothing is made beside
// the file and nothing in it changes (before, opening it made its log and
// index, and failed where the directory could not be written).
func TestReadOnlyMediaStoreIsRead(t *testing.T) {
	ctx := context.Background()
	for _, media := range []string{"read-only", "writable"} {
		t.Run(media, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "g.db")
			st, err := Open(ctx, "sqlite:"+path)
			if err != nil {
				t.Fatal(err)
			}
			rec := &RunRecord{ID: "r1", Kind: "eval", Game: "brew", CaseSet: "smoke", Spec: "{}", Version: "v"}
			err = st.OpenRun(ctx, rec)
			if err == nil {
				err = st.SaveGames(ctx, "r1", brewLikeGames(3))
			}
			if err = errors.Join(err, st.Close()); err != nil {
				t.Fatal(err)
			}
			// Closed, the store's file holds everything: its log and
			// index are what a copy onto other media leaves behind.
			for _, ext := range []string{"-wal", "-shm"} {
				if err := os.Remove(path + ext); err != nil {
					t.Fatal(err)
				}
			}
			if media == "read-only" {
				old := writableDir
				writableDir = func(string) bool { return false }
				t.Cleanup(func() { writableDir = old })
			}
			before := readDirState(t, dir)
			st, err = OpenReadOnly(ctx, "sqlite:"+path)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := st.Runs(ctx)
			if err != nil || len(runs) != 1 || runs[0].GameCount != 3 {
				t.Errorf("runs: %+v, %v", runs, err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			sameDir(t, "reading the store", dir, before)
		})
	}
}

// TestReadOnlyOpenOfMissingStore: a store that is not there is not made.
func TestReadOnlyOpenOfMissingStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "none.db")
	_, err := OpenReadOnly(context.Background(), "sqlite:"+path)
	if err == nil || !strings.Contains(err.Error(), "no database") {
		t.Errorf("read-only open of a missing store: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a read-only open made the store")
	}
}

// TestStorageURLOptionsAreRefused: options after "?" are named in a plain
// error, not handed to SQLite (whose answer was garbled).
func TestStorageURLOptionsAreRefused(t *testing.T) {
	_, err := ParseStorage("sqlite:runs.db?mode=ro&cache=shared")
	if err == nil || !strings.Contains(err.Error(), "(mode, cache) are not supported") || !strings.Contains(err.Error(), "sqlite:runs.db ") {
		t.Errorf("sqlite URL with options: %v", err)
	}
}

// TestDeletedStoreIsAnError deletes, then replaces, a store's file while it
// is in use: the next batch, finish and check say so (before, the games
// went into a deleted file and the run reported them as stored).
func TestDeletedStoreIsAnError(t *testing.T) {
	ctx := context.Background()
	for _, how := range []string{"deleted", "replaced"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "g.db")
			st, err := Open(ctx, "sqlite:"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rec := &RunRecord{ID: "r1", Kind: "eval", Game: "brew", CaseSet: "smoke", Spec: "{}", Version: "v"}
			if err := st.OpenRun(ctx, rec); err != nil {
				t.Fatal(err)
			}
			mark := MarkFile("sqlite:" + path) // as tune and spsa keep it
			if err := mark.Check(); err != nil {
				t.Fatalf("check of an intact file: %v", err)
			}
			gs := brewLikeGames(4)
			if err := st.SaveGames(ctx, "r1", gs[:2]); err != nil {
				t.Fatal(err)
			}
			if err := st.CheckRun(ctx, "r1", 2); err != nil {
				t.Fatalf("check of an intact store: %v", err)
			}
			if err := st.CheckRun(ctx, "r1", 3); err == nil || !strings.Contains(err.Error(), "holds 2 games of run r1, 3 were stored") {
				t.Errorf("check of a store short of games: %v", err)
			}
			for _, ext := range []string{"", "-wal", "-shm"} {
				if err := os.Remove(path + ext); err != nil {
					t.Fatal(err)
				}
			}
			if how == "replaced" {
				makeSQLite(t, path, `CREATE TABLE x (y)`)
			}
			want := path + " was " + how + " while in use"
			for name, err := range map[string]error{
				"SaveGames": st.SaveGames(ctx, "r1", gs[2:]),
				"FinishRun": st.FinishRun(ctx, "r1", "complete", map[string]int{}),
				"CheckRun":  st.CheckRun(ctx, "r1", 2),
				"FileMark":  mark.Check(),
			} {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s on a %s store: %v; want %q", name, how, err, want)
				}
			}
		})
	}
}

// TestRegisteredTablesAreDeclared: createdTable reads every declared
// table's name (the stand-ins of a read-only store depend on it).
func TestRegisteredTablesAreDeclared(t *testing.T) {
	creates, _ := declaredTables()
	cols, err := declaredColumns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range creates {
		if name := createdTable(q); cols[name] == nil {
			t.Errorf("createdTable reads %q from %.60s", name, q)
		}
	}
	if !slices.Contains(cols["games"], "match_key") {
		t.Errorf("games columns %v", cols["games"])
	}
}
