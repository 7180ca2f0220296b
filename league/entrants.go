package league

import (
	"context"
	"fmt"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
)

// DefaultSize is the number of versions a unit compares for game g: two
// where the game seats two, else its fewest seats; two for single-player
// games (each plays the case alone, and they are ranked by score).
func DefaultSize(info contract.GameInfo) int {
	switch {
	case info.MaxSeats == 1:
		return 2
	case info.MinSeats <= 2 && info.MaxSeats >= 2:
		return 2
	}
	return info.MinSeats
}

// CheckSize checks that a league of game info may compare size versions a
// unit: a seat count of the game, or 2..MaxGroup for a single-player game.
func CheckSize(info contract.GameInfo, size int) error {
	if info.MaxSeats == 1 {
		if size < 2 || size > MaxGroup {
			return fmt.Errorf("game %s is single-player: a league compares 2 to %d versions on each case, not %d", info.Name, MaxGroup, size)
		}
		return nil
	}
	if size < max(2, info.MinSeats) || size > info.MaxSeats || size > MaxGroup {
		return fmt.Errorf("game %s seats %d to %d players: a league game of %d is not possible (2 to %d)", info.Name, info.MinSeats, info.MaxSeats, size, min(info.MaxSeats, MaxGroup))
	}
	return nil
}

// NewVersion describes entrant e as a version named name of a league.
func NewVersion(name string, e *entrant.Entrant) (Version, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = e.Label()
	}
	if strings.ContainsAny(name, "\n\r\t") || len(name) > 200 {
		return Version{}, fmt.Errorf("version name %q: at most 200 characters on one line", name)
	}
	return Version{Name: name, Key: e.Key(), Label: e.Label(), Strategy: e.Name(), Fingerprint: e.Fingerprint}, nil
}

// Add adds entrant e as version name to league (made for game with cases
// and size when it does not exist yet; see Store.Create).
func Add(ctx context.Context, st *Store, d Def, name string, e *entrant.Entrant) (Version, error) {
	if _, err := st.Create(ctx, d); err != nil {
		return Version{}, err
	}
	v, err := NewVersion(name, e)
	if err != nil {
		return Version{}, err
	}
	return st.AddVersion(ctx, d.Name, v)
}

// build makes version v's entrant for game from its stored key; changed
// reports whether its files' fingerprint is no longer the stored one.
func build(reg *contract.Registry, game string, v Version) (e *entrant.Entrant, changed bool, err error) {
	e, err = entrant.Parse(reg, game, v.Key)
	if err != nil {
		return nil, false, fmt.Errorf("version %s (%s): %w", v.Title(), v.Label, err)
	}
	return e, e.Fingerprint != v.Fingerprint, nil
}
