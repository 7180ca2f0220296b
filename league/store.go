package league

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"gauntlet/harness/store"
)

// Store keeps leagues in the results database (SQLite or PostgreSQL):
// package store holds their tables (leagues, league_versions,
// league_blocks, league_games, league_referee_errors) and statements; this
// is the league's view of them, in the league's types.
type Store struct {
	hs *store.Store
}

// OpenStore opens the database at url (as store.Open reads it) and
// creates the league tables it lacks.
func OpenStore(ctx context.Context, url string) (*Store, error) {
	return store.OpenLayer(ctx, url, false, StoreOn)
}

// OpenStoreReadOnly opens the database at url for reading only
// (store.OpenReadOnly); a store without the league tables holds no
// league.
func OpenStoreReadOnly(ctx context.Context, url string) (*Store, error) {
	return store.OpenLayer(ctx, url, true, StoreOn)
}

// StoreOn is the league store on the open store hs, whose connections it
// shares (closing either closes both): the league tables are made unless
// hs is read-only (an SQLite file opened by store.OpenReadOnly, where the
// missing ones read as empty). On error hs is left open.
func StoreOn(ctx context.Context, hs *store.Store) (*Store, error) {
	if !hs.ReadOnly() {
		if err := hs.CreateLeagueTables(ctx); err != nil {
			return nil, fmt.Errorf("storage %q: creating the league tables: %w", store.RedactURL(hs.URL()), err)
		}
	}
	return &Store{hs: hs}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.hs.Close() }

// DB exposes the database (tests).
func (s *Store) DB() *sql.DB { return s.hs.DB() }

// Rebind is query with the database's placeholders (tests).
func (s *Store) Rebind(query string) string { return s.hs.Dialect().Rebind(query) }

// ErrNoLeague is returned for a league that is not stored.
var ErrNoLeague = store.ErrNoLeague

// Def is a league's definition.
type Def struct {
	Name    string `json:"name"`
	Game    string `json:"game"`
	Cases   string `json:"cases"`
	Size    int    `json:"size"` // versions per unit (seats of a game, or the group of a single-player case)
	Created string `json:"created_at"`
	Games   int64  `json:"games"`
}

// Create stores league d, or checks that the stored league of that name
// has the same game (and, where d gives them, the same cases and size); it
// returns the stored definition.
func (s *Store) Create(ctx context.Context, d Def) (Def, error) {
	sd, err := s.hs.DefineLeague(ctx, store.LeagueDef(d))
	if err != nil {
		return Def{}, err
	}
	old := Def(sd)
	switch {
	case old.Game != d.Game:
		return Def{}, fmt.Errorf("league %q is a league of game %q, not %q", d.Name, old.Game, d.Game)
	case d.Cases != "" && d.Cases != old.Cases:
		return Def{}, fmt.Errorf("league %q plays cases %q, not %q (a league's cases are fixed when it is made)", d.Name, old.Cases, d.Cases)
	case d.Size != 0 && d.Size != old.Size:
		return Def{}, fmt.Errorf("league %q compares %d versions a game, not %d (fixed when it is made)", d.Name, old.Size, d.Size)
	}
	return old, nil
}

// Def returns league name's definition (ErrNoLeague if none).
func (s *Store) Def(ctx context.Context, name string) (Def, error) {
	d, err := s.hs.League(ctx, name)
	return Def(d), err
}

