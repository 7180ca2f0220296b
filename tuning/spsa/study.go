package spsa

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
)

// Config is what a user asks for; New resolves it into a Study.
type Config struct {
	Game   string
	Target Target
	// Start are the start values (k=v assignments as --param takes them,
	// applied on top of the declared defaults).
	Start []string
	// Space lists the tuned parameters; empty or ["all"]: every numeric one.
	Space []string
	// Games is the budget: Games/2 iterations of one game pair each.
	Games int
	// Cases is the case set; iteration k plays case (k−1) mod n. Empty:
	// "seeds:<iterations>", one case per iteration.
	Cases string
	// Seats is the number of seats per game (0: two, or the game's minimum
	// when larger); seats beyond the pair hold the start values.
	Seats int
	Seed  uint64
	// Settings override c_end and r_end per parameter (or AllParams).
	Settings map[string]Setting
	// ARatio, Alpha, Gamma override fishtest's constants (0: default).
	ARatio, Alpha, Gamma float64
}

// Spec is the resolved definition of a study, stored with it: a study name
// reused with another Spec is refused, and the same command resumes the same
// study.
type Spec struct {
	Game   string         `json:"game"`
	Target string         `json:"target"`
	Name   string         `json:"target_name"`
	Cases  string         `json:"cases"`
	Seats  int            `json:"seats"`
	Games  int            `json:"games"`
	Seed   uint64         `json:"seed"`
	ARatio float64        `json:"a_ratio"`
	Alpha  float64        `json:"alpha"`
	Gamma  float64        `json:"gamma"`
	Params []Param        `json:"params"`
	Start  map[string]any `json:"start"` // every parameter's start value
	// Source and Referee are a game made from a referee program (see
	// contract.Sourcer): the --game value that resolves to it again and
	// its files' fingerprint, so that a changed referee or game file makes
	// another study.
	Source  string `json:"source,omitempty"`
	Referee string `json:"referee,omitempty"`
}

// Iterations is the number of game pairs of the study.
func (s Spec) Iterations() int { return s.Games / 2 }

// DefaultName is the study name used when none is given:
// "spsa-<game>-<target>-<hash of the spec>".
func (s Spec) DefaultName() string {
	// Marshal cannot fail: the spec holds strings, ints and numbers its
	// settings were checked to be finite (NewSchedule, the space).
	js, _ := json.Marshal(s)
	sum := sha256.Sum256(js)
	return fmt.Sprintf("spsa-%s-%s-%s", s.Game, s.Name, hex.EncodeToString(sum[:5]))
}

// Schedule returns the study's gain schedule.
func (s Spec) Schedule() (Schedule, error) {
	return NewSchedule(s.Iterations(), s.ARatio, s.Alpha, s.Gamma)
}

// Study is a resolved study definition bound to its game and target.
type Study struct {
	spec   Spec
	game   contract.Game
	target Target
	space  *Space
	cases  []contract.Case
	sched  Schedule
	gains  []Gains
	filler *entrant.Entrant // the start values, in seats beyond the pair
}

// New checks a user's request and resolves it. Every error names the input
// that is wrong.
func New(reg *contract.Registry, c Config) (*Study, error) {
	g, err := reg.Game(c.Game)
	if err != nil {
		return nil, err
	}
	info := g.Info()
	if info.MaxSeats < 2 {
		return nil, fmt.Errorf("game %s is single-player: SPSA plays the perturbed pair against each other and needs a game of two or more seats", info.Name)
	}
	if c.Target == nil {
		return nil, fmt.Errorf("no strategy to tune")
	}
	if c.Games < 2 || c.Games%2 != 0 {
		return nil, fmt.Errorf("--games %d: want an even number of at least 2 (each iteration is a pair of games)", c.Games)
	}
	seats := c.Seats
	if seats == 0 {
		seats = max(2, info.MinSeats)
	}
	if seats < 2 || seats < info.MinSeats || seats > info.MaxSeats {
		return nil, fmt.Errorf("--seats %d: game %s takes %d to %d players, and SPSA needs at least 2", seats, info.Name, info.MinSeats, info.MaxSeats)
	}
	specs := c.Target.Specs()
	start, err := specs.Parse(c.Start...)
	if err != nil {
		return nil, fmt.Errorf("strategy %s: %w", c.Target.Name(), err)
	}
	space, err := NewSpace(specs, c.Space, start, c.Settings)
	if err != nil {
		return nil, err
	}
	cases := c.Cases
	if cases == "" {
		cases = "seeds:" + strconv.Itoa(c.Games/2)
	}
	spec := Spec{Game: info.Name, Target: c.Target.Key(), Name: c.Target.Name(), Cases: cases, Seats: seats, Games: c.Games,
		Seed: c.Seed, ARatio: c.ARatio, Alpha: c.Alpha, Gamma: c.Gamma, Params: space.Params, Start: specs.Map(space.Start)}
	if src, ok := g.(contract.Sourcer); ok {
		spec.Source, spec.Referee = src.Source()
	}
	if spec.ARatio == 0 {
		spec.ARatio = DefaultARatio
	}
	if spec.Alpha == 0 {
		spec.Alpha = DefaultAlpha
	}
	if spec.Gamma == 0 {
		spec.Gamma = DefaultGamma
	}
	sched, err := spec.Schedule()
	if err != nil {
		return nil, err
	}
	cs, err := runner.CasesOf(g, cases)
	if err != nil {
		if c.Cases == "" {
			return nil, fmt.Errorf("--cases: the default %q is not a case set of %s (%v): give --cases", cases, info.Name, err)
		}
		return nil, err
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("case set %q of %s has no cases", cases, info.Name)
	}
	filler, err := c.Target.Entrant(space.Start)
	if err != nil {
		return nil, err
	}
	s := &Study{spec: spec, game: g, target: c.Target, space: space, cases: cs, sched: sched, filler: filler}
	for _, p := range space.Params {
		s.gains = append(s.gains, sched.Gains(p.CEnd, p.REnd))
	}
	return s, nil
}

