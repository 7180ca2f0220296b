package harness

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Registry holds games and strategies by name. The package-level Default is
// filled by the game packages' init functions; tests may build their own.
type Registry struct {
	mu         sync.RWMutex
	games      map[string]Game
	strategies map[string]map[string]*Strategy // game → name → strategy
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{games: map[string]Game{}, strategies: map[string]map[string]*Strategy{}}
}

// Default is the registry the CLI uses.
var Default = NewRegistry()

// RegisterGame adds a game; it panics on a duplicate or malformed entry
// (registration happens in init, where a mistake is a programming error).
func (r *Registry) RegisterGame(g Game) {
	info := g.Info()
	if info.Name == "" || info.MinSeats < 1 || info.MaxSeats < info.MinSeats {
		panic(fmt.Sprintf("harness: bad game info %+v", info))
	}
	if err := checkTools(g); err != nil {
		panic(fmt.Sprintf("harness: game %s: %v", info.Name, err))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.games[info.Name]; dup {
		panic("harness: game registered twice: " + info.Name)
	}
	r.games[info.Name] = g
}

// RegisterStrategy adds a strategy of the game named s.Game; it panics on
// a duplicate name or a malformed parameter declaration. The game may be
// registered before or after its strategies (Go runs a package's init
// functions in file-name order), so a strategy of a game that is never
// registered is reported by Check, not here.
func (r *Registry) RegisterStrategy(s *Strategy) {
	if err := s.Params.Check(); err != nil {
		panic(fmt.Sprintf("harness: strategy %s/%s: %v", s.Game, s.Name, err))
	}
	if s.Name == "" || strings.ContainsAny(s.Name, ":,=* ") || s.New == nil {
		panic(fmt.Sprintf("harness: bad strategy %q", s.Name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.strategies[s.Game]
	if m == nil {
		m = map[string]*Strategy{}
		r.strategies[s.Game] = m
	}
	if _, dup := m[s.Name]; dup {
		panic("harness: strategy registered twice: " + s.Game + "/" + s.Name)
	}
	m[s.Name] = s
}

// Check reports the strategies registered for a game that is not: a
// misspelt game name, or a game whose registration was removed. Call it
// once registration is over (the games' contract tests do).
func (r *Registry) Check() error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var errs []error
	for _, game := range slices.Sorted(maps.Keys(r.strategies)) {
		if _, ok := r.games[game]; !ok {
			errs = append(errs, fmt.Errorf("harness: strategies %s registered for unknown game %q (known: %s)",
				strings.Join(r.strategyNames(game), ", "), game, strings.Join(r.gameNames(), ", ")))
		}
	}
	return errors.Join(errs...)
}

// Game returns the named game, or an error listing the known ones.
func (r *Registry) Game(name string) (Game, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if g, ok := r.games[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(r.gameNames(), ", "))
}

// Games lists the registered games by name.
func (r *Registry) Games() []Game {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Game, 0, len(r.games))
	for _, n := range r.gameNames() {
		out = append(out, r.games[n])
	}
	return out
}

func (r *Registry) gameNames() []string {
	names := make([]string, 0, len(r.games))
	for n := range r.games {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Strategy returns a game's strategy, or an error listing the known ones.
func (r *Registry) Strategy(game, name string) (*Strategy, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if s, ok := r.strategies[game][name]; ok {
		return s, nil
	}
	known := r.strategyNames(game)
	if len(known) == 0 {
		return nil, fmt.Errorf("unknown strategy %q: game %q has no strategies", name, game)
	}
	return nil, fmt.Errorf("unknown strategy %q for game %s (known: %s)", name, game, strings.Join(known, ", "))
}

// Strategies lists a game's strategies by name.
func (r *Registry) Strategies(game string) []*Strategy {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []*Strategy
	for _, n := range r.strategyNames(game) {
		out = append(out, r.strategies[game][n])
	}
	return out
}

func (r *Registry) strategyNames(game string) []string {
	names := make([]string, 0, len(r.strategies[game]))
	for n := range r.strategies[game] {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
