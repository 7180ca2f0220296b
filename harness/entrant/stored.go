package entrant

import (
	"fmt"
	"slices"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/strategies/param"
)

// reparse parses an entrant of a stored run again from its key. One
// that no longer parses, or parses to another key (its strategy gained or
// lost a parameter since), is kept as rec, its stored record: the run's
// tables and reports still name it as the run did, and whatever would make
// it play (a replay played again) fails with the reason.
func Reparse(r *contract.Registry, game, key string, rec store.EntrantRecord) *Entrant {
	e, err := Parse(r, game, key)
	if err == nil && e.Key() == key {
		return e
	}
	switch {
	case err == nil && e.IsExternal():
		err = fmt.Errorf("the command reads as %s now", e.Key())
	case err == nil:
		err = fmt.Errorf("strategy %s has changed since the run (%s)", e.Name(), paramDrift(e.Specs(), rec.Params))
	}
	if rec.Key == "" { // a run stored without its entrants' records
		name, _, _ := strings.Cut(key, ":")
		rec = store.EntrantRecord{Key: key, Label: key, Strategy: name}
	}
	return &Entrant{kind: Stored, stored: &storedEntrant{rec: rec, why: err}}
}

// paramDrift says which parameters a strategy declares now that the run's
// record did not hold, and which it held that are gone.
func paramDrift(now param.Specs, then map[string]any) string {
	var added, gone []string
	for _, sp := range now {
		if _, ok := then[sp.Name]; !ok {
			added = append(added, sp.Name)
		}
	}
	for name := range then {
		if !slices.ContainsFunc(now, func(sp param.Spec) bool { return sp.Name == name }) {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "new parameters: "+strings.Join(added, ", "))
	}
	if len(gone) > 0 {
		parts = append(parts, "parameters no longer declared: "+strings.Join(gone, ", "))
	}
	if len(parts) == 0 {
		return "its key reads differently"
	}
	return strings.Join(parts, "; ")
}

// storedEntrant is what is left of an entrant that only its run remembers.
type storedEntrant struct {
	rec store.EntrantRecord
	why error // why it cannot be built again
}

// cannotPlay is the error of anything that would make a stored-only
// entrant play.
func (e *Entrant) cannotPlay() error {
	return fmt.Errorf("entrant %s of a stored run cannot play again: %w", e.stored.rec.Label, e.stored.why)
}
