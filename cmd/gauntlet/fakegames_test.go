package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/strategies/param"
)

// The games of this file are registered in this test binary only (which the
// CLI tests re-execute as gauntlet): they prove that a game plugs into
// every command without a line of cmd/ naming it.
//
// pips: every seat rolls its bot's skill plus seeded noise (0..6); the
// highest roll wins. It has the abilities a contest game may have: a native
// protocol (a line "CASESEED SEAT" in, the roll out) with a bot server, so
// that `cmd:gauntlet bot pips skill` plays as an external entrant; a replay
// with reference data (testdata/pips-replay.jsonl); and a tool of its own,
// `gauntlet pips sum`. pipslow is the same game scored as a cost: the
// lowest roll wins.
//
// dent: a single-player game scored as a cost, (x − 3)² plus seeded noise
// (0..1) for the strategy dial with parameter x: lowest at x = 3, where the
// cost is the noise alone, the optimum the game reports.
type pips struct {
	name  string
	lower bool
}

var (
	_ contract.Replayer         = pips{}
	_ contract.ReplayReferencer = pips{}
	_ contract.BotServer        = pips{}
	_ contract.Tooler           = pips{}
	_ contract.OptimumFinder    = dent{}
	_ contract.CaseDefaulter    = dent{}
)

// pipsBot is the bot type of pips.
type pipsBot interface {
	Roll(caseSeed uint64, seat int) float64
}

type skilled struct{ skill float64 }

func (b skilled) Roll(caseSeed uint64, seat int) float64 {
	r := rand.New(rand.NewPCG(caseSeed, uint64(seat)))
	return b.skill + 6*r.Float64()
}

type dent struct{}

type dentBot struct{ x float64 }

// dentNoise is the cost of case seed at its optimum.
func dentNoise(seed uint64) float64 { return rand.New(rand.NewPCG(seed, 99)).Float64() }

func init() {
	for _, g := range []pips{{name: "pips"}, {name: "pipslow", lower: true}} {
		contract.Default.RegisterGame(g)
		contract.Default.RegisterStrategy(&contract.Strategy{Game: g.name, Name: "skill", Doc: "rolls its skill plus noise",
			Params: param.Specs{{Name: "skill", Kind: param.Float, Min: 0, Max: 10, Default: 5, Help: "added to every roll"}},
			New:    func(v param.Values, seed uint64) (any, error) { return skilled{v["skill"]}, nil }})
	}
	contract.Default.RegisterGame(dent{})
	contract.Default.RegisterStrategy(&contract.Strategy{Game: "dent", Name: "dial", Doc: "costs (x-3)^2 plus noise",
		Params: param.Specs{{Name: "x", Kind: param.Float, Min: 0, Max: 10, Default: 8, Help: "best at 3"}},
		New:    func(v param.Values, seed uint64) (any, error) { return dentBot{v["x"]}, nil }})
}

func seedCasesOf(game, set string) ([]contract.Case, error) {
	if set == "smoke" {
		set = "seeds:4"
	}
	if one, ok := strings.CutPrefix(set, "seed:"); ok {
		s, err := strconv.ParseUint(one, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s case %q: want seed:N", game, set)
		}
		return []contract.Case{{ID: set, Seed: s}}, nil
	}
	// seeds:N is seeds 1..N, seeds:A-B seeds A..B.
	lo, hi := "1", strings.TrimPrefix(set, "seeds:")
	if a, b, ok := strings.Cut(hi, "-"); ok {
		lo, hi = a, b
	}
	first, err1 := strconv.Atoi(lo)
	last, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || !strings.HasPrefix(set, "seeds:") || first < 1 || last < first {
		return nil, fmt.Errorf("unknown %s case set %q (known: smoke, seeds:N, seeds:A-B)", game, set)
	}
	out := make([]contract.Case, 0, last-first+1)
	for s := first; s <= last; s++ {
		out = append(out, contract.Case{ID: "seed:" + strconv.Itoa(s), Seed: uint64(s)})
	}
	return out, nil
}

func (g pips) Info() contract.GameInfo {
	return contract.GameInfo{Name: g.name, Title: "toy dice game of the CLI tests", MinSeats: 2, MaxSeats: 2, Opponents: "skill",
		Direction: g.direction(), CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}, {Name: "smoke", Doc: "seeds 1..4"}}}
}

func (g pips) Cases(set string) ([]contract.Case, error) { return seedCasesOf(g.name, set) }

func (g pips) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	out := contract.Outcome{Turns: 1}
	for seat, pl := range players {
		var roll float64
		var forfeit string
		if pl.Bot == nil {
			r, err := externalRoll(ctx, pl, c.Seed, seat)
			if err != nil {
				if ctx.Err() != nil {
					return contract.Outcome{}, ctx.Err()
				}
				forfeit = err.Error()
			}
			roll = r
		} else {
			b, ok := pl.Bot.(pipsBot)
			if !ok {
				return contract.Outcome{}, fmt.Errorf("%s: not a pips bot", g.name)
			}
			roll = b.Roll(c.Seed, seat)
		}
		out.Seats = append(out.Seats, contract.SeatResult{Score: roll, Forfeit: forfeit})
	}
	contract.Ranks(out.Seats, g.direction())
	return out, nil
}

