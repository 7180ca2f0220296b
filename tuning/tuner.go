package tuning

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/strategies/param"
)

// Samplers and pruners by name.
var (
	Samplers = []string{"tpe", "cmaes", "random"}
	Pruners  = []string{"none", "median", "sha", "wilcoxon"}
)

// Default settings of the Wilcoxon pruner.
const (
	DefaultPruneP        = 0.01
	DefaultPruneMinCases = 10
)

// Config is what a user asks for; New resolves it into a Spec.
type Config struct {
	Game string
	// Strategy is the tuned entrant as the CLI takes it: a built-in
	// strategy NAME (or NAME:k=v,...) or an external command
	// "cmd:COMMAND" whose typed placeholders are its parameters.
	Strategy string
	Cases    string
	// Space lists the searched parameters (empty: all declared ones): a
	// name, or NAME=LO:HI to search a narrower range than the declared one.
	Space []string
	// Params are k=v assignments (as --param takes them) for the base
	// values: the parameters outside the search keep them, and they are the
	// default configuration the best trial is compared with.
	Params []string
	// Opponents is the opponent pool of games with two or more seats, a
	// lineup as contract.Registry.ParseLineup reads it ("greedy,random");
	// empty: the game's default opponents. Each opponent plays every case
	// twice with the seats swapped. Single-player games take none.
	Opponents string
	// OpponentCmds are more opponents of the pool, one entrant each (the
	// repeatable --opponent): an external command whose own arguments
	// hold commas, which a lineup would split.
	OpponentCmds []string
	// Fillers is the lineup of the other seats in games of more than two
	// players ("simple*4"), the same in every game: each game seats the
	// candidate, one opponent of the pool and the fillers. Empty: the
	// opponent fills the seats the game needs beyond two.
	Fillers  string
	Sampler  string  // tpe (default), cmaes or random
	Seed     int64   // sampler seed
	Pruner   string  // none (default), median, sha or wilcoxon
	PruneP   float64 // wilcoxon: one-sided p-value below which a trial stops (0: 0.01)
	PruneMin int     // wilcoxon: paired cases needed before pruning (0: 10)
	// Chunk is the number of cases played between two intermediate values
	// (0: a tenth of the cases, at least min(cases, 16)).
	Chunk int
	// Play holds the time limits external bots play under, the tuned one,
	// opponents and fillers; they are part of the study's identity when
	// any bot is external (see Spec.Limits).
	Play contract.PlayOptions
}

// Spec is the resolved definition of a study, stored with it: a study name
// reused with another Spec is an error, and the same command resumes the
// same study.
type Spec struct {
	Game     string   `json:"game"`
	Strategy string   `json:"strategy"`
	Cases    string   `json:"cases"`
	Space    []string `json:"space"`
	// Ranges are the searched ranges narrowed from the declared ones, by
	// name (left out when none is, so that older studies keep their names).
	Ranges    map[string][2]float64 `json:"ranges,omitempty"`
	Base      map[string]any        `json:"base"`
	Opponents []string              `json:"opponents,omitempty"`
	Fillers   []string              `json:"fillers,omitempty"`
	Sampler   string                `json:"sampler"`
	Seed      int64                 `json:"seed"`
	Pruner    string                `json:"pruner"`
	PruneP    float64               `json:"prune_p,omitempty"`
	PruneMin  int                   `json:"prune_min_cases,omitempty"`
	Chunk     int                   `json:"chunk"`
	// An external entrant's fixed placeholder values and the fingerprint
	// of its files, and the time limits of the games when any bot in them
	// is external (tuned, opponent or filler; left out when none is, so
	// that studies of built-in strategies keep their names): a rebuilt bot,
	// other limits or other fixed values make another study.
	Fixed  map[string]string `json:"fixed,omitempty"`
	Bot    string            `json:"bot,omitempty"`
	Limits string            `json:"limits,omitempty"`
	// Direction is Lower when the study minimises its objective: the mean
	// score of a single-player game whose scores are costs (lower is
	// better). Score fractions against opponents are always maximised.
	// In JSON it is the boolean "minimize", left out when false, so that
	// studies stored before it existed keep their names and definitions.
	Direction contract.Direction `json:"minimize,omitempty"`
	// Source and Referee are a game made from a referee program (see
	// contract.Sourcer): the --game value that resolves to it again, so that
	// a stored study rebuilds its game, and its files' fingerprint, so
	// that a changed referee or game file makes another study.
	Source  string `json:"source,omitempty"`
	Referee string `json:"referee,omitempty"`
	// OpponentBots fingerprints the files of the external opponents and
	// fillers, by key: a rebuilt opponent makes another study.
	OpponentBots map[string]string `json:"opponent_bots,omitempty"`
}

