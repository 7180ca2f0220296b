package main

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
)

// dirFiles reads every file of dir: name to bytes.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

// TestForeignDatabaseIsNeverWritten runs every command that opens a store
// on another program's SQLite database, one with tables named like a
// store's: each refuses it, naming the file, and the database's directory
// is byte for byte as it was (before, reading commands gave it gauntlet's
// tables and switched it to WAL).
func TestForeignDatabaseIsNeverWritten(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	if err := os.Mkdir(dbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dbDir, "other.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE runs (id INTEGER PRIMARY KEY, km REAL)`, `CREATE TABLE games (id INTEGER, title TEXT)`,
		`INSERT INTO runs (km) VALUES (5.2)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := dirFiles(t, dbDir)
	url := "sqlite:" + path
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"runs"},
		{"report", "--run", "r1", "--out", out},
		{"report", "--study", "s1", "--out", out},
		{"view", "--run", "r1", "--case", "seed:1", "--out", filepath.Join(dir, "v.html")},
		{"compare", "--base", "r1", "--run", "r2"},
		{"tune", "--list"},
		{"spsa", "--list"},
		{"eval", "--game", "pips", "--strategy", "skill", "--opponents", "skill", "--cases", "seeds:2", "--quiet"},
		{"ab", "--game", "pips", "--a", "skill:skill=6", "--b", "skill", "--games", "4", "--quiet"},
		{"tune", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:2", "--trials", "2", "--quiet"},
		{"spsa", "--game", "spsatoy", "--strategy", "knob", "--games", "8", "--quiet"},
	} {
		_, stderr, code := gauntlet(t, dir, append(args, "--storage", url)...)
		if code == 0 || !strings.Contains(stderr, path+" is not a gauntlet store (it has tables games, runs)") {
			t.Errorf("%v on a foreign database: exit %d, %s", args, code, stderr)
		}
		after := dirFiles(t, dbDir)
		for name, data := range after {
			if b, ok := before[name]; !ok {
				t.Errorf("%v made %s beside the foreign database", args, name)
			} else if !bytes.Equal(b, data) {
				t.Errorf("%v changed %s", args, name)
			}
		}
		if len(after) != len(before) {
			t.Errorf("%v: %d files, were %d", args, len(after), len(before))
		}
	}
}

// TestReadingCommandsWriteNothing reads a store whose log and index are not
// beside it (as copied onto other media): the reading commands find its
// runs and make no file and change none (before, opening it made both).
func TestReadingCommandsWriteNothing(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	if err := os.Mkdir(dbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dbDir, "g.db")
	url := "sqlite:" + path
	abRun(t, dir, url, "r1", "skill:skill=6")
	abRun(t, dir, url, "r2", "skill:skill=7")
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + ext); err != nil {
			t.Fatal(err)
		}
	}
	before := dirFiles(t, dbDir)
	for _, args := range [][]string{
		{"runs"},
		{"report", "--run", "r1", "--out", filepath.Join(dir, "rep")},
		{"view", "--run", "r1", "--case", "seed:1/ab", "--out", filepath.Join(dir, "v.html")},
		{"compare", "--base", "r1", "--run", "r2"},
		{"tune", "--list"},
		{"spsa", "--list"},
	} {
		stdout, stderr, code := gauntlet(t, dir, append(args, "--storage", url)...)
		// pips has no viewer: view reads the run, then says so.
		if code != 0 && !(args[0] == "view" && strings.Contains(stderr, "game pips has no replay viewer")) {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
		if args[0] == "runs" && !strings.Contains(stdout, "r2") {
			t.Errorf("runs: %s", stdout)
		}
		after := dirFiles(t, dbDir)
		for name, data := range after {
			if b, ok := before[name]; !ok {
				t.Errorf("%v made %s beside the store", args, name)
			} else if !bytes.Equal(b, data) {
				t.Errorf("%v changed %s", args, name)
			}
		}
	}
	// Options in the URL are refused by name (exit 2), not handed to SQLite.
	if _, stderr, code := gauntlet(t, dir, "runs", "--storage", url+"?mode=ro"); code != 2 || !strings.Contains(stderr, "(mode) are not supported") {
		t.Errorf("runs --storage %s?mode=ro: exit %d, %s", url, code, stderr)
	}
}

// TestDeletedStoreFailsTheRun plays a run whose external bot deletes the
// store while it plays: the run fails naming the file (before, it printed
// "N played" and exited 0 with nothing kept).
func TestDeletedStoreFailsTheRun(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "bot.sh")
	if err := os.WriteFile(bot, []byte("#!/bin/sh\nrm -f gauntlet.db gauntlet.db-wal gauntlet.db-shm\necho 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := gauntlet(t, dir, "eval", "--game", "pips", "--strategy", "cmd:"+bot, "--opponents", "skill",
		"--cases", "seeds:5", "--jobs", "1", "--quiet")
	if code == 0 || strings.Contains(stdout, "played") || !strings.Contains(stderr, "gauntlet.db was deleted while in use") {
		t.Errorf("a run whose store was deleted: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// TestOutputsAndCasesAreCheckedFirst: an output that cannot be written and a
// case set naming a case twice are usage errors (exit 2) before any game
// (before, view played its game and then failed, and a duplicate case was
// an internal error of the plan).
func TestOutputsAndCasesAreCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	v := viewable(t)[0]
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var brewStrategy string
	if ss := contract.Default.Strategies("brew"); len(ss) > 0 {
		brewStrategy = ss[0].Name
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view", "--game", v.game, "--case", v.cases, "--strategy", v.strategy, "--out", filepath.Join(dir, "nodir", "x.html")}, "--out"},
		{[]string{"view", "--run", "r1", "--case", "seed:1", "--out", filepath.Join(dir, "nodir", "x.html")}, "--out"},
		{[]string{"report", "--run", "r1", "--out", filepath.Join(file, "rep")}, "--out"},
		{[]string{"report", "--run", "r1", "--out", file}, "--out"},
		{[]string{"spsa", "--game", "spsatoy", "--strategy", "knob", "--games", "8", "--storage", "none", "--best-json", filepath.Join(dir, "nodir", "b.json")}, "--best-json"},
		{[]string{"eval", "--game", "brew", "--strategy", brewStrategy, "--cases", "seed:1,1", "--storage", "none", "--quiet"}, "--cases seed:1,1: case seed:1 is named twice"},
		{[]string{"ab", "--game", "brew", "--a", brewStrategy, "--b", brewStrategy, "--cases", "seed:2,3,2", "--storage", "none", "--quiet"}, "--cases seed:2,3,2: case seed:2 is named twice"},
	} {
		_, stderr, code := gauntlet(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s (want exit 2 naming %s)", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gauntlet.db")); err == nil {
		t.Error("a refused command made a store")
	}
}