// externalRoll asks an external bot for its roll over the pips protocol.
func externalRoll(ctx context.Context, pl contract.Player, caseSeed uint64, seat int) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	argv := pl.Command.Argv
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), pl.Command.Env...)
	cmd.Stdin = strings.NewReader(fmt.Sprintf("%d %d\n", caseSeed, seat))
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("bot: %w", err)
	}
	return strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
}

// ServeBot answers "CASESEED SEAT" lines with the bot's roll.
func (g pips) ServeBot(ctx context.Context, io cli.IO, bot any) error {
	b, ok := bot.(pipsBot)
	if !ok {
		return errors.New("not a pips bot")
	}
	sc := bufio.NewScanner(io.Stdin)
	for sc.Scan() {
		var seed uint64
		var seat int
		if _, err := fmt.Sscanf(sc.Text(), "%d %d", &seed, &seat); err != nil {
			return fmt.Errorf("bad request %q: %w", sc.Text(), err)
		}
		if _, err := fmt.Fprintln(io.Stdout, strconv.FormatFloat(b.Roll(seed, seat), 'g', -1, 64)); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Replay reads {"rolls": [...]} lines and writes {"ranks": [...]}.
func (g pips) Replay(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "replay "+g.name, "< rolls.jsonl")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("replay "+g.name, rest); err != nil {
		return err
	}
	sc := bufio.NewScanner(io.Stdin)
	for n := 1; sc.Scan(); n++ {
		var in struct{ Rolls []float64 }
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		seats := make([]contract.SeatResult, len(in.Rolls))
		for i, r := range in.Rolls {
			seats[i].Score = r
		}
		contract.Ranks(seats, g.direction())
		ranks := make([]int, len(seats))
		for i, s := range seats {
			ranks[i] = s.Rank
		}
		if err := json.NewEncoder(io.Stdout).Encode(map[string]any{"ranks": ranks}); err != nil {
			return err
		}
	}
	return sc.Err()
}

func (g pips) ReplayReference() contract.ReplayReference {
	file := "cmd/gauntlet/testdata/pips-replay.jsonl"
	if g.lower {
		file = "cmd/gauntlet/testdata/pipslow-replay.jsonl"
	}
	return contract.ReplayReference{Files: file, Fields: []string{"ranks"}}
}

// Tools: `gauntlet pips sum [--scale F]` adds the numbers on stdin.
func (g pips) Tools() []contract.Tool {
	return []contract.Tool{{Name: "sum", Summary: "add the numbers on stdin", Run: func(ctx context.Context, io cli.IO, args []string) error {
		fs := cli.NewFlags(io, g.name+" sum", "[--scale F] < numbers")
		scale := fs.Float64("scale", 1, "multiply the sum by this (> 0)")
		rest, err := cli.Parse(fs, args)
		if err != nil {
			return err
		}
		if err := cli.NoArgs(g.name+" sum", rest); err != nil {
			return err
		}
		if !(*scale > 0) || math.IsInf(*scale, 0) {
			return cli.Usagef("--scale %v: want a finite number > 0", *scale)
		}
		sum := 0.0
		sc := bufio.NewScanner(io.Stdin)
		for sc.Scan() {
			x, err := strconv.ParseFloat(strings.TrimSpace(sc.Text()), 64)
			if err != nil {
				return err
			}
			sum += x
		}
		_, err = fmt.Fprintln(io.Stdout, sum**scale)
		return err
	}}}
}

func (dent) Info() contract.GameInfo {
	return contract.GameInfo{Name: "dent", Title: "toy cost game of the CLI tests", MinSeats: 1, MaxSeats: 1,
		Direction: contract.Lower, CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}, {Name: "smoke", Doc: "seeds 1..4"}}}
}

func (dent) Cases(set string) ([]contract.Case, error) { return seedCasesOf("dent", set) }

func (dent) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	b, ok := players[0].Bot.(dentBot)
	if !ok {
		return contract.Outcome{}, errors.New("dent: not a dent bot")
	}
	cost := (b.x-3)*(b.x-3) + dentNoise(c.Seed)
	return contract.Outcome{Seats: []contract.SeatResult{{Score: cost, Rank: 1}}, Turns: 1}, nil
}

// Optimum is the cost at x = 3: the noise alone.
func (dent) Optimum(ctx context.Context, c contract.Case) (float64, bool, error) {
	return dentNoise(c.Seed), true, nil
}

// DefaultCases: ab compares on seeds:12.
func (dent) DefaultCases(command string) string {
	if command == "ab" {
		return "seeds:12"
	}
	return ""
}

// direction is the pips game's score direction.
func (g pips) direction() contract.Direction {
	if g.lower {
		return contract.Lower
	}
	return contract.Higher
}
