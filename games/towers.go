package games

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/referees/towers"
	"gauntlet/strategies/param"
	"gauntlet/strategies/towersbest"
	"gauntlet/strategies/towersgreedy"
)

// towersGame adapts the Sarov towers solitaire: one player, one case per
// deal (level and seed), scored by the number of moves (lower is better),
// with the proved optimum of every deal.
type towersGame struct{}

var (
	_ contract.Replayer       = towersGame{}
	_ contract.Tooler         = towersGame{}
	_ contract.OptimumFinder  = towersGame{}
	_ contract.DetailColumner = towersGame{}
	_ contract.CaseDefaulter  = towersGame{}
	_ contract.Coster         = towersGame{}
)

// towersTypes is towers' typed view of cases and bots.
var towersTypes = adapter[*towersCase, towers.Bot]{game: "towers", builtinOnly: true}

// towersForfeit is the score of a game whose bot gave no valid solution:
// more moves than any solution of a dealt layout takes.
const towersForfeit = 1000

// towersCase is the Data of a towers case: the deal and how it was made.
// It is shared by every game of the case and never changed, but for the
// optimum, computed once on demand.
type towersCase struct {
	Level string
	Seed  uint64
	Start towers.State
	Deal  towers.DealInfo
	opt   *towersOptimum
}

// towersOptimum is a deal's proved optimum, computed at most once.
type towersOptimum struct {
	mu    sync.Mutex
	done  bool
	moves int
	ok    bool
}

// optimum returns the length of the deal's shortest solution, proved by
// A*; ok is false when the search's budget ran out. A cancelled search is
// an error and is not remembered.
func (d *towersCase) optimum(ctx context.Context) (int, bool, error) {
	o := d.opt
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return o.moves, o.ok, nil
	}
	s := towersSolvers.Get().(*towers.Solver)
	defer towersSolvers.Put(s)
	sol, err := s.Solve(ctx, d.Start, towers.SolveOptions{Optimal: true})
	var be *towers.BudgetError
	switch {
	case errors.As(err, &be):
	case err != nil:
		return 0, false, err
	case sol.Unsolvable: // cannot be: the deal was solved
	default:
		o.moves, o.ok = len(sol.Moves), true
	}
	o.done = true
	return o.moves, o.ok, nil
}

func init() {
	contract.Default.RegisterGame(towersGame{})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "towers", Name: "towersbest", Params: towersbest.Params,
		Doc: "the robot write-up's best-first search: rank by moves and weak moves, duplicates merged, branch and bound, safe gluing; node budget",
		New: func(v param.Values, seed uint64) (any, error) { return towersbest.New(v, seed) },
	})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "towers", Name: "towersgreedy", Params: towersgreedy.Params,
		Doc: "greedy depth-first search: the most promising unseen move first, back up when stuck (the baseline)",
		New: func(v param.Values, seed uint64) (any, error) { return towersgreedy.New(v, seed) },
	})
}

func (towersGame) Info() contract.GameInfo {
	no := "towers plays built-in strategies only (no external bot protocol)"
	return contract.GameInfo{
		Name:     "towers",
		Title:    "Sarov towers solitaire: sort the coloured blocks into towers in as few moves as possible (single player)",
		MinSeats: 1,
		MaxSeats: 1,
		CaseSets: []contract.CaseSetInfo{
			{Name: "african:N", Doc: "deals of seeds 1..N with 4 colours (6 columns)"},
			{Name: "hanoi:N", Doc: "deals of seeds 1..N with 6 colours (8 columns)"},
			{Name: "sarov:N", Doc: "deals of seeds 1..N with 8 colours (10 columns)"},
			{Name: "LEVEL:A-B", Doc: "deals of seeds A..B of a level (e.g. held-out seeds after tuning)"},
			{Name: "smoke", Doc: "african seeds 1-4 and hanoi seeds 1-2 (quick)"},
			{Name: "case:LEVEL/SEED", Doc: "one deal, e.g. case:sarov/17 (or its case ID, sarov/17)"},
		},
		Direction: contract.Lower,
		Limits:    contract.TimeLimits{NoTurnTime: no, NoFirstTurnTime: no},
	}
}

// towersDeals caches the deals made so far (and their optima, once
// computed): every command expands its case set.
var towersDeals sync.Map // towersKey → *towersCase

