package games

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
)

// TestRegisteredAbilities loops over every registered game and every
// optional ability it declares, and checks the contract of each.
func TestRegisteredAbilities(t *testing.T) {
	reg := contract.Default
	games := reg.Games()
	for gi, g := range games {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			abilities := contract.Abilities(g)
			t.Logf("%s: %s", info.Name, strings.Join(abilities, ", "))
			smoke, err := g.Cases("smoke")
			if err != nil || len(smoke) == 0 {
				t.Fatalf("smoke: %v", err)
			}
			// The typed adapter refuses another game's case with an
			// error naming the game, never a panic.
			other := games[(gi+1)%len(games)]
			if oc, err := other.Cases("smoke"); err == nil && other != g {
				ents := make([]contract.Player, info.MinSeats)
				for i := range ents {
					pl, err := mustEntrant(t, info.Name).Player(0, "default")
					if err != nil {
						t.Fatal(err)
					}
					ents[i] = pl
				}
				if _, err := g.Play(context.Background(), oc[0], ents, contract.PlayOptions{}); err == nil || !strings.Contains(err.Error(), info.Name) {
					t.Errorf("playing a case of %s: %v; want an error naming %s", other.Info().Name, err, info.Name)
				}
			}
			if r, ok := g.(contract.Replayer); ok {
				checkFlags(t, "replay", func(args []string) error {
					return r.Replay(context.Background(), quietIO(""), args)
				})
			}
			if r, ok := g.(contract.ReplayReferencer); ok {
				ref := r.ReplayReference()
				files, err := filepath.Glob(filepath.Join("..", ref.Files))
				if err != nil || len(files) == 0 {
					t.Errorf("replay reference %s: no file (%v)", ref.Files, err)
				}
			}
			if b, ok := g.(contract.BotServer); ok {
				if err := b.ServeBot(context.Background(), quietIO(""), struct{}{}); err == nil || !strings.Contains(err.Error(), info.Name) {
					t.Errorf("serving a bot of another type: %v; want an error naming %s", err, info.Name)
				}
				for _, s := range reg.Strategies(info.Name) {
					bot, err := s.New(s.Params.Defaults(), 1)
					if err != nil {
						t.Fatal(err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					err = b.ServeBot(ctx, quietIO(""), bot) // no input: the referee went away
					timedOut := ctx.Err() != nil
					cancel()
					if timedOut {
						t.Errorf("bot %s on empty input: still serving after 10s", s.Name)
					}
					t.Logf("bot %s on empty input: %v", s.Name, err)
				}
			}
			for _, tool := range contract.ToolsOf(g) {
				if tool.Summary == "" {
					t.Errorf("tool %s has no summary", tool.Name)
				}
				checkFlags(t, "tool "+tool.Name, func(args []string) error {
					return tool.Run(context.Background(), quietIO(""), args)
				})
				if _, err := contract.FindTool(g, tool.Name); err != nil {
					t.Error(err)
				}
			}
			if _, err := contract.FindTool(g, "no-such-tool"); !cli.IsUsage(err) {
				t.Errorf("FindTool of an unknown verb: %v; want a usage error", err)
			}
			if d, ok := g.(contract.CaseDefaulter); ok {
				for _, cmd := range []string{"eval", "ab", "tune"} {
					if set := d.DefaultCases(cmd); set != "" {
						if cs, err := g.Cases(set); err != nil || len(cs) == 0 {
							t.Errorf("default case set of %s, %q: %v", cmd, set, err)
						}
					}
				}
			}
			if o, ok := g.(contract.OptimumFinder); ok {
				for _, c := range smoke {
					v, ok, err := o.Optimum(context.Background(), c)
					if err != nil || (ok && (math.IsNaN(v) || math.IsInf(v, 0))) {
						t.Errorf("optimum of %s: %v %v %v", c.ID, v, ok, err)
					}
				}
			}
			if c, ok := g.(contract.Coster); ok {
				for _, cs := range smoke {
					if x := c.Cost(cs); !(x >= 0) || math.IsInf(x, 0) {
						t.Errorf("cost of %s: %v", cs.ID, x)
					}
				}
			}
			if a, ok := g.(contract.Aggregator); ok && smoke[0].Group != "" {
				if x := a.Aggregate(smoke[0].Group, map[string]float64{smoke[0].ID: 7}); math.IsNaN(x) {
					t.Errorf("aggregate of group %s: NaN", smoke[0].Group)
				}
			}
			if e, ok := g.(contract.Eliminator); ok {
				// An outcome without the game's detail, or a seat it
				// does not have, is no elimination (and no panic).
				for _, seat := range []int{-1, 0, info.MaxSeats} {
					if got := e.Eliminated(&contract.Outcome{}, seat); got != "" {
						t.Errorf("eliminated from an empty outcome, seat %d: %q", seat, got)
					}
				}
			}
			if d, ok := g.(contract.DetailColumner); ok {
				cols := d.DetailColumns()
				if len(cols) == 0 {
					t.Error("no detail columns")
				}
				strats := reg.Strategies(info.Name)
				plan, err := runner.EvalPlan(g, smoke[0].ID, mustEntrant(t, info.Name, strats[0].Name), nil, "")
				if err != nil {
					t.Fatal(err)
				}
				out, _, err := runner.PlayMatch(context.Background(), plan, &plan.Matches[0], contract.PlayOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range cols {
					if _, ok := out.Detail[k]; !ok {
						t.Errorf("detail column %q is not in the outcome's detail %v", k, out.Detail)
					}
				}
			}
		})
	}
}

// checkFlags: -h gives flag.ErrHelp and an unknown flag a usage error.
func checkFlags(t *testing.T, what string, run func(args []string) error) {
	t.Helper()
	if err := run([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("%s -h: %v; want flag.ErrHelp", what, err)
	}
	if err := run([]string{"--no-such-flag"}); !cli.IsUsage(err) {
		t.Errorf("%s --no-such-flag: %v; want a usage error", what, err)
	}
}

func quietIO(stdin string) cli.IO {
	var sink bytes.Buffer
	return cli.IO{Stdin: strings.NewReader(stdin), Stdout: &sink, Stderr: &sink}
}

// mustEntrant parses a strategy of game: name, or the game's first one.
func mustEntrant(t testing.TB, game string, name ...string) *entrant.Entrant {
	t.Helper()
	s := contract.Default.Strategies(game)
	if len(s) == 0 {
		t.Fatalf("game %s has no strategy", game)
	}
	spec := s[0].Name
	if len(name) > 0 {
		spec = name[0]
	}
	e, err := entrant.Parse(contract.Default, game, spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// mustGame is the registered game of that name.
func mustGame(t testing.TB, name string) contract.Game {
	t.Helper()
	g, err := contract.Default.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestToolNamesAreChecked: a malformed or duplicate tool, or reference data
// without a replay, is refused when the game registers.
func TestToolNamesAreChecked(t *testing.T) {
	for _, g := range []contract.Game{
		toolGame{tools: []contract.Tool{{Name: "Bad Name", Run: noRun}}},
		toolGame{tools: []contract.Tool{{Name: "x", Run: noRun}, {Name: "x", Run: noRun}}},
		toolGame{tools: []contract.Tool{{Name: "x"}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("tools %v registered without a panic", g.(toolGame).tools)
				}
			}()
			contract.NewRegistry().RegisterGame(g)
		}()
	}
	contract.NewRegistry().RegisterGame(toolGame{tools: []contract.Tool{{Name: "solve-2", Run: noRun}}})
	if !slices.Equal(contract.Abilities(toolGame{}), []string{contract.AbilityTools}) {
		t.Errorf("abilities of a game with tools only: %v", contract.Abilities(toolGame{}))
	}
}

type toolGame struct{ tools []contract.Tool }

func (toolGame) Info() contract.GameInfo {
	return contract.GameInfo{Name: "tooly", MinSeats: 1, MaxSeats: 1, Direction: contract.Higher}
}
func (toolGame) Cases(string) ([]contract.Case, error) { return nil, errors.New("none") }
func (toolGame) Play(context.Context, contract.Case, []contract.Player, contract.PlayOptions) (contract.Outcome, error) {
	return contract.Outcome{}, errors.New("none")
}
func (g toolGame) Tools() []contract.Tool { return g.tools }

func noRun(context.Context, cli.IO, []string) error { return nil }

// TestClockParamsAreMarked: every built-in parameter in milliseconds is a
// wall-clock budget and says so (param.Spec.Clock), so that tuning knows a
// study using it does not repeat its games exactly.
func TestClockParamsAreMarked(t *testing.T) {
	clocks := 0
	for _, g := range contract.Default.Games() {
		for _, s := range contract.Default.Strategies(g.Info().Name) {
			for _, sp := range s.Params {
				if strings.HasSuffix(sp.Name, "_ms") && !sp.Clock {
					t.Errorf("%s %s: parameter %s is in milliseconds but not marked Clock", g.Info().Name, s.Name, sp.Name)
				}
				if sp.Clock {
					clocks++
				}
			}
		}
	}
	if clocks == 0 {
		t.Error("no strategy declares a wall-clock parameter; brewbeam and paperpaths do")
	}
}