// Leagues lists the stored leagues by name.
func (s *Store) Leagues(ctx context.Context) ([]Def, error) {
	ds, err := s.hs.Leagues(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Def, len(ds))
	for i, d := range ds {
		out[i] = Def(d)
	}
	return out, nil
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
func (v Version) Title() string { return store.LeagueVersion(v).Title() }

// Versions lists league's versions by ID.
func (s *Store) Versions(ctx context.Context, league string) ([]Version, error) {
	vs, err := s.hs.LeagueVersions(ctx, league)
	if err != nil {
		return nil, err
	}
	out := make([]Version, len(vs))
	for i, v := range vs {
		out[i] = Version(v)
	}
	return out, nil
}

// AddVersion adds v (its ID, generation and time are set here) to league.
// An active version of the same name, or of the same entrant and files,
// is an error naming it.
func (s *Store) AddVersion(ctx context.Context, league string, v Version) (Version, error) {
	sv, err := s.hs.AddLeagueVersion(ctx, league, store.LeagueVersion(v))
	return Version(sv), err
}

// RemoveVersion retires league's active version name: it plays no more
// games; its games stay, and keep counting in the others' ratings.
func (s *Store) RemoveVersion(ctx context.Context, league, name string) error {
	return s.hs.RetireLeagueVersion(ctx, league, name)
}

// Renew replaces version old, whose files now have fingerprint fp, by a
// new generation of its name (old is retired), unless another worker did
// already; it returns the active version of that name.
func (s *Store) Renew(ctx context.Context, league string, old Version, fp string) (Version, error) {
	v, err := s.hs.RenewLeagueVersion(ctx, league, store.LeagueVersion(old), fp)
	return Version(v), err
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
func (s *Store) Claim(ctx context.Context, league, owner string, total int64, lease time.Duration, plan func(b Budget) ([]Unit, int)) (Block, bool, error) {
	sb, ok, err := s.hs.ClaimLeagueBlock(ctx, league, owner, total, lease, func(b store.LeagueBudget) ([]store.LeagueUnit, int) {
		units, n := plan(Budget(b))
		out := make([]store.LeagueUnit, len(units))
		for i, u := range units {
			out[i] = store.LeagueUnit(u)
		}
		return out, n
	})
	if err != nil || !ok {
		return Block{}, false, err
	}
	b := Block{ID: sb.ID, Units: make([]Unit, len(sb.Units)), Games: sb.Games, Resumed: sb.Resumed}
	for i, u := range sb.Units {
		b.Units[i] = Unit(u)
	}
	return b, true, nil
}

// Pending reports whether league has blocks not finished.
func (s *Store) Pending(ctx context.Context, league string) (bool, error) {
	return s.hs.LeaguePending(ctx, league)
}

// Finish stores the games of block blk and the games its referee failed,
// and marks it done, in one transaction; stored is false when another
// worker finished it first (this one's lease had ended): its games stand.
func (s *Store) Finish(ctx context.Context, league string, blk int64, worker string, games []Game, failed []RefereeFailure) (stored bool, err error) {
	sg := make([]store.LeagueGame, len(games))
	for i, g := range games {
		sg[i] = store.LeagueGame{Block: g.Block, Index: g.Index, Unit: g.Unit, Case: g.Case, Versions: g.Versions,
			Seats: g.Seats, PlayerData: g.PlayerData, Wall: g.Wall}
	}
	sf := make([]store.LeagueRefereeFailure, len(failed))
	for i, f := range failed {
		sf[i] = store.LeagueRefereeFailure(f)
	}
	return s.hs.FinishLeagueBlock(ctx, league, blk, worker, sg, sf)
}

// RenewLeases extends owner's leases on its unfinished blocks of league.
func (s *Store) RenewLeases(ctx context.Context, league, owner string, lease time.Duration) error {
	return s.hs.RenewLeagueLeases(ctx, league, owner, lease)
}

// Release hands owner's unfinished blocks of league back at once.
func (s *Store) Release(ctx context.Context, league, owner string) error {
	return s.hs.ReleaseLeagueBlocks(ctx, league, owner)
}

// GamesSince calls fn with the games of each block of league finished
// after sequence number seq, in the order they were finished, and
// returns the last sequence number read.
func (s *Store) GamesSince(ctx context.Context, league string, seq int64, fn func(blk Block, games []Game) error) (int64, error) {
	return s.hs.LeagueGamesSince(ctx, league, seq, func(blk int64, sg []store.LeagueGame) error {
		games := make([]Game, len(sg))
		for i, g := range sg {
			games[i] = Game{Block: g.Block, Index: g.Index, Unit: g.Unit, Case: g.Case, Versions: g.Versions,
				Seats: g.Seats, PlayerData: g.PlayerData, Wall: g.Wall}
		}
		return fn(Block{ID: blk}, games)
	})
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
	n, sf, err := s.hs.LeagueRefereeErrors(ctx, league)
	if sf == nil {
		return n, nil, err
	}
	f := RefereeFailure(*sf)
	return n, &f, err
}