// Spec returns the resolved study definition.
func (s *Study) Spec() Spec { return s.spec }

// Space returns the tuned space.
func (s *Study) Space() *Space { return s.space }

// Schedule returns the gain schedule.
func (s *Study) Schedule() Schedule { return s.sched }

// Gains returns each tuned parameter's c and a, in Space().Params order.
func (s *Study) Gains() []Gains { return s.gains }

// pairResult is one played iteration.
type pairResult struct {
	iter              int
	caseID            string
	flips             []float64
	wins, draws, loss int
	update            []float64 // the move of each coordinate
}

func (s *Study) ck(k int) []float64 {
	ck := make([]float64, len(s.gains))
	for i, g := range s.gains {
		ck[i] = s.sched.C(g, k)
	}
	return ck
}

// playPair plays iteration k from θ: θ+ and θ− on the iteration's case,
// seats swapped between the two games (in parallel when parallel is set),
// and returns the pair's result and θ's move.
func (s *Study) playPair(ctx context.Context, k int, theta []float64, parallel bool, opt contract.PlayOptions) (pairResult, error) {
	d := s.space.drawFor(s.spec.Seed, k)
	ck := s.ck(k)
	plus, err := s.target.Entrant(s.space.perturbed(theta, ck, d, 1))
	if err != nil {
		return pairResult{}, err
	}
	minus, err := s.target.Entrant(s.space.perturbed(theta, ck, d, -1))
	if err != nil {
		return pairResult{}, err
	}
	c := s.cases[(k-1)%len(s.cases)]
	plan := &runner.Plan{Game: s.game, Entrants: []*entrant.Entrant{plus, minus, s.filler}}
	var ms [2]runner.Match
	for g := range ms {
		seats := make([]int, s.spec.Seats)
		for i := range seats {
			seats[i] = 2
		}
		seats[0], seats[1] = g, 1-g // game 0: θ+ in seat 0; game 1: swapped
		ms[g] = runner.Match{Key: c.ID, Case: c, Seats: seats}
	}
	var outs [2]contract.Outcome
	var errs [2]error
	if parallel {
		var wg sync.WaitGroup
		wg.Go(func() { outs[1], _, errs[1] = runner.PlayMatch(ctx, plan, &ms[1], opt) })
		outs[0], _, errs[0] = runner.PlayMatch(ctx, plan, &ms[0], opt)
		wg.Wait()
	} else {
		for g := range ms {
			if outs[g], _, errs[g] = runner.PlayMatch(ctx, plan, &ms[g], opt); errs[g] != nil {
				break
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			return pairResult{}, err
		}
	}
	r := pairResult{iter: k, caseID: c.ID, flips: d.flips, update: make([]float64, len(theta))}
	for g := range ms {
		a, b := outs[g].Seats[runner.SeatOf(&ms[g], 0)].Score, outs[g].Seats[runner.SeatOf(&ms[g], 1)].Score
		switch {
		case a > b:
			r.wins++
		case a < b:
			r.loss++
		default:
			r.draws++
		}
	}
	for i, gn := range s.gains {
		r.update[i] = s.sched.Update(gn, k, r.wins-r.loss, d.flips[i])
	}
	return r, nil
}

// apply moves θ by an iteration's update, clamped to the ranges; the
// storage applies the same operation to the stored θ, so a worker's copy
// and the stored θ agree to the last bit when nobody else moved it.
func (s *Study) apply(theta, update []float64) {
	for i := range theta {
		theta[i] = s.space.clamp(i, theta[i]+update[i])
	}
}

// describe formats θ as "name=value,..." in the parameters' units.
func describe(params []Param, theta []float64) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p.Name + "=" + strconv.FormatFloat(p.Value(theta[i]), 'g', 5, 64)
	}
	return strings.Join(parts, ",")
}