// Objective says in words what a study of this definition optimises: the
// one wording that tune's summary, a stored study's summary and its report
// show.
func (s Spec) Objective() string {
	if len(s.Opponents) == 0 {
		if s.Direction == contract.Lower {
			return "mean score per case (seat 0), minimised: lower is better"
		}
		return "mean score per case (seat 0)"
	}
	if len(s.Fillers) > 0 {
		return "score fraction (wins + draws/2) / games against the opponent pool (the candidate's score against the opponent's in each game, the fillers in the other seats), seats swapped per case"
	}
	return "score fraction (wins + draws/2) / games against the opponent pool, seats swapped per case"
}

// External reports whether the study tunes an external command.
func (s Spec) External() bool { return strings.HasPrefix(s.Strategy, "cmd:") }

// DefaultName is the study name used when none is given:
// "tune-<game>-<strategy>-<hash of the spec>".
func (s Spec) DefaultName() string {
	// Marshal cannot fail: the spec holds strings, ints and numbers its
	// flags and parameters were checked to be finite.
	js, _ := json.Marshal(s)
	sum := sha256.Sum256(js)
	name := s.Strategy
	if s.External() {
		name = "cmd"
	}
	return fmt.Sprintf("tune-%s-%s-%s", s.Game, name, hex.EncodeToString(sum[:5]))
}

// UnitInfo describes one scored unit of a study, in the order trials play
// them: a case of a single-player game, or (opponent, case) in games of two
// or more seats, where the unit's score is the candidate's points over the
// two games with the seats swapped (1 win, ½ draw, 0 loss, averaged).
type UnitInfo struct {
	Key      string `json:"key"`
	Case     string `json:"case"`
	Group    string `json:"group,omitempty"`
	Opponent string `json:"opponent,omitempty"`
}

// unit is a UnitInfo with its games.
type unit struct {
	UnitInfo
	matches  []runner.Match
	candSeat []int // seat of the candidate in each match
	oppSeat  []int // seat of the opponent in each match (-1: single-player)
}

// Tuner is a resolved study definition bound to a registry: the game, the
// strategy, the search space, the opponents and the cases.
type Tuner struct {
	reg   *contract.Registry
	spec  Spec
	game  contract.Game
	base  *entrant.Entrant // the tuned entrant at its base values
	space *Space
	opps  []*entrant.Entrant
	fills []*entrant.Entrant // the other seats of every game (Spec.Fillers), if any
	units []unit
}

