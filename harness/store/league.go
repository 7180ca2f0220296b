package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gauntlet/internal/sqldb"
)

// The tables of the leagues (package league):
//
//	leagues               a league's definition and counters
//	league_versions       its versions, by ID within the league
//	league_blocks         units claimed by workers under a lease (by the
//	                      database's clock), done once their games are stored
//	league_games          the games of the stored blocks
//	league_referee_errors the games whose referee failed (not stored)
var leagueSchema = []string{
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

// CreateLeagueTables makes the league tables the store lacks, holding the
// advisory lock sqldb.LockLeagueSchema on PostgreSQL so that workers
// starting together on a new database do not race in CREATE TABLE.
func (s *Store) CreateLeagueTables(ctx context.Context) error {
	return s.createTables(ctx, sqldb.LockLeagueSchema, leagueSchema)
}

// leagueLocked runs fn in one transaction holding league name's lock.
func (s *Store) leagueLocked(ctx context.Context, name string, fn func(tx *sql.Tx) error) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(sqldb.LockLeague, sqldb.HashName(name)), fn)
}

// leagueBlocks is the lease protocol on league_blocks, by the database's
// clock.
func (s *Store) leagueBlocks() sqldb.Lease {
	return sqldb.Lease{Dialect: s.dialect, Table: "league_blocks", Scope: "league", Item: "blk", DBClock: true}
}

// ErrNoLeague is returned for a league that is not stored.
var ErrNoLeague = errors.New("no such league")

// LeagueDef is a league's stored definition.
type LeagueDef struct {
	Name    string
	Game    string
	Cases   string
	Size    int    // versions per unit
	Created string // RFC 3339, UTC
	Games   int64  // games stored
}

// DefineLeague stores league d (its time of creation set here) when no
// league of its name is stored, and returns the stored definition (d
// itself when it was stored now).
func (s *Store) DefineLeague(ctx context.Context, d LeagueDef) (LeagueDef, error) {
	var out LeagueDef
	err := s.leagueLocked(ctx, d.Name, func(tx *sql.Tx) error {
		old, err := s.league(ctx, tx, d.Name)
		if !errors.Is(err, ErrNoLeague) {
			out = old
			return err
		}
		d.Created, d.Games = nowText(), 0
		_, err = tx.ExecContext(ctx, s.rebind(`INSERT INTO leagues (name, game, cases, size, created_at, next_unit, next_blk, next_seq, games) VALUES (?,?,?,?,?,0,1,1,0)`),
			d.Name, d.Game, d.Cases, d.Size, d.Created)
		out = d
		return err
	})
	return out, err
}

// League returns league name's definition (ErrNoLeague if none).
func (s *Store) League(ctx context.Context, name string) (LeagueDef, error) {
	return s.league(ctx, s.db, name)
}

func (s *Store) league(ctx context.Context, c sqldb.Conn, name string) (LeagueDef, error) {
	d := LeagueDef{Name: name}
	err := c.QueryRowContext(ctx, s.rebind(`SELECT game, cases, size, created_at, games FROM leagues WHERE name = ?`), name).
		Scan(&d.Game, &d.Cases, &d.Size, &d.Created, &d.Games)
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("league %q: %w", name, ErrNoLeague)
	}
	return d, err
}

