package contract

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
	resolvers  []Resolver
	resolved   map[string]Game // by the text a resolver took
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
	g, ok := r.games[name]
	if !ok {
		g, ok = r.resolved[name]
	}
	resolvers := r.resolvers
	known := r.gameNames()
	r.mu.RUnlock()
	if ok {
		return g, nil
	}
	for _, res := range resolvers {
		g, ok, err := res(name)
		if err != nil {
			return nil, fmt.Errorf("game %q: %w", name, err)
		}
		if ok {
			return r.addResolved(name, g)
		}
	}
	return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(known, ", "))
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

// Resolver makes a game from a name that no registered game has: a game
// file, "referee:COMMAND". ok is false for a name it does not take; err
// says why a name it takes is bad.
type Resolver func(name string) (g Game, ok bool, err error)

// RegisterResolver adds a resolver that Game asks, in order of
// registration, for a name no game is registered under. A resolved game is
// kept under that name and, unless another game has it, its own.
func (r *Registry) RegisterResolver(f Resolver) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resolvers = append(r.resolvers, f)
}

// addResolved keeps a resolved game; a game of the same name that is not
// the same game is an error naming both.
func (r *Registry) addResolved(name string, g Game) (Game, error) {
	info := g.Info()
	if info.Name == "" || info.MinSeats < 1 || info.MaxSeats < info.MinSeats {
		return nil, fmt.Errorf("game %q: bad game info %+v", name, info)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.resolved[name]; ok {
		return old, nil // resolved meanwhile
	}
	if r.resolved == nil {
		r.resolved = map[string]Game{}
	}
	if old, ok := r.games[info.Name]; ok {
		if old2, ok := old.(Sourcer); !ok || sourceOf(old2) != sourceOf(g) {
			return nil, fmt.Errorf("game %q is named %q, the name of another game", name, info.Name)
		}
	} else {
		r.games[info.Name] = g
	}
	r.resolved[name] = g
	return g, nil
}

func sourceOf(g any) string {
	s, ok := g.(Sourcer)
	if !ok {
		return ""
	}
	src, fp := s.Source()
	return src + "\x00" + fp
}
