package league

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"gauntlet/harness/store"
	"gauntlet/internal/sqldb"
)

// Store keeps leagues in the results database (SQLite or PostgreSQL), in
// tables of their own: leagues (definitions and counters),
// league_versions, league_blocks (units claimed by workers under a lease),
// league_games and league_referee_errors.
type Store struct {
	hs *store.Store
	db *sql.DB
	d  sqldb.Dialect
}

var schema = []string{
	`CREATE TABLE IF NOT EXISTS leagues (
		name VARCHAR(512) PRIMARY KEY,
		game TEXT NOT NULL,
		cases TEXT NOT NULL,
		size INTEGER NOT NULL,
		created_at TEXT NOT NULL,
		next_unit BIGINT NOT NULL,
		next_blk BIGINT NOT NULL,
		next_seq BIGINT NOT NULL,
		games BIGINT NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS league_versions (
		league VARCHAR(512) NOT NULL,
		id INTEGER NOT NULL,
		name TEXT NOT NULL,
		gen INTEGER NOT NULL,
		entrant_key TEXT NOT NULL,
		label TEXT NOT NULL,
		strategy TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		added_at TEXT NOT NULL,
		active INTEGER NOT NULL,
		PRIMARY KEY (league, id)
	)`,
	`CREATE TABLE IF NOT EXISTS league_blocks (
		league VARCHAR(512) NOT NULL,
		blk BIGINT NOT NULL,
		plan TEXT NOT NULL,
		games INTEGER NOT NULL,
		owner TEXT NOT NULL,
		expires_at BIGINT NOT NULL,
		done INTEGER NOT NULL,
		seq BIGINT NOT NULL,
		PRIMARY KEY (league, blk)
	)`,
	`CREATE TABLE IF NOT EXISTS league_games (
		league VARCHAR(512) NOT NULL,
		blk BIGINT NOT NULL,
		idx INTEGER NOT NULL,
		unit BIGINT NOT NULL,
		case_id TEXT NOT NULL,
		versions TEXT NOT NULL,
		results TEXT NOT NULL,
		player_data TEXT NOT NULL,
		wall_ms DOUBLE PRECISION NOT NULL,
		worker TEXT NOT NULL,
		finished_at TEXT NOT NULL,
		PRIMARY KEY (league, blk, idx)
	)`,
	// Games whose referee failed (contract.RefereeError): their units are
	// not stored, and are kept here so that the board can say so.
	`CREATE TABLE IF NOT EXISTS league_referee_errors (
		league VARCHAR(512) NOT NULL,
		blk BIGINT NOT NULL,
		idx INTEGER NOT NULL,
		unit BIGINT NOT NULL,
		case_id TEXT NOT NULL,
		versions TEXT NOT NULL,
		reason TEXT NOT NULL,
		stderr TEXT NOT NULL,
		worker TEXT NOT NULL,
		at TEXT NOT NULL,
		PRIMARY KEY (league, blk, idx)
	)`,
}

func init() { store.RegisterTables(schema) }

// OpenStore opens the database at url (as store.Open reads it) and
// creates the league tables it lacks.
func OpenStore(ctx context.Context, url string) (*Store, error) {
	hs, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	return wrap(ctx, hs, url)
}

// OpenStoreReadOnly opens the database at url for reading only
// (store.OpenReadOnly); a store without the league tables holds no
// league.
func OpenStoreReadOnly(ctx context.Context, url string) (*Store, error) {
	hs, err := store.OpenReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	if hs.ReadOnly() {
		return &Store{hs: hs, db: hs.DB(), d: hs.Dialect()}, nil
	}
	return wrap(ctx, hs, url)
}

