package league

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gauntlet/harness/entrant"
)

// refreshVersions reads the league's versions and builds the entrants of
// new ones; an active version whose files changed is replaced by its next
// generation.
func (w *worker) refreshVersions(ctx context.Context) error {
	vs, err := w.st.Versions(ctx, w.def.Name)
	if err != nil {
		return err
	}
	for k := range vs {
		v := vs[k]
		if !v.Active {
			continue
		}
		i := v.ID - 1
		if i < len(w.versions) && w.versions[i].Active && w.entrants[i] != nil && v.Fingerprint == "" {
			continue // a built-in strategy already built
		}
		e, changed, err := build(w.reg, w.def.Game, v)
		if err != nil {
			if !w.broken[i] {
				w.broken[i] = true
				w.log.Warn(fmt.Sprintf("league %s: this worker cannot play version %s: %v", w.def.Name, v.Title(), err))
			}
			continue
		}
		if changed {
			nv, err := w.st.Renew(ctx, w.def.Name, v, e.Fingerprint)
			if err != nil {
				return err
			}
			w.log.Info(fmt.Sprintf("league %s: the files of version %s changed: its games stay with it, and %s is a new version", w.def.Name, v.Title(), nv.Title()))
			return w.refreshVersions(ctx)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.entrants) < len(vs) {
		w.entrants = append(w.entrants, nil)
	}
	for k, v := range vs {
		if w.entrants[k] != nil || w.broken[k] {
			continue
		}
		e, changed, err := build(w.reg, w.def.Game, v)
		if err == nil && !changed {
			w.entrants[k] = e
		}
	}
	w.versions = vs
	w.tally.Grow(len(vs))
	return nil
}

// dropChanged drops the units of block c played by an external version
// whose files changed while the block played (a bot rebuilt mid-block):
// their games are not that version's. The next refresh, asked for at once,
// makes the new files a new version, which plays them again. Files touched
// with their contents unchanged keep the games.
func (w *worker) dropChanged(c *claimed) {
	changed := map[int]bool{}
	for i, e := range c.plan.Entrants {
		if e == nil || !e.FilesMoved() {
			continue
		}
		ne, err := entrant.Parse(w.reg, w.def.Game, e.Key())
		if err == nil && ne.Fingerprint == e.Fingerprint {
			w.mu.Lock()
			if i < len(w.entrants) && w.entrants[i] == e {
				w.entrants[i] = ne // the same contents: look no more
			}
			w.mu.Unlock()
			continue
		}
		changed[i] = true // changed, or unreadable now: either way not the version's
	}
	if len(changed) == 0 {
		return
	}
	w.refreshNow.Store(true)
	n := 0
	for u, unit := range c.Units {
		for _, id := range unit.Versions {
			if changed[id-1] && !c.dropped[u].Swap(true) {
				n++
			}
		}
	}
	if n == 0 {
		return // none of this block's units was the changed version's
	}
	var titles []string
	w.mu.Lock()
	for i := range changed {
		if i < len(w.versions) {
			titles = append(titles, w.versions[i].Title())
		}
	}
	w.mu.Unlock()
	slices.Sort(titles)
	w.log.Warn(fmt.Sprintf("league %s: the files of version %s changed while block %d played: %d units dropped, to be played by the new version",
		w.def.Name, strings.Join(titles, ", "), c.ID, n))
}