type towersKey struct {
	colours int
	seed    uint64
}

var towersSolvers = sync.Pool{New: func() any { return new(towers.Solver) }}

// towersDeal returns the deal of level and seed.
func towersDeal(ctx context.Context, lv towers.Level, seed uint64) (*towersCase, error) {
	k := towersKey{lv.Colours, seed}
	if d, ok := towersDeals.Load(k); ok {
		return d.(*towersCase), nil
	}
	s := towersSolvers.Get().(*towers.Solver)
	defer towersSolvers.Put(s)
	st, info, err := towers.Deal(ctx, s, lv.Colours, seed)
	if err != nil {
		return nil, err
	}
	d, _ := towersDeals.LoadOrStore(k, &towersCase{Level: lv.Name, Seed: seed, Start: st, Deal: info, opt: &towersOptimum{}})
	return d.(*towersCase), nil
}

func (towersGame) Cases(set string) ([]contract.Case, error) {
	type want struct {
		lv   towers.Level
		seed uint64
	}
	var ws []want
	add := func(name string, lo, hi uint64) error {
		lv, err := towers.LevelByName(name)
		if err != nil {
			return fmt.Errorf("towers case set %q: %w", set, err)
		}
		for s := lo; ; s++ { // lo <= hi; s <= hi would wrap at the largest seed
			ws = append(ws, want{lv, s})
			if s == hi {
				break
			}
		}
		return nil
	}
	switch {
	case set == "smoke":
		if err := add("african", 1, 4); err != nil {
			return nil, err
		}
		if err := add("hanoi", 1, 2); err != nil {
			return nil, err
		}
	case strings.HasPrefix(set, "case:") || strings.Contains(set, "/"):
		// case:LEVEL/SEED, or a case's ID LEVEL/SEED.
		name, seed, ok := strings.Cut(strings.TrimPrefix(set, "case:"), "/")
		s, err := strconv.ParseUint(seed, 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("towers case set %q: want case:LEVEL/SEED, e.g. case:hanoi/7", set)
		}
		if err := add(name, s, s); err != nil {
			return nil, err
		}
	default:
		name, arg, ok := strings.Cut(set, ":")
		if !ok {
			return nil, unknownTowersSet(set)
		}
		var lo, hi uint64
		if a, b, isRange := strings.Cut(arg, "-"); isRange {
			x, err1 := strconv.ParseUint(a, 10, 64)
			y, err2 := strconv.ParseUint(b, 10, 64)
			if err1 != nil || err2 != nil || x > y || y-x >= 100_000 {
				return nil, fmt.Errorf("towers case set %q: want %s:A-B with A <= B and at most 100000 seeds", set, name)
			}
			lo, hi = x, y
		} else {
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 || n > 100_000 {
				return nil, fmt.Errorf("towers case set %q: want %s:N with N in 1..100000", set, name)
			}
			lo, hi = 1, uint64(n)
		}
		if err := add(name, lo, hi); err != nil {
			if _, lerr := towers.LevelByName(name); lerr != nil {
				return nil, unknownTowersSet(set)
			}
			return nil, err
		}
	}
	cs := make([]contract.Case, len(ws))
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, w := range ws {
		g.Go(func() error {
			d, err := towersDeal(ctx, w.lv, w.seed)
			if err != nil {
				return fmt.Errorf("towers case %s/%d: %w", w.lv.Name, w.seed, err)
			}
			cs[i] = contract.Case{ID: fmt.Sprintf("%s/%d", w.lv.Name, w.seed), Seed: uint64(w.lv.Colours)<<56 ^ w.seed, Data: d}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return cs, nil
}

func unknownTowersSet(set string) error {
	return fmt.Errorf("unknown towers case set %q (known: african:N, hanoi:N, sarov:N, LEVEL:A-B, smoke, case:LEVEL/SEED)", set)
}

// Optimum is the deal's shortest solution, proved by A* (a tenth of a
// second for an eight-colour deal) the first time it is asked for in the
// process.
func (towersGame) Optimum(ctx context.Context, c contract.Case) (float64, bool, error) {
	d, err := towersTypes.data(c)
	if err != nil {
		return 0, false, err
	}
	n, ok, err := d.optimum(ctx)
	return float64(n), ok, err
}

// DetailColumns: the redeals of the case (deals proved unsolvable or
// undecided before it); the solution is stored but not shown.
func (towersGame) DetailColumns() []string { return []string{"redeals"} }

// DefaultCases: tune and ab play eight-colour deals, where the default
// budget leaves room to improve; eval keeps the quick smoke set.
func (towersGame) DefaultCases(command string) string {
	switch command {
	case "tune":
		return "sarov:10"
	case "ab":
		return "sarov:20"
	}
	return ""
}

// Cost: a search's time grows steeply with the number of colours.
func (towersGame) Cost(c contract.Case) float64 {
	d, err := towersTypes.data(c)
	if err != nil {
		return 0
	}
	n := float64(d.Start.Colours())
	return n * n * n * n
}

func (towersGame) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	d, err := towersTypes.data(c)
	if err != nil {
		return contract.Outcome{}, err
	}
	if len(players) != 1 {
		return contract.Outcome{}, fmt.Errorf("towers is a single-player game; got %d players", len(players))
	}
	bot, err := towersTypes.seat(players[0])
	if err != nil {
		return contract.Outcome{}, err
	}
	moves, err := bot.Solve(ctx, d.Start)
	var forfeit string
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return contract.Outcome{}, err
		}
		forfeit = err.Error()
	}
	start := d.Start.Layout()
	r := towers.ReplayMoves(start, moves)
	switch {
	case forfeit != "":
	case r.Error != "":
		forfeit = r.Error + ": " + r.Message
	case !r.Solved:
		forfeit = fmt.Sprintf("not solved after its %d moves", len(moves))
	}
	score := float64(r.Moves)
	if forfeit != "" {
		score = towersForfeit
	}
	raw := towersRawMoves(moves)
	if opt.Record != nil {
		line, err := json.Marshal(map[string]any{"id": c.ID, "columns": start, "moves": raw,
			"solved": r.Solved, "error": r.Error, "at": r.At, "final": r.Columns})
		if err != nil {
			return contract.Outcome{}, err
		}
		if _, err := opt.Record.Write(append(line, '\n')); err != nil {
			return contract.Outcome{}, fmt.Errorf("towers: writing the record: %w", err)
		}
	}
	out := contract.Outcome{
		Seats: []contract.SeatResult{{Score: score, Rank: 1, Forfeit: forfeit}},
		Turns: r.Moves,
		Detail: map[string]any{
			"redeals": d.Deal.Redeals,
			// How the deal was made: deals thrown away (proved unsolvable,
			// or undecided within the budget) and the length of the quick
			// search's solution that proved this one solvable.
			"unsolvable_deals": d.Deal.Unsolvable,
			"undecided_deals":  d.Deal.Undecided,
			"proof_length":     d.Deal.Solution,
			"solution":         towersMoveText(moves),
		},
	}
	if opt.RecordMoves {
		if out.Moves, err = json.Marshal(raw); err != nil {
			return contract.Outcome{}, err
		}
	}
	return out, nil
}

func towersRawMoves(moves []towers.Move) [][2]int {
	raw := make([][2]int, len(moves))
	for i, m := range moves {
		raw[i] = [2]int{int(m.From), int(m.To)}
	}
	return raw
}

// towersMoveText writes moves compactly: "0-9 3-1 ...".
func towersMoveText(moves []towers.Move) string {
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d-%d", m.From, m.To)
	}
	return b.String()
}

// Replay is `gauntlet replay towers`: JSON lines {"columns", "moves"} in,
// one {"moves", "solved", "error", "at", "columns"} line out per input
// line (error "" | "illegal-move" | "bad-layout", at the index of the
// first bad move or -1).
func (towersGame) Replay(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "replay towers", "< games.jsonl > results.jsonl")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("replay towers", rest); err != nil {
		return err
	}
	return towers.Replay(ctx, io.Stdin, io.Stdout)
}

// Tools: the solver's command line.
func (towersGame) Tools() []contract.Tool {
	return []contract.Tool{
		{Name: "solve", Summary: "solve layouts (JSON lines {id, columns}): a quick solution, or with --optimal the proved shortest one, or an unsolvable verdict", Run: towersSolve},
	}
}