func wrap(ctx context.Context, hs *store.Store, url string) (*Store, error) {
	s := &Store{hs: hs, db: hs.DB(), d: hs.Dialect()}
	err := sqldb.Tx(ctx, s.db, s.d, sqldb.KeyLock(sqldb.LockLeagueSchema, 0), func(tx *sql.Tx) error {
		for _, q := range schema {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		_ = hs.Close() // the migration's error is the one to report
		return nil, fmt.Errorf("storage %q: creating the league tables: %w", store.RedactURL(url), err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.hs.Close() }

// DB exposes the database (tests, reports).
func (s *Store) DB() *sql.DB { return s.db }

// Rebind is query with the database's placeholders.
func (s *Store) Rebind(query string) string { return s.d.Rebind(query) }

// q is query with the database's placeholders.
func (s *Store) q(query string) string { return s.d.Rebind(query) }

// locked runs fn in one transaction holding league name's lock.
func (s *Store) locked(ctx context.Context, name string, fn func(tx *sql.Tx) error) error {
	return sqldb.Tx(ctx, s.db, s.d, sqldb.KeyLock(sqldb.LockLeague, sqldb.HashName(name)), fn)
}

// blocks is the lease protocol on league_blocks, by the database's clock.
func (s *Store) blocks() sqldb.Lease {
	return sqldb.Lease{Dialect: s.d, Table: "league_blocks", Scope: "league", Item: "blk", DBClock: true}
}

// ErrNoLeague is returned for a league that is not stored.
var ErrNoLeague = errors.New("no such league")

// Def is a league's definition.
type Def struct {
	Name    string `json:"name"`
	Game    string `json:"game"`
	Cases   string `json:"cases"`
	Size    int    `json:"size"` // versions per unit (seats of a game, or the group of a single-player case)
	Created string `json:"created_at"`
	Games   int64  `json:"games"`
}

func nowText() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// Create stores league d, or checks that the stored league of that name
// has the same game (and, where d gives them, the same cases and size); it
// returns the stored definition.
func (s *Store) Create(ctx context.Context, d Def) (Def, error) {
	var out Def
	err := s.locked(ctx, d.Name, func(tx *sql.Tx) error {
		old, err := s.def(ctx, tx, d.Name)
		switch {
		case errors.Is(err, ErrNoLeague):
			d.Created = nowText()
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO leagues (name, game, cases, size, created_at, next_unit, next_blk, next_seq, games) VALUES (?,?,?,?,?,0,1,1,0)`),
				d.Name, d.Game, d.Cases, d.Size, d.Created)
			out = d
			return err
		case err != nil:
			return err
		case old.Game != d.Game:
			return fmt.Errorf("league %q is a league of game %q, not %q", d.Name, old.Game, d.Game)
		case d.Cases != "" && d.Cases != old.Cases:
			return fmt.Errorf("league %q plays cases %q, not %q (a league's cases are fixed when it is made)", d.Name, old.Cases, d.Cases)
		case d.Size != 0 && d.Size != old.Size:
			return fmt.Errorf("league %q compares %d versions a game, not %d (fixed when it is made)", d.Name, old.Size, d.Size)
		}
		out = old
		return nil
	})
	return out, err
}

// Def returns league name's definition (ErrNoLeague if none).
func (s *Store) Def(ctx context.Context, name string) (Def, error) {
	return s.def(ctx, s.db, name)
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store) def(ctx context.Context, x querier, name string) (Def, error) {
	d := Def{Name: name}
	err := x.QueryRowContext(ctx, s.q(`SELECT game, cases, size, created_at, games FROM leagues WHERE name = ?`), name).
		Scan(&d.Game, &d.Cases, &d.Size, &d.Created, &d.Games)
	if errors.Is(err, sql.ErrNoRows) || s.missing(err) {
		return d, fmt.Errorf("league %q: %w", name, ErrNoLeague)
	}
	return d, err
}

// missing reports whether err is a read-only store's missing table.
func (s *Store) missing(err error) bool {
	return err != nil && s.hs.ReadOnly() && strings.Contains(err.Error(), "no such table")
}

// Leagues lists the stored leagues by name.
func (s *Store) Leagues(ctx context.Context) ([]Def, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, game, cases, size, created_at, games FROM leagues ORDER BY name`)
	if s.missing(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Def
	for rows.Next() {
		var d Def
		if err := rows.Scan(&d.Name, &d.Game, &d.Cases, &d.Size, &d.Created, &d.Games); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Version is one version of a league: a name, and the entrant it stands
// for (its key and its files' fingerprint). A version whose files changed
// is retired and followed by a new generation of the same name.
type Version struct {
	ID          int    `json:"id"` // 1, 2, ... within the league
	Name        string `json:"name"`
	Gen         int    `json:"generation"` // 1 for the first version of a name
	Key         string `json:"entrant"`
	Label       string `json:"label"`
	Strategy    string `json:"strategy"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Added       string `json:"added_at"`
	Active      bool   `json:"active"`
}

// Title is the version's name with its generation when it has several
// ("v3", "v3#2").
func (v Version) Title() string {
	if v.Gen <= 1 {
		return v.Name
	}
	return fmt.Sprintf("%s#%d", v.Name, v.Gen)
}

// Versions lists league's versions by ID.
func (s *Store) Versions(ctx context.Context, league string) ([]Version, error) {
	return s.versions(ctx, s.db, league)
}

func (s *Store) versions(ctx context.Context, x querier, league string) ([]Version, error) {
	rows, err := x.QueryContext(ctx, s.q(`SELECT id, name, gen, entrant_key, label, strategy, fingerprint, added_at, active FROM league_versions WHERE league = ? ORDER BY id`), league)
	if s.missing(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		var v Version
		var active int
		if err := rows.Scan(&v.ID, &v.Name, &v.Gen, &v.Key, &v.Label, &v.Strategy, &v.Fingerprint, &v.Added, &active); err != nil {
			return nil, err
		}
		v.Active = active != 0
		out = append(out, v)
	}
	return out, rows.Err()
}

// AddVersion adds v (its ID, generation and time are set here) to league.
// An active version of the same name, or of the same entrant and files,
// is an error naming it.
func (s *Store) AddVersion(ctx context.Context, league string, v Version) (Version, error) {
	err := s.locked(ctx, league, func(tx *sql.Tx) error {
		vs, err := s.versions(ctx, tx, league)
		if err != nil {
			return err
		}
		v.Gen = 1
		for _, o := range vs {
			if o.Name == v.Name {
				if o.Active {
					return fmt.Errorf("league %q already has a version named %q (%s); remove it first or pick another name", league, v.Name, o.Label)
				}
				v.Gen = max(v.Gen, o.Gen+1)
			}
			if o.Active && o.Key == v.Key && o.Fingerprint == v.Fingerprint {
				return fmt.Errorf("league %q already has this entrant as version %q", league, o.Title())
			}
		}
		v.ID = len(vs) + 1
		return s.insertVersion(ctx, tx, league, &v)
	})
	return v, err
}

func (s *Store) insertVersion(ctx context.Context, tx *sql.Tx, league string, v *Version) error {
	v.Added, v.Active = nowText(), true
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO league_versions (league, id, name, gen, entrant_key, label, strategy, fingerprint, added_at, active) VALUES (?,?,?,?,?,?,?,?,?,1)`),
		league, v.ID, v.Name, v.Gen, v.Key, v.Label, v.Strategy, v.Fingerprint, v.Added)
	return err
}

// RemoveVersion retires league's active version name: it plays no more
// games; its games stay, and keep counting in the others' ratings.
func (s *Store) RemoveVersion(ctx context.Context, league, name string) error {
	return s.locked(ctx, league, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`UPDATE league_versions SET active = 0 WHERE league = ? AND name = ? AND active = 1`), league, name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("league %q has no active version named %q", league, name)
		}
		return nil
	})
}

// Renew replaces version old, whose files now have fingerprint fp, by a
// new generation of its name (old is retired), unless another worker did
// already; it returns the active version of that name.
func (s *Store) Renew(ctx context.Context, league string, old Version, fp string) (Version, error) {
	var out Version
	err := s.locked(ctx, league, func(tx *sql.Tx) error {
		vs, err := s.versions(ctx, tx, league)
		if err != nil {
			return err
		}
		gen := 0
		for _, o := range vs {
			if o.Name != old.Name {
				continue
			}
			gen = max(gen, o.Gen)
			if o.Active && o.ID != old.ID {
				out = o // renewed meanwhile
				return nil
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE league_versions SET active = 0 WHERE league = ? AND id = ?`), league, old.ID); err != nil {
			return err
		}
		out = old
		out.ID, out.Gen, out.Fingerprint = len(vs)+1, gen+1, fp
		return s.insertVersion(ctx, tx, league, &out)
	})
	return out, err
}

// Unit is one scheduled comparison: a case (the league's unit number
// picks it) played by a group of versions in every rotation of the seats.
type Unit struct {
	N        int64 `json:"u"`
	Versions []int `json:"v"` // version IDs, in the seats of the first rotation
}

// Block is a worker's claim: units to play, stored together.
type Block struct {
	ID      int64
	Units   []Unit
	Games   int
	Resumed bool // taken over from a worker that stopped or died
}

// Budget is what a new block may hold: Games < 0 means no limit.
type Budget struct {
	Games int // games the league may still schedule (a --total target)
	// Pending is the games of the blocks claimed and not yet stored: a
	// unit of theirs whose referee fails is not stored, and leaves room.
	Pending int
}

// Claim hands owner a block of league: one left by a worker that is gone
// or whose lease ended, to be played as it was planned; otherwise a new
// one of the units plan returns (plan is called in the claim's
// transaction with what the league may still schedule; no units: no
// block, ok false).
func (s *Store) Claim(ctx context.Context, league, owner string, total int64, lease time.Duration, plan func(b Budget) ([]Unit, int)) (blk Block, ok bool, err error) {
	err = s.locked(ctx, league, func(tx *sql.Tx) error {
		blk, ok = Block{}, false
		exp, args := s.blocks().Expired()
		rows, err := tx.QueryContext(ctx, s.q(`SELECT blk, plan, games, owner, CASE WHEN `+exp+` THEN 1 ELSE 0 END FROM league_blocks WHERE league = ? AND done = 0 ORDER BY blk`), append(args, league)...)
		if err != nil {
			return err
		}
		pending := 0
		var take *Block
		for rows.Next() {
			var b Block
			var planText, who string
			var expired int
			if err := rows.Scan(&b.ID, &planText, &b.Games, &who, &expired); err != nil {
				rows.Close()
				return err
			}
			pending += b.Games
			if take == nil && sqldb.Free(who, expired != 0) {
				if err := json.Unmarshal([]byte(planText), &b.Units); err != nil {
					rows.Close()
					return fmt.Errorf("league %q block %d: %w", league, b.ID, err)
				}
				b.Resumed = true
				take = &b
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if take != nil {
			blk, ok = *take, true
			return s.blocks().Take(ctx, tx, league, int(take.ID), owner, lease)
		}
		var nextUnit, nextBlk, games int64
		if err := tx.QueryRowContext(ctx, s.q(`SELECT next_unit, next_blk, games FROM leagues WHERE name = ?`), league).Scan(&nextUnit, &nextBlk, &games); err != nil {
			return err
		}
		b := Budget{Games: -1, Pending: pending}
		if total > 0 {
			b.Games = int(max(total-games-int64(pending), 0))
		}
		units, n := plan(b)
		if len(units) == 0 {
			return nil
		}
		for i := range units {
			units[i].N = nextUnit + int64(i)
		}
		js, err := json.Marshal(units)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO league_blocks (league, blk, plan, games, owner, expires_at, done, seq) VALUES (?,?,?,?,?,0,0,0)`),
			league, nextBlk, string(js), n, owner); err != nil {
			return err
		}
		if err := s.blocks().Take(ctx, tx, league, int(nextBlk), owner, lease); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE leagues SET next_unit = ?, next_blk = ? WHERE name = ?`), nextUnit+int64(len(units)), nextBlk+1, league); err != nil {
			return err
		}
		blk, ok = Block{ID: nextBlk, Units: units, Games: n}, true
		return nil
	})
	return blk, ok, err
}

// Pending reports whether league has blocks not finished.
func (s *Store) Pending(ctx context.Context, league string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM league_blocks WHERE league = ? AND done = 0`), league).Scan(&n)
	return n > 0, err
}

// Finish stores the games of block blk and the games its referee failed,
// and marks it done, in one transaction; stored is false when another
// worker finished it first (this one's lease had ended): its games stand.
func (s *Store) Finish(ctx context.Context, league string, blk int64, worker string, games []Game, failed []RefereeFailure) (stored bool, err error) {
	err = s.locked(ctx, league, func(tx *sql.Tx) error {
		var done int
		if err := tx.QueryRowContext(ctx, s.q(`SELECT done FROM league_blocks WHERE league = ? AND blk = ?`), league, blk).Scan(&done); err != nil {
			return err
		}
		if done != 0 {
			stored = false
			return nil
		}
		now := nowText()
		ins := s.q(`INSERT INTO league_games (league, blk, idx, unit, case_id, versions, results, player_data, wall_ms, worker, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)`)
		for _, g := range games {
			vs, err := json.Marshal(g.Versions)
			if err != nil {
				return err
			}
			res, err := json.Marshal(g.Seats)
			if err != nil {
				return err
			}
			pd := ""
			if g.PlayerData != nil {
				b, err := json.Marshal(g.PlayerData)
				if err != nil {
					return err
				}
				pd = string(b)
			}
			if _, err := tx.ExecContext(ctx, ins, league, blk, g.Index, g.Unit, g.Case, string(vs), string(res), pd, g.Wall, worker, now); err != nil {
				return err
			}
		}
		insF := s.q(`INSERT INTO league_referee_errors (league, blk, idx, unit, case_id, versions, reason, stderr, worker, at) VALUES (?,?,?,?,?,?,?,?,?,?)`)
		for _, f := range failed {
			vs, err := json.Marshal(f.Versions)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, insF, league, blk, f.Index, f.Unit, f.Case, string(vs), f.Reason, f.Stderr, worker, now); err != nil {
				return err
			}
		}
		var seq int64
		if err := tx.QueryRowContext(ctx, s.q(`SELECT next_seq FROM leagues WHERE name = ?`), league).Scan(&seq); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE league_blocks SET done = 1, seq = ? WHERE league = ? AND blk = ?`), seq, league, blk); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q(`UPDATE leagues SET next_seq = ?, games = games + ? WHERE name = ?`), seq+1, len(games), league)
		stored = err == nil
		return err
	})
	return stored, err
}

// RenewLeases extends owner's leases on its unfinished blocks of league.
func (s *Store) RenewLeases(ctx context.Context, league, owner string, lease time.Duration) error {
	_, err := s.blocks().Renew(ctx, s.db, league, owner, lease)
	return err
}

// Release hands owner's unfinished blocks of league back at once.
func (s *Store) Release(ctx context.Context, league, owner string) error {
	return s.blocks().Release(ctx, s.db, league, owner)
}

// GamesSince calls fn with the games of each block of league finished
// after sequence number seq, in the order they were finished, and
// returns the last sequence number read.
func (s *Store) GamesSince(ctx context.Context, league string, seq int64, fn func(blk Block, games []Game) error) (int64, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT b.seq, g.blk, g.idx, g.unit, g.case_id, g.versions, g.results, g.player_data, g.wall_ms
		FROM league_blocks b JOIN league_games g ON g.league = b.league AND g.blk = b.blk
		WHERE b.league = ? AND b.done = 1 AND b.seq > ? ORDER BY b.seq, g.idx`), league, seq)
	if s.missing(err) {
		return seq, nil
	}
	if err != nil {
		return seq, err
	}
	defer rows.Close()
	var cur []Game
	curSeq, curBlk := int64(-1), int64(-1)
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		err := fn(Block{ID: curBlk}, cur)
		cur = cur[:0:0]
		seq = curSeq
		return err
	}
	for rows.Next() {
		var g Game
		var bs int64
		var vs, res, pd string
		if err := rows.Scan(&bs, &g.Block, &g.Index, &g.Unit, &g.Case, &vs, &res, &pd, &g.Wall); err != nil {
			return seq, err
		}
		if bs != curSeq {
			if err := flush(); err != nil {
				return seq, err
			}
			curSeq, curBlk = bs, g.Block
		}
		if err := json.Unmarshal([]byte(vs), &g.Versions); err != nil {
			return seq, fmt.Errorf("league %q block %d game %d: versions: %w", league, g.Block, g.Index, err)
		}
		if err := json.Unmarshal([]byte(res), &g.Seats); err != nil {
			return seq, fmt.Errorf("league %q block %d game %d: results: %w", league, g.Block, g.Index, err)
		}
		if pd != "" {
			if err := json.Unmarshal([]byte(pd), &g.PlayerData); err != nil {
				return seq, fmt.Errorf("league %q block %d game %d: player data: %w", league, g.Block, g.Index, err)
			}
		}
		cur = append(cur, g)
	}
	if err := rows.Err(); err != nil {
		return seq, err
	}
	return seq, flush()
}

// RefereeFailure is a league game whose referee failed (see
// contract.RefereeError): its unit is not stored.
type RefereeFailure struct {
	Index    int    `json:"index"` // within its block
	Unit     int64  `json:"unit"`
	Case     string `json:"case"`
	Versions []int  `json:"versions"` // version IDs by seat
	Reason   string `json:"reason"`
	Stderr   string `json:"stderr,omitempty"` // the tail of the referee's stderr
	Worker   string `json:"worker,omitempty"`
	At       string `json:"at,omitempty"`
}

// RefereeErrors returns how many games of league their referee failed,
// and the first of them (nil if none).
func (s *Store) RefereeErrors(ctx context.Context, league string) (int, *RefereeFailure, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM league_referee_errors WHERE league = ?`), league).Scan(&n)
	if s.missing(err) {
		return 0, nil, nil
	}
	if err != nil || n == 0 {
		return n, nil, err
	}
	var f RefereeFailure
	var vs string
	err = s.db.QueryRowContext(ctx, s.q(`SELECT idx, unit, case_id, versions, reason, stderr, worker, at FROM league_referee_errors
		WHERE league = ? ORDER BY blk, idx LIMIT 1`), league).Scan(&f.Index, &f.Unit, &f.Case, &vs, &f.Reason, &f.Stderr, &f.Worker, &f.At)
	if err != nil {
		return n, nil, err
	}
	if err := json.Unmarshal([]byte(vs), &f.Versions); err != nil {
		return n, nil, fmt.Errorf("league %q: referee error of unit %d: versions: %w", league, f.Unit, err)
	}
	return n, &f, nil
}