func oneOf(what, v string, list []string) error {
	for _, x := range list {
		if v == x {
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q (want %s)", what, v, strings.Join(list, "|"))
}

// New checks a user's request and resolves it.
func New(reg *contract.Registry, c Config) (*Tuner, error) {
	if c.Sampler == "" {
		c.Sampler = "tpe"
	}
	if c.Pruner == "" {
		c.Pruner = "none"
	}
	if err := oneOf("sampler", c.Sampler, Samplers); err != nil {
		return nil, err
	}
	if err := oneOf("pruner", c.Pruner, Pruners); err != nil {
		return nil, err
	}
	if c.Chunk < 0 {
		return nil, fmt.Errorf("chunk %d: want a positive number of cases (or 0 for automatic)", c.Chunk)
	}
	if c.Pruner == "wilcoxon" {
		if c.PruneP == 0 {
			c.PruneP = DefaultPruneP
		}
		if c.PruneMin == 0 {
			c.PruneMin = DefaultPruneMinCases
		}
		if !(c.PruneP > 0 && c.PruneP < 0.5) {
			return nil, fmt.Errorf("prune p-value %g: want a value in (0, 0.5)", c.PruneP)
		}
		if c.PruneMin < 1 {
			return nil, fmt.Errorf("prune minimum cases %d: want at least 1", c.PruneMin)
		}
	} else {
		c.PruneP, c.PruneMin = 0, 0
	}
	g, err := reg.Game(c.Game)
	if err != nil {
		return nil, err
	}
	game := g.Info().Name
	ent, err := entrant.Parse(reg, game, c.Strategy, c.Params...)
	if err != nil {
		return nil, err
	}
	space, err := NewSpace(ent.Specs(), c.Space, ent.Params)
	if err != nil {
		if len(ent.Specs()) == 0 && ent.IsExternal() {
			return nil, fmt.Errorf("command %s declares no parameter to tune: declare them in its placeholders ({name:int[1,9]=5}, float, log, cat) or a spec file ({params@spec.json})", entrant.JoinCommand(ent.Template))
		}
		return nil, err
	}
	info := g.Info()
	var oppKeys []string
	bots := map[string]string{}
	if info.MaxSeats > 1 {
		lineup := c.Opponents
		if lineup == "" && len(c.OpponentCmds) == 0 {
			lineup = info.Opponents
		}
		if lineup != "" && lineup != "none" {
			if oppKeys, err = lineupKeys(reg, info.Name, "opponents", lineup, bots); err != nil {
				return nil, err
			}
		}
		for _, spec := range c.OpponentCmds {
			e, err := entrant.Parse(reg, info.Name, spec)
			if err != nil {
				return nil, fmt.Errorf("opponent: %w", err)
			}
			oppKeys = append(oppKeys, entrantKeys([]*entrant.Entrant{e}, bots)...)
		}
		if len(oppKeys) == 0 && info.MinSeats > 1 {
			return nil, fmt.Errorf("game %s needs opponents: give an opponent pool (e.g. --opponents %s)", info.Name, strategyList(reg, info.Name))
		}
	} else if c.Opponents != "" && c.Opponents != "none" || len(c.OpponentCmds) > 0 {
		return nil, fmt.Errorf("game %s is single-player: no opponents", info.Name)
	}
	var fillKeys []string
	if c.Fillers != "" {
		switch {
		case info.MaxSeats == 1:
			return nil, fmt.Errorf("fillers: game %s is single-player: no fillers", info.Name)
		case info.MaxSeats == 2:
			return nil, fmt.Errorf("fillers: game %s has two seats: no other seats to fill", info.Name)
		}
		if len(oppKeys) == 0 {
			return nil, fmt.Errorf("fillers: no opponent pool to seat them with")
		}
		if fillKeys, err = lineupKeys(reg, info.Name, "fillers", c.Fillers, bots); err != nil {
			return nil, err
		}
	}
	spec := Spec{Game: info.Name, Cases: c.Cases, Space: space.Tuned, Ranges: space.Ranges, Base: ent.Specs().Map(space.Base),
		Opponents: oppKeys, Fillers: fillKeys, Sampler: c.Sampler, Seed: c.Seed, Pruner: c.Pruner, PruneP: c.PruneP, PruneMin: c.PruneMin, Chunk: c.Chunk,
		Direction: objectiveDirection(info, len(oppKeys))}
	if len(bots) > 0 {
		spec.OpponentBots = bots
	}
	if src, ok := g.(contract.Sourcer); ok {
		spec.Source, spec.Referee = src.Source()
	}
	if ent.IsExternal() || len(bots) > 0 {
		// An external bot, tuned, opponent or filler, plays otherwise under
		// other limits: another clock, budget or margin is another study.
		spec.Limits = c.Play.LimitKey(info.Limits)
	}
	if ent.IsExternal() {
		spec.Strategy = "cmd:" + entrant.JoinCommand(ent.Template)
		spec.Bot = ent.Fingerprint
		if len(ent.Ext) > 0 {
			spec.Fixed = maps.Clone(ent.Ext)
		}
	} else {
		spec.Strategy = ent.Strategy.Name
	}
	t, err := FromSpec(reg, spec)
	if err != nil {
		return nil, err
	}
	if t.spec.Chunk == 0 {
		n := len(t.units)
		ch := int(math.Ceil(float64(n) / 10))
		if m := min(n, 16); ch < m {
			ch = m
		}
		t.spec.Chunk = max(ch, 1)
	}
	return t, nil
}

func strategyList(reg *contract.Registry, game string) string {
	var names []string
	for _, s := range reg.Strategies(game) {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return "NAME"
	}
	return strings.Join(names, ",")
}

// lineupKeys reads a lineup, the study's opponents or fillers (what, named
// in the errors), into the entrants' keys; the fingerprint of an external
// command's files goes into bots by its key.
func lineupKeys(reg *contract.Registry, game, what, lineup string, bots map[string]string) ([]string, error) {
	ents, err := entrant.ParseLineup(reg, game, lineup)
	if err != nil {
		if what == "opponents" && strings.Contains(lineup, "cmd:") {
			return nil, fmt.Errorf("%s: %w (a command whose arguments hold commas is one --opponent of its own)", what, err)
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return entrantKeys(ents, bots), nil
}

// entrantKeys returns the keys of ents, noting each external one's
// fingerprint in bots.
func entrantKeys(ents []*entrant.Entrant, bots map[string]string) []string {
	keys := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.IsExternal() {
			bots[e.Key()] = e.Fingerprint
		}
		keys = append(keys, e.Key())
	}
	return keys
}

// keyEntrants turns the entrant keys of a study definition (its opponents
// or fillers: what, named in the errors) back into entrants; an external
// command whose files changed since the study began (bots) is an error.
func keyEntrants(reg *contract.Registry, game, what string, keys []string, bots map[string]string) ([]*entrant.Entrant, error) {
	var out []*entrant.Entrant
	for _, k := range keys {
		e, err := entrant.Parse(reg, game, k)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if e.IsExternal() && e.Fingerprint != bots[k] {
			return nil, fmt.Errorf("%s: the files of %s changed since the study began (fingerprint %s, was %s): tune against the new bot in a new study", what, k, e.Fingerprint, orNone(bots[k]))
		}
		out = append(out, e)
	}
	return out, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// specGame is the game of a study definition: by its source when it was
// made from a referee program (whose files must not have changed), else by
// its name.
func specGame(reg *contract.Registry, spec Spec) (contract.Game, error) {
	if spec.Source == "" {
		return reg.Game(spec.Game)
	}
	g, err := reg.Game(spec.Source)
	if err != nil {
		return nil, fmt.Errorf("game %s of the study: %w", spec.Game, err)
	}
	src, ok := g.(contract.Sourcer)
	if !ok {
		return nil, fmt.Errorf("game %q of the study is no longer made from a referee program", spec.Source)
	}
	if _, fp := src.Source(); fp != spec.Referee {
		return nil, fmt.Errorf("game %s: the referee's files changed since the study began (fingerprint %s, was %s): tune with the new referee in a new study", spec.Game, fp, orNone(spec.Referee))
	}
	return g, nil
}

// FromSpec rebuilds a tuner from a stored study definition.
func FromSpec(reg *contract.Registry, spec Spec) (*Tuner, error) {
	g, err := specGame(reg, spec)
	if err != nil {
		return nil, err
	}
	var fixed []string
	for _, k := range slices.Sorted(maps.Keys(spec.Fixed)) {
		fixed = append(fixed, k+"="+spec.Fixed[k])
	}
	ent, err := entrant.Parse(reg, spec.Game, spec.Strategy, fixed...)
	if err != nil {
		return nil, err
	}
	if spec.External() && ent.Fingerprint != spec.Bot {
		return nil, fmt.Errorf("the files of %s changed since the study began (fingerprint %s, was %s): tune the new bot in a new study", spec.Strategy, ent.Fingerprint, spec.Bot)
	}
	base, err := ent.Specs().FromMap(spec.Base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Strategy, err)
	}
	space, err := NewSpace(ent.Specs(), SpaceItems(spec.Space, spec.Ranges), base)
	if err != nil {
		return nil, err
	}
	if ent, err = ent.With(space.Base); err != nil {
		return nil, err
	}
	t := &Tuner{reg: reg, spec: spec, game: g, base: ent, space: space}
	seen := map[string]bool{}
	for _, k := range spec.Opponents {
		if seen[k] {
			return nil, fmt.Errorf("opponents: %s listed twice", k)
		}
		seen[k] = true
	}
	if t.opps, err = keyEntrants(reg, spec.Game, "opponents", spec.Opponents, spec.OpponentBots); err != nil {
		return nil, err
	}
	if t.fills, err = keyEntrants(reg, spec.Game, "fillers", spec.Fillers, spec.OpponentBots); err != nil {
		return nil, err
	}
	if err := t.buildUnits(); err != nil {
		return nil, err
	}
	if len(t.units) == 0 {
		return nil, fmt.Errorf("case set %q of %s has no cases", spec.Cases, spec.Game)
	}
	return t, nil
}

// buildUnits lays out the games: runner.EvalPlan for single-player play,
// runner.ABPlan per opponent (pairs with the seats swapped) otherwise.
// Units are in case order, opponents interleaved, so that every chunk of
// cases meets every opponent.
func (t *Tuner) buildUnits() error {
	base := t.base
	if len(t.opps) == 0 {
		p, err := runner.EvalPlan(t.game, t.spec.Cases, base, nil, "")
		if err != nil {
			return err
		}
		for _, m := range p.Matches {
			t.units = append(t.units, unit{UnitInfo: UnitInfo{Key: m.Case.ID, Case: m.Case.ID, Group: m.Case.Group},
				matches: []runner.Match{m}, candSeat: []int{0}, oppSeat: []int{-1}})
		}
		return nil
	}
	info := t.game.Info()
	var perOpp [][]unit
	for k, opp := range t.opps {
		fillers := t.fills
		if len(fillers) == 0 {
			for i := 2; i < info.MinSeats; i++ {
				fillers = append(fillers, opp)
			}
		}
		p, err := runner.ABPlan(t.game, t.spec.Cases, base, opp, fillers, 0, "", nil)
		if err != nil {
			return err
		}
		label := opp.Label()
		var us []unit
		for i := 0; i+1 < len(p.Matches); i += 2 {
			c := p.Matches[i].Case
			u := unit{UnitInfo: UnitInfo{Key: label + "|" + c.ID, Case: c.ID, Group: c.Group, Opponent: label}}
			for _, m := range p.Matches[i : i+2] {
				mm := runner.Match{Key: label + "|" + m.Key, Case: m.Case, Seats: make([]int, len(m.Seats))}
				for s, e := range m.Seats {
					switch {
					case e == 0:
						mm.Seats[s] = 0
					case e == 1 || len(t.fills) == 0:
						mm.Seats[s] = 1 + k // the opponent, and the seats it fills
					default:
						mm.Seats[s] = 1 + len(t.opps) + e - 2 // a filler
					}
				}
				u.matches = append(u.matches, mm)
				u.candSeat = append(u.candSeat, runner.SeatOf(&m, 0))
				u.oppSeat = append(u.oppSeat, runner.SeatOf(&m, 1))
			}
			us = append(us, u)
		}
		perOpp = append(perOpp, us)
	}
	for i := range perOpp[0] {
		for k := range perOpp {
			t.units = append(t.units, perOpp[k][i])
		}
	}
	return nil
}

// Spec returns the resolved study definition.
func (t *Tuner) Spec() Spec { return t.spec }

// Space returns the search space.
func (t *Tuner) Space() *Space { return t.space }

// Game returns the game.
func (t *Tuner) Game() contract.Game { return t.game }

// Units lists the scored units in play order.
func (t *Tuner) Units() []UnitInfo {
	out := make([]UnitInfo, len(t.units))
	for i, u := range t.units {
		out[i] = u.UnitInfo
	}
	return out
}

// Seats is the largest number of players in one of the study's games.
func (t *Tuner) Seats() int {
	n := 1
	for _, u := range t.units {
		for i := range u.matches {
			n = max(n, len(u.matches[i].Seats))
		}
	}
	return n
}

// External reports whether an external bot plays in the study's games:
// the tuned entrant, an opponent or a filler.
func (t *Tuner) External() bool {
	if t.base.IsExternal() {
		return true
	}
	for _, e := range append(append([]*entrant.Entrant(nil), t.opps...), t.fills...) {
		if e.IsExternal() {
			return true
		}
	}
	return false
}

// Objective describes what the study optimises (Spec.Objective).
func (t *Tuner) Objective() string { return t.spec.Objective() }

// entrant is the tuned entrant with the given values.
func (t *Tuner) entrant(v param.Values) (*entrant.Entrant, error) { return t.base.With(v) }

// Play plays units [from, to) with the strategy at values v and returns the
// units' scores. Games run in parallel (jobs); results do not depend on jobs.
func (t *Tuner) Play(ctx context.Context, v param.Values, from, to, jobs int, opt contract.PlayOptions) ([]float64, error) {
	return t.play(ctx, v, from, to, jobs, opt, nil)
}

// play is Play that also counts the games' conduct (the tuned entrant's
// forfeits and answer times, the seats eliminated) into tally when it is
// not nil.
func (t *Tuner) play(ctx context.Context, v param.Values, from, to, jobs int, opt contract.PlayOptions, tally *trialTally) ([]float64, error) {
	if from < 0 || to > len(t.units) || from > to {
		return nil, fmt.Errorf("units [%d, %d) out of range (%d units)", from, to, len(t.units))
	}
	idx := make([]int, 0, to-from)
	for u := from; u < to; u++ {
		idx = append(idx, u)
	}
	got, err := t.playUnits(ctx, v, idx, jobs, opt, tally)
	if err != nil {
		return nil, err
	}
	out := make([]float64, 0, to-from)
	for _, u := range idx {
		out = append(out, got[u])
	}
	return out, nil
}

// playUnits plays the units idx (indexes into the study's units, in play
// order) with the strategy at values v and returns the score of every unit
// whose games all finished, by unit index: all of them, or, with an error
// (an interruption), those that finished before it.
func (t *Tuner) playUnits(ctx context.Context, v param.Values, idx []int, jobs int, opt contract.PlayOptions, tally *trialTally) (map[int]float64, error) {
	got := make(map[int]float64, len(idx))
	if len(idx) == 0 {
		return got, nil
	}
	cand, err := t.entrant(v)
	if err != nil {
		return got, err
	}
	ents := append([]*entrant.Entrant{cand}, t.opps...)
	p := &runner.Plan{Game: t.game, Entrants: append(ents, t.fills...)}
	for _, u := range idx {
		if u < 0 || u >= len(t.units) {
			return got, fmt.Errorf("unit %d out of range (%d units)", u, len(t.units))
		}
		p.Matches = append(p.Matches, t.units[u].matches...)
	}
	rn := &runner.Runner{Jobs: jobs, Options: opt, Worker: "tune"}
	rs, runErr := rn.Run(ctx, p, nil)
	if rs == nil {
		return got, runErr
	}
	info := t.game.Info()
	i := 0
	for _, ui := range idx {
		u := &t.units[ui]
		var sum float64
		complete := true
		for j := range u.matches {
			r := rs.Results[i]
			i++
			if r == nil {
				complete = false
				continue
			}
			if tally != nil {
				tally.add(u.Case, &r.Outcome, u.candSeat[j])
			}
			seats := r.Outcome.Seats
			if u.oppSeat[j] < 0 {
				sum += seats[u.candSeat[j]].Score
				continue
			}
			a, b := seats[u.candSeat[j]].Score, seats[u.oppSeat[j]].Score
			switch {
			case info.Better(a, b):
				sum++
			case !info.Better(b, a):
				sum += 0.5
			}
		}
		if !complete {
			if runErr == nil {
				return got, fmt.Errorf("case %s was not played", u.Key)
			}
			continue
		}
		x := sum / float64(len(u.matches))
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return got, fmt.Errorf("case %s: score %v is not a finite number", u.Key, x)
		}
		got[ui] = x
	}
	return got, runErr
}

// trialTally counts what a trial's games say beyond their scores: the tuned
// entrant's conduct (forfeits, answer times, eliminations) and, in a game
// with eliminations (contract.Eliminator), how often the other seats were
// out: a stand-in opponent that dies far more often than the bot it stands
// for shows it in every trial.
type trialTally struct {
	cand   results.ConductTally
	others int
}

// newTrialTally returns the tally of a trial of game, or nil when there is
// nothing to count beyond the scores (a built-in strategy in a game
// without eliminations).
func newTrialTally(game contract.Game, external bool) *trialTally {
	if !contract.Eliminates(game) && !external {
		return nil
	}
	return &trialTally{cand: results.ConductTally{Game: game}}
}

// add counts the game of case caseID in which the tuned entrant played
// seat cand.
func (t *trialTally) add(caseID string, o *contract.Outcome, cand int) {
	t.cand.Add(caseID, o, cand)
	for s := range o.Seats {
		if s != cand && contract.EliminatedOf(t.cand.Game, o, s) != "" {
			t.others++
		}
	}
}

// GameArg is the --game value of a study's game: its source when it was
// made from a referee program, else its name.
func GameArg(name, source string) string {
	if source != "" {
		return source
	}
	return name
}
