package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/store"
)

// RunSpec is everything that defines a run; its canonical JSON identifies
// the run in the store, so re-running the same command resumes it.
type RunSpec struct {
	Kind     string         `json:"kind"`
	Game     string         `json:"game"`
	Cases    string         `json:"cases"`
	Entrants []string       `json:"entrants"` // entrant keys, in entrant order
	Extra    map[string]any `json:"extra,omitempty"`
	// Bots fingerprints the files of the external entrants ("index:hash",
	// see Entrant.Fingerprint) and Limits is the time limits and caps they
	// play under (PlayOptions.LimitKey): a rebuilt bot or other limits make
	// another run. Both are empty for built-in strategies.
	Bots   []string `json:"bots,omitempty"`
	Limits string   `json:"limits,omitempty"`
	// Source and Referee are a game made from a referee program (see
	// Sourcer): what resolves to it again, and its files' fingerprint.
	Source  string `json:"source,omitempty"`
	Referee string `json:"referee,omitempty"`
}

// base is the spec without what only an external bot's games depend on.
func (spec RunSpec) base() RunSpec {
	spec.Bots, spec.Limits, spec.Referee = nil, "", ""
	return spec
}

// changes says what differs between two specs of the same base: the bots'
// files or the limits.
func (spec RunSpec) changes(old RunSpec, labels []string) []string {
	var out []string
	was := map[string]string{}
	for _, b := range old.Bots {
		i, h, _ := strings.Cut(b, ":")
		was[i] = h
	}
	for _, b := range spec.Bots {
		i, h, _ := strings.Cut(b, ":")
		if was[i] != "" && was[i] != h {
			label := "entrant " + i
			if k, err := strconv.Atoi(i); err == nil && k < len(labels) {
				label = labels[k]
			}
			out = append(out, fmt.Sprintf("the files of %s changed (fingerprint %s, was %s)", label, h, was[i]))
		}
	}
	if spec.Referee != old.Referee {
		out = append(out, fmt.Sprintf("the referee's files changed (fingerprint %s, was %s)", spec.Referee, orNone(old.Referee)))
	}
	if spec.Limits != old.Limits {
		out = append(out, fmt.Sprintf("limits %s (were %s)", orNone(spec.Limits), orNone(old.Limits)))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none given"
	}
	return s
}

// Record returns the run record for spec: the given name, or an ID derived
// from a hash of the spec ("eval-brew-1a2b3c4d5e6f"). A spec that does not
// encode (a value JSON cannot hold in Extra) is an error: its run could not
// be told from another.
func (spec RunSpec) Record(name string, entrants []*entrant.Entrant) (store.RunRecord, error) {
	spec = spec.withBots(entrants)
	js, err := json.Marshal(spec)
	if err != nil {
		return store.RunRecord{}, fmt.Errorf("run spec: %w", err)
	}
	id := name
	if id == "" {
		sum := sha256.Sum256(js)
		id = fmt.Sprintf("%s-%s-%s", spec.Kind, spec.Game, hex.EncodeToString(sum[:6]))
	}
	rec := store.RunRecord{ID: id, Kind: spec.Kind, Game: spec.Game, CaseSet: spec.Cases, Spec: string(js), Version: entrant.Version}
	for _, e := range entrants {
		rec.Entrants = append(rec.Entrants, e.Record())
	}
	return rec, nil
}

// withBots is spec with the fingerprints of the external entrants' files.
func (spec RunSpec) withBots(entrants []*entrant.Entrant) RunSpec {
	spec.Bots = nil
	for i, e := range entrants {
		if e.IsExternal() {
			spec.Bots = append(spec.Bots, fmt.Sprintf("%d:%s", i, e.Fingerprint))
		}
	}
	return spec
}

// identify gives the plan its run: the record of spec under name (see
// RunSpec.Record).
func (p *Plan) identify(spec RunSpec, name string) error {
	rec, err := spec.Record(name, p.Entrants)
	if err != nil {
		return err
	}
	p.Run, p.spec, p.name = rec, spec.withBots(p.Entrants), name
	return nil
}

// Spec returns the spec that identifies the plan's run.
func (p *Plan) Spec() RunSpec { return p.spec }

// KeyIndex maps each match's key to its index in the plan; a key found
// twice is an error.
func (p *Plan) KeyIndex() (map[string]int, error) {
	index := make(map[string]int, len(p.Matches))
	for i := range p.Matches {
		key := p.Matches[i].Key
		if _, dup := index[key]; dup {
			return nil, fmt.Errorf("plan has two matches with key %q", key)
		}
		index[key] = i
	}
	return index, nil
}

func keys(es []*entrant.Entrant) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Key()
	}
	return out
}

// CasesOf expands case set of g (Game.Cases), refusing a set that names a
// case twice ("seed:1,1"): its games would share their key in a run.
func CasesOf(g contract.Game, set string) ([]contract.Case, error) {
	cases, err := g.Cases(set)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]struct{}, len(cases))
	for _, c := range cases {
		if _, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("--cases %s: case %s is named twice; give each case once", set, c.ID)
		}
		seen[c.ID] = struct{}{}
	}
	return cases, nil
}