// Leagues lists the stored leagues by name.
func (s *Store) Leagues(ctx context.Context) ([]LeagueDef, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, game, cases, size, created_at, games FROM leagues ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LeagueDef
	for rows.Next() {
		var d LeagueDef
		if err := rows.Scan(&d.Name, &d.Game, &d.Cases, &d.Size, &d.Created, &d.Games); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// LeagueVersion is one version of a league: a name, and the entrant it
// stands for (its key and its files' fingerprint). A version whose files
// changed is retired and followed by a new generation of the same name.
type LeagueVersion struct {
	ID          int // 1, 2, ... within the league
	Name        string
	Gen         int // 1 for the first version of a name
	Key         string
	Label       string
	Strategy    string
	Fingerprint string
	Added       string // RFC 3339, UTC
	Active      bool
}

// Title is the version's name with its generation when it has several
// ("v3", "v3#2").
func (v LeagueVersion) Title() string {
	if v.Gen <= 1 {
		return v.Name
	}
	return fmt.Sprintf("%s#%d", v.Name, v.Gen)
}

// LeagueVersions lists league's versions by ID.
func (s *Store) LeagueVersions(ctx context.Context, league string) ([]LeagueVersion, error) {
	return s.leagueVersions(ctx, s.db, league)
}

func (s *Store) leagueVersions(ctx context.Context, c sqldb.Conn, league string) ([]LeagueVersion, error) {
	rows, err := c.QueryContext(ctx, s.rebind(`SELECT id, name, gen, entrant_key, label, strategy, fingerprint, added_at, active FROM league_versions WHERE league = ? ORDER BY id`), league)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LeagueVersion
	for rows.Next() {
		var v LeagueVersion
		var active int
		if err := rows.Scan(&v.ID, &v.Name, &v.Gen, &v.Key, &v.Label, &v.Strategy, &v.Fingerprint, &v.Added, &active); err != nil {
			return nil, err
		}
		v.Active = active != 0
		out = append(out, v)
	}
	return out, rows.Err()
}

// AddLeagueVersion adds v (its ID, generation and time are set here) to
// league. An active version of the same name, or of the same entrant and
// files, is an error naming it.
func (s *Store) AddLeagueVersion(ctx context.Context, league string, v LeagueVersion) (LeagueVersion, error) {
	err := s.leagueLocked(ctx, league, func(tx *sql.Tx) error {
		vs, err := s.leagueVersions(ctx, tx, league)
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
		return s.insertLeagueVersion(ctx, tx, league, &v)
	})
	return v, err
}

func (s *Store) insertLeagueVersion(ctx context.Context, tx *sql.Tx, league string, v *LeagueVersion) error {
	v.Added, v.Active = nowText(), true
	_, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO league_versions (league, id, name, gen, entrant_key, label, strategy, fingerprint, added_at, active) VALUES (?,?,?,?,?,?,?,?,?,1)`),
		league, v.ID, v.Name, v.Gen, v.Key, v.Label, v.Strategy, v.Fingerprint, v.Added)
	return err
}

// RetireLeagueVersion retires league's active version name: it plays no
// more games; its games stay.
func (s *Store) RetireLeagueVersion(ctx context.Context, league, name string) error {
	return s.leagueLocked(ctx, league, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE league_versions SET active = 0 WHERE league = ? AND name = ? AND active = 1`), league, name)
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

// RenewLeagueVersion replaces version old, whose files now have
// fingerprint fp, by a new generation of its name (old is retired), unless
// another worker did already; it returns the active version of that name.
func (s *Store) RenewLeagueVersion(ctx context.Context, league string, old LeagueVersion, fp string) (LeagueVersion, error) {
	var out LeagueVersion
	err := s.leagueLocked(ctx, league, func(tx *sql.Tx) error {
		vs, err := s.leagueVersions(ctx, tx, league)
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
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE league_versions SET active = 0 WHERE league = ? AND id = ?`), league, old.ID); err != nil {
			return err
		}
		out = old
		out.ID, out.Gen, out.Fingerprint = len(vs)+1, gen+1, fp
		return s.insertLeagueVersion(ctx, tx, league, &out)
	})
	return out, err
}

// LeagueUnit is one scheduled comparison of a league: its unit number, and
// the version IDs in the seats of its first rotation. A block's units are
// stored as a JSON list of them (league_blocks.plan).
type LeagueUnit struct {
	N        int64 `json:"u"`
	Versions []int `json:"v"`
}

// LeagueBlock is a worker's claim: units to play, stored together.
type LeagueBlock struct {
	ID      int64
	Units   []LeagueUnit
	Games   int
	Resumed bool // taken over from a worker that stopped or died
}

// LeagueBudget is what a new block may hold: Games < 0 means no limit.
type LeagueBudget struct {
	Games int // games the league may still schedule (a total target)
	// Pending is the games of the blocks claimed and not yet stored: a
	// unit of theirs whose referee fails is not stored, and leaves room.
	Pending int
}

// ClaimLeagueBlock hands owner a block of league: one left by a worker
// that is gone or whose lease ended (sqldb.Free), to be played as it was
// planned; otherwise a new one of the units plan returns with their games
// (plan is called in the claim's transaction with what the league may
// still schedule, total games at most when total > 0; the units' numbers
// are set here; no units: no block, ok false).
func (s *Store) ClaimLeagueBlock(ctx context.Context, league, owner string, total int64, lease time.Duration, plan func(b LeagueBudget) ([]LeagueUnit, int)) (blk LeagueBlock, ok bool, err error) {
	err = s.leagueLocked(ctx, league, func(tx *sql.Tx) error {
		blk, ok = LeagueBlock{}, false
		take, pending, err := s.leagueOpenBlocks(ctx, tx, league)
		if err != nil {
			return err
		}
		if take != nil {
			blk, ok = *take, true
			return s.leagueBlocks().Take(ctx, tx, league, int(take.ID), owner, lease)
		}
		var nextUnit, nextBlk, games int64
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT next_unit, next_blk, games FROM leagues WHERE name = ?`), league).Scan(&nextUnit, &nextBlk, &games); err != nil {
			return err
		}
		b := LeagueBudget{Games: -1, Pending: pending}
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
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO league_blocks (league, blk, plan, games, owner, expires_at, done, seq) VALUES (?,?,?,?,?,0,0,0)`),
			league, nextBlk, string(js), n, owner); err != nil {
			return err
		}
		if err := s.leagueBlocks().Take(ctx, tx, league, int(nextBlk), owner, lease); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE leagues SET next_unit = ?, next_blk = ? WHERE name = ?`), nextUnit+int64(len(units)), nextBlk+1, league); err != nil {
			return err
		}
		blk, ok = LeagueBlock{ID: nextBlk, Units: units, Games: n}, true
		return nil
	})
	return blk, ok, err
}

