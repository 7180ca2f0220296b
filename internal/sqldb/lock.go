package sqldb

import "context"

// LockKey is the namespace of PostgreSQL advisory locks: the first key of
// pg_advisory_xact_lock(integer, integer), the second naming the thing
// locked within it (0 when there is one).
type LockKey int32

// The advisory lock namespaces of every storage, declared here together so
// that they stay distinct: two of them with one value would make unrelated
// work wait for each other, or (with equal second keys) let a lock stand
// for another. The run store's claims of a run's blocks lock
// pg_advisory_xact_lock(hashtext(run id)) (TextLock), whose one-key space
// is apart from these two-key ones.
const (
	LockRunsSchema LockKey = 0x67746e35 // harness: creating the run store's tables
	LockTuneSchema LockKey = 0x67746e30 // tuning: creating its tables and Goptuna's
	LockTuneStudy  LockKey = 0x67746e31 // tuning: one study's trial bookkeeping (second key: Goptuna's study ID)
	LockTuneName   LockKey = 0x67746e32 // tuning: creating a study (second key: HashName of its name)
	LockSPSASchema LockKey = 0x67746e33 // tuning/spsa: creating its tables
	LockSPSAStudy  LockKey = 0x67746e34 // tuning/spsa: one study's bookkeeping (second key: HashName of its name)
)

// The league's lock namespaces (package league).
const (
	LockLeagueSchema LockKey = 0x67746e36 // creating its tables
	LockLeague       LockKey = 0x67746e37 // one league's versions and blocks (second key: HashName of its name)
)

// Lock is an advisory lock a transaction takes on PostgreSQL.
type Lock struct {
	query string
	args  []any
}

// NoLock is no lock: a transaction that needs none (Tx).
var NoLock Lock

// KeyLock is the lock (ns, key).
func KeyLock(ns LockKey, key int32) Lock {
	return Lock{`SELECT pg_advisory_xact_lock(CAST(? AS integer), CAST(? AS integer))`, []any{int32(ns), key}}
}

// TextLock is the one-key lock hashtext(text).
func TextLock(text string) Lock {
	return Lock{`SELECT pg_advisory_xact_lock(hashtext(?))`, []any{text}}
}

// Take takes the lock in the transaction x on PostgreSQL, until the
// transaction ends; nothing on SQLite (see Tx), nor for the zero Lock
// (NoLock).
func (l Lock) Take(ctx context.Context, x Execer, d Dialect) error {
	if d != Postgres || l.query == "" {
		return nil
	}
	_, err := x.ExecContext(ctx, d.Rebind(l.query), l.args...)
	return err
}
