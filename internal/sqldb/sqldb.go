// Package sqldb is the database layer shared by the run store (harness),
// the tuning storage (tuning) and the SPSA storage (tuning/spsa): the
// dialect and its placeholders and clock, the advisory locks and the
// transactions that hold them, and the lease protocol by which workers
// share a run's, a study's or an SPSA study's work.
package sqldb

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// Dialect is the database: SQLite or PostgreSQL.
type Dialect string

// The dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Rebind turns the ? placeholders of query into $1, $2... on PostgreSQL;
// SQLite takes them as they are.
func (d Dialect) Rebind(query string) string {
	if d != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// NowMS is the database clock in Unix milliseconds as an SQL expression,
// so that workers on machines with different clocks agree on lease
// expiry and heartbeat ages.
func (d Dialect) NowMS() string {
	if d == Postgres {
		return `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)`
	}
	return `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`
}

// HashName is the FNV-1a hash of a name, the second key of a lock on one
// named thing (a study).
func HashName(name string) int32 {
	var h uint32 = 2166136261
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return int32(h)
}

// Execer runs a statement: a *sql.DB, a *sql.Tx, or gorm's connection of
// a transaction (gorm.DB.Statement.ConnPool).
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Conn runs statements and queries: a *sql.DB, a *sql.Tx, or gorm's
// connection of a transaction (gorm.DB.Statement.ConnPool).
type Conn interface {
	Execer
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Tx runs fn in one transaction that holds lock on PostgreSQL. SQLite
// needs no lock: the store's transactions begin IMMEDIATE (see
// store.ParseStorage), which takes the database's write lock at once.
func Tx(ctx context.Context, db *sql.DB, d Dialect, lock Lock, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // after Commit it does nothing
	if err := lock.Take(ctx, tx, d); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