// leagueOpenBlocks reads league's unfinished blocks: the first that
// another worker left (nil if none), and the games of them all.
func (s *Store) leagueOpenBlocks(ctx context.Context, tx *sql.Tx, league string) (take *LeagueBlock, pending int, err error) {
	exp, args := s.leagueBlocks().Expired()
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT blk, plan, games, owner, CASE WHEN `+exp+` THEN 1 ELSE 0 END FROM league_blocks WHERE league = ? AND done = 0 ORDER BY blk`), append(args, league)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var b LeagueBlock
		var planText, who string
		var expired int
		if err := rows.Scan(&b.ID, &planText, &b.Games, &who, &expired); err != nil {
			return nil, 0, err
		}
		pending += b.Games
		if take == nil && sqldb.Free(who, expired != 0) {
			if err := json.Unmarshal([]byte(planText), &b.Units); err != nil {
				return nil, 0, fmt.Errorf("league %q block %d: %w", league, b.ID, err)
			}
			b.Resumed = true
			take = &b
		}
	}
	return take, pending, rows.Err()
}

// LeaguePending reports whether league has blocks not finished.
func (s *Store) LeaguePending(ctx context.Context, league string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM league_blocks WHERE league = ? AND done = 0`), league).Scan(&n)
	return n > 0, err
}

// LeagueSeat is what a league keeps of a seat's result (stored as JSON,
// league_games.results).
type LeagueSeat struct {
	Score   float64 `json:"s"`
	Rank    int     `json:"r"`
	Forfeit string  `json:"f,omitempty"`
	// Out is why the seat was out before the game ended, in a game that
	// says so (contract.Eliminator).
	Out string `json:"o,omitempty"`
}

// LeagueGame is a stored game of a league.
type LeagueGame struct {
	Block int64
	Index int   // within the block
	Unit  int64 // the unit (case and group) it belongs to
	Case  string
	// Versions is the version of each seat (a single-player game: one).
	Versions []int
	Seats    []LeagueSeat
	// PlayerData is each seat's player_data of a referee game (nil if none).
	PlayerData []map[string]any
	Wall       float64 // ms
}

// LeagueRefereeFailure is a league game whose referee failed (see
// contract.RefereeError): its unit is not stored.
type LeagueRefereeFailure struct {
	Index    int // within its block
	Unit     int64
	Case     string
	Versions []int // version IDs by seat
	Reason   string
	Stderr   string // the tail of the referee's stderr
	Worker   string
	At       string // RFC 3339, UTC
}

