package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"gauntlet/internal/owner"
)

// Every advisory lock namespace declared in lock.go is distinct: the run
// store's schema lock once shared tuning's study-name namespace.
func TestLockKeysDistinct(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "lock.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "LockKey" {
				t.Fatalf("const %s is not declared a LockKey", vs.Names[0])
			}
			for i, n := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s: want an integer literal", n)
				}
				v, err := strconv.ParseInt(lit.Value, 0, 64)
				if err != nil {
					t.Fatalf("%s: %v", n, err)
				}
				if prev, dup := seen[v]; dup {
					t.Errorf("%s and %s are both %#x", prev, n, v)
				}
				seen[v] = n.Name
			}
		}
	}
	if len(seen) < 6 {
		t.Fatalf("%d lock keys found in lock.go; want the 6 of harness, tuning and tuning/spsa", len(seen))
	}
	if LockRunsSchema == LockTuneName {
		t.Error("the run store's schema lock is tuning's study-name namespace")
	}
}

func TestRebind(t *testing.T) {
	q := `SELECT a FROM t WHERE b = ? AND c IN (?, ?)`
	if got := SQLite.Rebind(q); got != q {
		t.Errorf("sqlite: %s", got)
	}
	if got, want := Postgres.Rebind(q), `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)`; got != want {
		t.Errorf("postgres: %s, want %s", got, want)
	}
}

// A worker name whose pid runs another process now (a start time that is
// not the token's) is gone; this process, other machines and other forms
// are not.
func TestGoneReusedPid(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	if !strings.Contains(owner.Token(), ".") {
		t.Skip("no process start times on this system")
	}
	reused := fmt.Sprintf("%s:%d.1", host, os.Getpid())
	if !gone(reused) || !gone(reused+"/2") {
		t.Errorf("%s: this pid with another start time is not gone", reused)
	}
	for _, n := range []string{WorkerName(), WorkerName() + "/1", "elsewhere:1.1", "elsewhere:1", fmt.Sprintf("%s:%d", host, os.Getpid()), "w0", ""} {
		if gone(n) {
			t.Errorf("%q is gone", n)
		}
	}
}

// A killed worker named by pid alone (earlier versions) or by token is
// gone at once, before and after its parent reaps it; a live one is not.
func TestGoneKilled(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start sleep:", err)
	}
	pid := cmd.Process.Pid
	names := []string{fmt.Sprintf("%s:%d/1", host, pid)}
	if st, err := owner.ReadStat(pid); err == nil {
		names = append(names, fmt.Sprintf("%s:%d.%s", host, pid, st.Start))
	}
	for _, n := range names {
		if gone(n) {
			t.Fatalf("%s: a live process is gone", n)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, n := range names {
		for !gone(n) { // a zombie until Wait
			if time.Now().After(deadline) {
				t.Fatalf("%s: a killed, unreaped process is still there", n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	_ = cmd.Wait() // killed: its error says so
	for _, n := range names {
		if !gone(n) {
			t.Errorf("%s: a reaped process is not gone", n)
		}
	}
}

// The lease protocol on a table: take, renew (only the owner's), release.
func TestLease(t *testing.T) {
	for _, dbClock := range []bool{false, true} {
		t.Run(fmt.Sprint("dbclock=", dbClock), func(t *testing.T) {
			ctx := context.Background()
			db, err := sql.Open("sqlite3", ":memory:")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			if _, err := db.Exec(`CREATE TABLE work (scope TEXT, item INTEGER, owner TEXT, expires_at BIGINT, done INTEGER)`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO work VALUES ('s', 1, 'a', 0, 0), ('s', 2, 'a', 0, 0), ('s', 3, 'a', 0, 1)`); err != nil {
				t.Fatal(err)
			}
			l := Lease{Dialect: SQLite, Table: "work", Scope: "scope", Item: "item", DBClock: dbClock}
			expired := func(item int) bool {
				cond, args := l.Expired()
				var e bool
				if err := db.QueryRow(`SELECT `+cond+` FROM work WHERE item = ?`, append(args, item)...).Scan(&e); err != nil {
					t.Fatal(err)
				}
				return e
			}
			if !expired(1) {
				t.Fatal("a lease ending at 0 has not ended")
			}
			err = Tx(ctx, db, SQLite, KeyLock(LockSPSAStudy, HashName("s")), func(tx *sql.Tx) error {
				return l.Take(ctx, tx, "s", 1, "b", time.Hour)
			})
			if err != nil {
				t.Fatal(err)
			}
			if expired(1) {
				t.Fatal("a piece just taken for an hour has its lease ended")
			}
			if ok, err := l.Renew(ctx, db, "s", "a", time.Hour, 1); err != nil || ok {
				t.Fatalf("a renewed a piece b took: %v %v", ok, err)
			}
			if ok, err := l.Renew(ctx, db, "s", "a", time.Hour); err != nil || !ok {
				t.Fatalf("a renewing its pieces: %v %v", ok, err)
			}
			if !expired(3) {
				t.Error("a done piece was renewed")
			}
			if err := l.Release(ctx, db, "s", "b", 1); err != nil {
				t.Fatal(err)
			}
			if !expired(1) || expired(2) {
				t.Errorf("after b released piece 1: expired %v %v", expired(1), expired(2))
			}
			if err := l.Release(ctx, db, "s", "a"); err != nil {
				t.Fatal(err)
			}
			if !expired(2) {
				t.Error("a's release left its lease running")
			}
		})
	}
}