// checkSeats verifies a lineup size against the game.
func checkSeats(g contract.Game, n int) error {
	info := g.Info()
	if n < info.MinSeats || n > info.MaxSeats {
		if info.MinSeats == info.MaxSeats {
			return fmt.Errorf("game %s takes %d player(s), got %d", info.Name, info.MinSeats, n)
		}
		return fmt.Errorf("game %s takes %d to %d players, got %d", info.Name, info.MinSeats, info.MaxSeats, n)
	}
	return nil
}

// EvalPlan plays e in seat 0 against the opponents (if any) on every case
// of the set.
func EvalPlan(g contract.Game, caseSet string, e *entrant.Entrant, opponents []*entrant.Entrant, runName string) (*Plan, error) {
	cases, err := CasesOf(g, caseSet)
	if err != nil {
		return nil, err
	}
	ents := append([]*entrant.Entrant{e}, opponents...)
	if err := checkSeats(g, len(ents)); err != nil {
		return nil, err
	}
	seats := make([]int, len(ents))
	for i := range seats {
		seats[i] = i
	}
	p := &Plan{Game: g, Entrants: ents, Matches: make([]Match, len(cases))}
	for i, c := range cases {
		p.Matches[i] = Match{Key: c.ID, Case: c, Seats: seats}
	}
	spec := RunSpec{Kind: "eval", Game: g.Info().Name, Cases: caseSet, Entrants: keys(ents)}.withSource(g)
	if err := p.identify(spec, runName); err != nil {
		return nil, err
	}
	return p, nil
}

// ABPlan compares a and b. In games of two or more seats every case is
// played twice with the seats swapped ("<case>/ab" then "<case>/ba"; other
// seats, if any, hold the fillers); in single-player games each entrant plays
// every case ("<case>/a", "<case>/b"). maxGames > 0 keeps the first cases
// only, so that at most maxGames games are played.
func ABPlan(g contract.Game, caseSet string, a, b *entrant.Entrant, fillers []*entrant.Entrant, maxGames int, runName string, extra map[string]any) (*Plan, error) {
	cases, err := CasesOf(g, caseSet)
	if err != nil {
		return nil, err
	}
	info := g.Info()
	single := info.MaxSeats == 1
	seatsN := 1
	if !single {
		seatsN = 2 + len(fillers)
		if err := checkSeats(g, seatsN); err != nil {
			return nil, err
		}
	}
	if maxGames > 0 {
		if n := maxGames / 2; n < len(cases) {
			if n == 0 {
				return nil, fmt.Errorf("--games %d: need at least 2 games (one pair)", maxGames)
			}
			cases = cases[:n]
		}
	}
	ents := append([]*entrant.Entrant{a, b}, fillers...)
	p := &Plan{Game: g, Entrants: ents, Matches: make([]Match, 0, 2*len(cases))}
	// Every match of a kind shares its seats (nothing writes them).
	ab, ba := []int{0, 1}, []int{1, 0}
	for i := range fillers {
		ab = append(ab, 2+i)
		ba = append(ba, 2+i)
	}
	for _, c := range cases {
		if single {
			p.Matches = append(p.Matches,
				Match{Key: c.ID + "/a", Case: c, Seats: ab[:1]},
				Match{Key: c.ID + "/b", Case: c, Seats: ab[1:2]})
			continue
		}
		p.Matches = append(p.Matches,
			Match{Key: c.ID + "/ab", Case: c, Seats: ab},
			Match{Key: c.ID + "/ba", Case: c, Seats: ba})
	}
	spec := RunSpec{Kind: "ab", Game: info.Name, Cases: caseSet, Entrants: keys(ents), Extra: extra}.withSource(g)
	if maxGames > 0 {
		if spec.Extra == nil {
			spec.Extra = map[string]any{}
		}
		spec.Extra["games"] = len(p.Matches)
	}
	if err := p.identify(spec, runName); err != nil {
		return nil, err
	}
	return p, nil
}

// SeatOf returns the seat of entrant index e in match m, or -1.
func SeatOf(m *Match, e int) int {
	for s, x := range m.Seats {
		if x == e {
			return s
		}
	}
	return -1
}

// limitRun puts the time limits and caps external entrants play under into
// the run's identity (a run at --turn-time 60ms is not the run at 1ms, nor
// one with --bot-memory 1G); runs of
// built-in strategies are left as they are.
func (p *Plan) limitRun(opt contract.PlayOptions) error {
	external := false
	for _, e := range p.Entrants {
		external = external || e.IsExternal()
	}
	if !external || p.Run.Spec == "" {
		return nil
	}
	spec := p.spec
	spec.Limits = opt.LimitKey(p.Game.Info().Limits)
	if spec.Limits == p.spec.Limits {
		return nil
	}
	return p.identify(spec, p.name)
}

// withSource adds g's source and fingerprint to a run's spec.
func (spec RunSpec) withSource(g contract.Game) RunSpec {
	if s, ok := g.(contract.Sourcer); ok {
		spec.Source, spec.Referee = s.Source()
	}
	return spec
}

// Match is one game of a plan: a case and the entrant in each seat.
type Match struct {
	Key   string // unique within the run, e.g. "seed:17" or "seed:17/ba"
	Case  contract.Case
	Seats []int // index into Plan.Entrants for each seat
}

// Plan is everything a run plays.
type Plan struct {
	Run      store.RunRecord // identity of the run (used with a store)
	Game     contract.Game
	Entrants []*entrant.Entrant
	Matches  []Match

	spec RunSpec // the decoded Run.Spec (see identify)
	name string  // the run name it was given ("" for a derived ID)
}