// FinishLeagueBlock stores the games of block blk and the games its
// referee failed, and marks it done, in one transaction; stored is false
// when another worker finished it first (this one's lease had ended): its
// games stand.
func (s *Store) FinishLeagueBlock(ctx context.Context, league string, blk int64, worker string, games []LeagueGame, failed []LeagueRefereeFailure) (stored bool, err error) {
	err = s.leagueLocked(ctx, league, func(tx *sql.Tx) error {
		var done int
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT done FROM league_blocks WHERE league = ? AND blk = ?`), league, blk).Scan(&done); err != nil {
			return err
		}
		if done != 0 {
			stored = false
			return nil
		}
		now := nowText()
		if err := s.insertLeagueGames(ctx, tx, league, blk, worker, now, games); err != nil {
			return err
		}
		insF := s.rebind(`INSERT INTO league_referee_errors (league, blk, idx, unit, case_id, versions, reason, stderr, worker, at) VALUES (?,?,?,?,?,?,?,?,?,?)`)
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
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT next_seq FROM leagues WHERE name = ?`), league).Scan(&seq); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE league_blocks SET done = 1, seq = ? WHERE league = ? AND blk = ?`), seq, league, blk); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.rebind(`UPDATE leagues SET next_seq = ?, games = games + ? WHERE name = ?`), seq+1, len(games), league)
		stored = err == nil
		return err
	})
	return stored, err
}

// insertLeagueGames stores the games of block blk.
func (s *Store) insertLeagueGames(ctx context.Context, tx *sql.Tx, league string, blk int64, worker, now string, games []LeagueGame) error {
	ins := s.rebind(`INSERT INTO league_games (league, blk, idx, unit, case_id, versions, results, player_data, wall_ms, worker, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)`)
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
	return nil
}

// RenewLeagueLeases extends owner's leases on its unfinished blocks of
// league.
func (s *Store) RenewLeagueLeases(ctx context.Context, league, owner string, lease time.Duration) error {
	_, err := s.leagueBlocks().Renew(ctx, s.db, league, owner, lease)
	return err
}

// ReleaseLeagueBlocks hands owner's unfinished blocks of league back at
// once.
func (s *Store) ReleaseLeagueBlocks(ctx context.Context, league, owner string) error {
	return s.leagueBlocks().Release(ctx, s.db, league, owner)
}

// LeagueGamesSince calls fn with the block ID and the games of each block
// of league finished after sequence number seq, in the order they were
// finished, and returns the last sequence number read.
func (s *Store) LeagueGamesSince(ctx context.Context, league string, seq int64, fn func(blk int64, games []LeagueGame) error) (int64, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT b.seq, g.blk, g.idx, g.unit, g.case_id, g.versions, g.results, g.player_data, g.wall_ms
		FROM league_blocks b JOIN league_games g ON g.league = b.league AND g.blk = b.blk
		WHERE b.league = ? AND b.done = 1 AND b.seq > ? ORDER BY b.seq, g.idx`), league, seq)
	if err != nil {
		return seq, err
	}
	defer rows.Close()
	var cur []LeagueGame
	curSeq, curBlk := int64(-1), int64(-1)
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		err := fn(curBlk, cur)
		cur = cur[:0:0]
		seq = curSeq
		return err
	}
	for rows.Next() {
		var g LeagueGame
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
		if err := decodeLeagueGame(&g, vs, res, pd); err != nil {
			return seq, fmt.Errorf("league %q block %d game %d: %w", league, g.Block, g.Index, err)
		}
		cur = append(cur, g)
	}
	if err := rows.Err(); err != nil {
		return seq, err
	}
	return seq, flush()
}

// decodeLeagueGame reads a stored game's JSON columns into g.
func decodeLeagueGame(g *LeagueGame, versions, results, playerData string) error {
	if err := json.Unmarshal([]byte(versions), &g.Versions); err != nil {
		return fmt.Errorf("versions: %w", err)
	}
	if err := json.Unmarshal([]byte(results), &g.Seats); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if playerData != "" {
		if err := json.Unmarshal([]byte(playerData), &g.PlayerData); err != nil {
			return fmt.Errorf("player data: %w", err)
		}
	}
	return nil
}

// LeagueRefereeErrors returns how many games of league their referee
// failed, and the first of them (nil if none).
func (s *Store) LeagueRefereeErrors(ctx context.Context, league string) (int, *LeagueRefereeFailure, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM league_referee_errors WHERE league = ?`), league).Scan(&n)
	if err != nil || n == 0 {
		return n, nil, err
	}
	var f LeagueRefereeFailure
	var vs string
	err = s.db.QueryRowContext(ctx, s.rebind(`SELECT idx, unit, case_id, versions, reason, stderr, worker, at FROM league_referee_errors
		WHERE league = ? ORDER BY blk, idx LIMIT 1`), league).Scan(&f.Index, &f.Unit, &f.Case, &vs, &f.Reason, &f.Stderr, &f.Worker, &f.At)
	if err != nil {
		return n, nil, err
	}
	if err := json.Unmarshal([]byte(vs), &f.Versions); err != nil {
		return n, nil, fmt.Errorf("league %q: referee error of unit %d: versions: %w", league, f.Unit, err)
	}
	return n, &f, nil
}
