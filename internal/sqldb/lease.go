package sqldb

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gauntlet/internal/owner"
)

// The lease protocol. A piece of work (a block of a run's games, a block
// of SPSA iterations, a tuning trial) is a row naming its owner, the
// worker playing it, and when its lease ends. A worker claims a piece in
// a transaction holding the lock of the run or study (Tx): it takes a
// piece whose owner is no longer there (Free: the lease ended, or the
// owner is a process of this machine that is gone) or makes a new one;
// while it plays, it renews its lease; interrupted, it releases the piece
// (the lease ends now) so that another worker takes it at once; done, it
// marks it done in the transaction that stores what it played.

// WorkerName is the default name of this process as a worker: "host:TOKEN",
// TOKEN being its owner token (pid and start time, see internal/owner), so
// that another process on the same machine can tell that it is gone.
func WorkerName() string {
	host, _ := os.Hostname() // "" is a usable name too
	return host + ":" + owner.Token()
}

// gone reports whether a worker name ("host:TOKEN" as WorkerName makes it,
// or "host:pid" of earlier versions, either possibly followed by "/lane")
// is a process of this machine that no longer exists: a pid that is not
// running, a zombie, or a pid now running another process (its start time
// is not the token's). Work of a worker killed with SIGKILL is then taken
// over at once instead of when its lease ends. Names of other machines,
// of this process, and of another form are never gone.
func gone(name string) bool {
	name, _, _ = strings.Cut(name, "/")
	i := strings.LastIndexByte(name, ':')
	if i <= 0 {
		return false
	}
	host, err := os.Hostname()
	if err != nil {
		return false // unknown host: rely on the lease
	}
	tok := name[i+1:]
	if name[:i] != host || tok == owner.Token() {
		return false
	}
	pidText, _, hasStart := strings.Cut(tok, ".")
	if hasStart {
		return !owner.Alive(tok)
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	// A killed process stays a zombie until its parent reaps it, and a
	// zombie still answers kill(pid, 0): an orphan's parent (the
	// container's init) may take a while. Linux tells its state in /proc.
	st, err := owner.ReadStat(pid)
	return err == nil && (st.State == 'Z' || st.State == 'X')
}

// Free reports whether a piece of work held by owner may be taken: its
// lease ended (expired), or its owner is a process of this machine that is
// gone (see gone). It is the one liveness check of every worker: the run
// store's blocks, the tuning trials' heartbeats and the SPSA blocks.
func Free(owner string, expired bool) bool { return expired || gone(owner) }

// Lease is the lease protocol on a table of pieces of work: columns Scope
// (the run or study) and Item (the piece within it) name a piece, owner
// its worker, expires_at (Unix milliseconds) the end of its lease, done
// (0 or 1) whether it is finished.
type Lease struct {
	Dialect Dialect
	Table   string
	Scope   string
	Item    string
	// DBClock: leases end by the database's clock (NowMS), which every
	// worker shares; otherwise by the clock of the worker that claims or
	// renews.
	DBClock bool
}

// until is the SQL expression of a lease's end and its argument.
func (l Lease) until(lease time.Duration) (string, int64) {
	if l.DBClock {
		return l.Dialect.NowMS() + ` + ?`, lease.Milliseconds()
	}
	return `?`, time.Now().Add(lease).UnixMilli()
}

// Expired is the SQL condition that a piece's lease ended, by the
// lease's clock, with its arguments.
func (l Lease) Expired() (string, []any) {
	if l.DBClock {
		return `expires_at < ` + l.Dialect.NowMS(), nil
	}
	return `expires_at < ?`, []any{time.Now().UnixMilli()}
}

// Take gives piece item of scope to owner for lease (a claim of a piece
// that was Free), in the claim's transaction x.
func (l Lease) Take(ctx context.Context, x Execer, scope any, item int, owner string, lease time.Duration) error {
	until, arg := l.until(lease)
	_, err := x.ExecContext(ctx, l.Dialect.Rebind(`UPDATE `+l.Table+` SET owner = ?, expires_at = `+until+` WHERE `+l.Scope+` = ? AND `+l.Item+` = ?`),
		owner, arg, scope, item)
	return err
}

// Renew extends owner's lease on its unfinished pieces of scope (on piece
// item alone when one is given), and reports whether it holds any: false
// when they were taken over by another worker after the lease ended.
func (l Lease) Renew(ctx context.Context, x Execer, scope any, owner string, lease time.Duration, item ...int) (bool, error) {
	until, arg := l.until(lease)
	where, args := l.where(scope, owner, item)
	res, err := x.ExecContext(ctx, l.Dialect.Rebind(`UPDATE `+l.Table+` SET expires_at = `+until+where), append([]any{arg}, args...)...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Release ends owner's lease on its unfinished pieces of scope (on piece
// item alone when one is given) now, so that the next worker takes them
// over at once.
func (l Lease) Release(ctx context.Context, x Execer, scope any, owner string, item ...int) error {
	where, args := l.where(scope, owner, item)
	_, err := x.ExecContext(ctx, l.Dialect.Rebind(`UPDATE `+l.Table+` SET expires_at = 0`+where), args...)
	return err
}

// where selects owner's unfinished pieces of scope, or piece item[0].
func (l Lease) where(scope any, owner string, item []int) (string, []any) {
	if len(item) > 0 {
		return ` WHERE ` + l.Scope + ` = ? AND ` + l.Item + ` = ? AND owner = ? AND done = 0`, []any{scope, item[0], owner}
	}
	return ` WHERE ` + l.Scope + ` = ? AND owner = ? AND done = 0`, []any{scope, owner}
}
