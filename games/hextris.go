package games

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/referees/hextris"
	"gauntlet/strategies/hexrandom"
	"gauntlet/strategies/param"
)

// hextrisGame adapts the ICFP Contest 2015 referee: one player, one case per
// (problem, source seed), scored with the phrases of power of the
// leaderboard, aggregated per problem as the leaderboard did.
type hextrisGame struct{}

var (
	_ contract.Coster           = hextrisGame{}
	_ contract.Aggregator       = hextrisGame{}
	_ contract.DetailColumner   = hextrisGame{}
	_ contract.Replayer         = hextrisGame{}
	_ contract.ReplayReferencer = hextrisGame{}
	_ contract.CaseDefaulter    = hextrisGame{}
	_ contract.Tooler           = hextrisGame{}
)

// hexTypes is hextris's typed view of cases and bots.
var hexTypes = adapter[hexCase, hextris.Solver]{game: "hextris"}

// hexCase is the Data of a hextris case.
type hexCase struct {
	Problem *hextris.Problem
	Seed    uint32
	Phrases hextris.PhraseSet
}

// smokeProblems are small problems whose first seed makes the quick
// "smoke" case set (a tuning run of a few seconds).
var smokeProblems = []int{0, 1, 6, 10, 11, 17, 21, 23}

func init() {
	contract.Default.RegisterGame(hextrisGame{})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "hextris", Name: "random", Params: hexrandom.Params,
		Doc: "random legal commands until the game ends (the floor to beat)",
		New: func(v param.Values, seed uint64) (any, error) { return hexrandom.New(v, seed) },
	})
}

func (hextrisGame) Info() contract.GameInfo {
	return contract.GameInfo{
		Name:     "hextris",
		Title:    "ICFP Contest 2015: hexagonal Tetris with phrases of power (single player)",
		MinSeats: 1,
		MaxSeats: 1,
		CaseSets: []contract.CaseSetInfo{
			{Name: "qualifier", Doc: "problems 0-24, every source seed (174 cases), as the qualifier leaderboard"},
			{Name: "final", Doc: "the final board's problems 8-10, 12-16, 18, 20, 24-26, 28-32, every source seed (45 cases; 27 was not judged); add @none, @custom or @illegal (or the board's @nopower, @custompower, @illegalpower) for the other variants"},
			{Name: "final-new", Doc: "problems 25-32, the ones first seen in the final round (27 included), every source seed"},
			{Name: "all", Doc: "problems 0-32, every source seed"},
			{Name: "smoke", Doc: "the first seed of small problems 0, 1, 6, 10, 11, 17, 21, 23 (quick)"},
			{Name: "problem:N[,M...]", Doc: "every seed of the listed problems"},
			{Name: "pN/sS", Doc: "one case: problem N with source seed S"},
			{Name: "SET@PHRASES", Doc: "any set scored with phrase set power (default), custom, illegal or none (the final round's nopower, custompower, illegalpower name them too)"},
		},
		Direction: contract.Higher,
		Limits:    hextrisLimits,
	}
}

func (hextrisGame) Cases(set string) ([]contract.Case, error) {
	phraseName := "power"
	if i := strings.LastIndexByte(set, '@'); i >= 0 {
		set, phraseName = set[:i], set[i+1:]
	}
	if v, err := hextris.FinalVariantOf(phraseName); err == nil {
		phraseName = v.Phrases // the final board's names: nopower is none
	}
	phrases, err := hextris.OfficialPhrases(phraseName)
	if err != nil {
		return nil, fmt.Errorf("hextris case set: %w", err)
	}
	var ids []int
	var one *uint32
	switch {
	case set == "qualifier":
		ids = span(0, hextris.QualifierProblems)
	case set == "final":
		b, err := hextris.OfficialFinalBoard()
		if err != nil {
			return nil, fmt.Errorf("hextris case set %q: %w", set, err)
		}
		ids = b.Problems
	case set == "final-new":
		ids = span(hextris.QualifierProblems, hextris.NumOfficial)
	case set == "all":
		ids = span(0, hextris.NumOfficial)
	case set == "smoke":
		var cs []contract.Case
		for _, id := range smokeProblems {
			p, err := hextris.Official(id)
			if err != nil {
				return nil, err
			}
			cs = append(cs, hexCaseOf(p, p.SourceSeeds[0], phrases))
		}
		return cs, nil
	case strings.HasPrefix(set, "problem:"):
		for _, f := range strings.Split(strings.TrimPrefix(set, "problem:"), ",") {
			id, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || id < 0 || id >= hextris.NumOfficial {
				return nil, fmt.Errorf("hextris case set %q: problem %q is not 0..%d", set, f, hextris.NumOfficial-1)
			}
			ids = append(ids, id)
		}
	case strings.HasPrefix(set, "p"):
		var id int
		var seed uint32
		if n, err := fmt.Sscanf(set, "p%d/s%d", &id, &seed); n != 2 || err != nil || fmt.Sprintf("p%d/s%d", id, seed) != set {
			return nil, unknownHexSet(set)
		}
		ids, one = []int{id}, &seed
	default:
		return nil, unknownHexSet(set)
	}
	var cs []contract.Case
	for _, id := range ids {
		p, err := hextris.Official(id)
		if err != nil {
			return nil, fmt.Errorf("hextris case set %q: %w", set, err)
		}
		if one != nil {
			if !p.HasSeed(*one) {
				return nil, fmt.Errorf("hextris case %q: seed %d is not a source seed of problem %d (seeds %v)", set, *one, id, p.SourceSeeds)
			}
			return []contract.Case{hexCaseOf(p, *one, phrases)}, nil
		}
		for _, s := range distinctSeeds(p.SourceSeeds) {
			cs = append(cs, hexCaseOf(p, s, phrases))
		}
	}
	return cs, nil
}

func unknownHexSet(set string) error {
	return fmt.Errorf("unknown hextris case set %q (known: qualifier, final, final-new, all, smoke, problem:N[,M...], pN/sS, with an optional @power|@custom|@illegal|@none)", set)
}

func span(lo, hi int) []int {
	var ids []int
	for i := lo; i < hi; i++ {
		ids = append(ids, i)
	}
	return ids
}

// distinctSeeds keeps the first occurrence of each seed: the leaderboard
// counted a (problem, seed) pair once.
func distinctSeeds(seeds []uint32) []uint32 {
	var out []uint32
	seen := map[uint32]bool{}
	for _, s := range seeds {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func hexCaseOf(p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) contract.Case {
	id := fmt.Sprintf("p%d/s%d", p.ID, seed)
	if phrases.Name() != "power" {
		id += "@" + phrases.Name()
	}
	return contract.Case{
		ID:    id,
		Group: strconv.Itoa(p.ID),
		Seed:  uint64(p.ID)<<32 | uint64(seed),
		Data:  hexCase{Problem: p, Seed: seed, Phrases: phrases},
	}
}

// Aggregate is the leaderboard's problem score: the floor of the sum of the
// seed scores over the number of source seeds; unplayed seeds count 0.
func (hextrisGame) Aggregate(group string, scores map[string]float64) float64 {
	id, err := strconv.Atoi(group)
	if err != nil {
		return math.NaN()
	}
	p, err := hextris.Official(id)
	if err != nil || len(p.SourceSeeds) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, s := range scores {
		sum += s
	}
	return math.Floor(sum / float64(len(p.SourceSeeds)))
}

// Cost estimates a case's playing time for the runner's launch order: the
// units of the source times the board's area (a search strategy explores
// the board for every unit).
func (hextrisGame) Cost(c contract.Case) float64 {
	d, err := hexTypes.data(c)
	if err != nil {
		return 0
	}
	return float64(d.Problem.SourceLength) * float64(d.Problem.Width*d.Problem.Height)
}

// DetailColumns lists the Outcome.Detail keys shown in eval tables (the
// solution text is stored but not shown).
func (hextrisGame) DetailColumns() []string {
	return []string{"move_score", "power_score", "error", "end_state"}
}

// DefaultCases: ab compares on the qualifier, the leaderboard's problems;
// eval and tune keep the quick smoke set.
func (hextrisGame) DefaultCases(command string) string {
	if command == "ab" {
		return "qualifier"
	}
	return ""
}

// Replay is `gauntlet replay hextris`: the conformance contract (JSON lines
// of {problemId, seed, solution, phrases} in, one result line out per input
// line). The first malformed line stops the replay with an error naming it
// (exit 1) after the results of the lines before it.
func (hextrisGame) Replay(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "replay hextris", "< cases.jsonl > results.jsonl")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("replay hextris", rest); err != nil {
		return err
	}
	return hextris.Replay(ctx, io.Stdin, io.Stdout)
}

// ReplayReference is the organisers' scoring of contest solutions.
func (hextrisGame) ReplayReference() contract.ReplayReference {
	return contract.ReplayReference{Files: "referees/hextris/testdata/cases.jsonl.gz",
		Fields: []string{"score", "move_score", "power_score", "end_state", "error", "units_locked", "moves_executed", "board"}}
}

// Tools are the contest's own command lines: scoring solution files with
// the leaderboard's rules, scoring them as the final round was judged, and
// the solver's command line.
func (hextrisGame) Tools() []contract.Tool {
	return []contract.Tool{
		{Name: "score", Summary: "score contest solution files with the official rules and aggregation (per-problem table)", Run: hextrisScore},
		{Name: "final", Summary: "score solution files of the final round's four phrase variants the official way against the final board (VARIANT=FILE...)", Run: hextrisFinal},
		{Name: "solve", Summary: "the contest's command line (-f problem.json ... -t SECONDS -c CORES): solutions as contest JSON", Run: hextrisSolve},
	}
}

// keepUsed cuts a played solution to what the referee read (r.Used bytes):
// the characters after the end of the game or after the error are ignored
// by the rules, so the outcome, the store and the replay keep only the
// prefix, which replays to the same game. It returns the prefix and how
// many characters were cut; r's power score becomes the prefix's (it
// differs only for a solution with an error, which scores 0 anyway).
func keepUsed(r *hextris.Result, phrases hextris.PhraseSet, solution string) (string, int) {
	if r.Used >= len(solution) {
		return solution, 0
	}
	ignored := utf8.RuneCountInString(solution[r.Used:])
	solution = strings.Clone(solution[:r.Used]) // not the whole text behind it
	r.PowerScore = phrases.Score(solution)
	if r.Kind == hextris.NoError {
		r.Score = r.MoveScore + r.PowerScore
	}
	return solution, ignored
}

func (hextrisGame) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	d, err := hexTypes.data(c)
	if err != nil {
		return contract.Outcome{}, err
	}
	if len(players) != 1 {
		return contract.Outcome{}, fmt.Errorf("hextris is a single-player game; got %d players", len(players))
	}
	solver, ext, err := hexSolver(players[0], opt)
	if err != nil {
		return contract.Outcome{}, err
	}
	var forfeit string
	solution, err := solver.Solve(ctx, d.Problem, d.Seed, d.Phrases)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return contract.Outcome{}, err
		}
		forfeit = err.Error()
	}
	var answers contract.Answers
	if ext != nil {
		answers = ext.answers
	}
	r := hextris.Play(d.Problem, d.Seed, d.Phrases, solution)
	solution, ignored := keepUsed(&r, d.Phrases, solution)
	if ignored > 0 {
		// Said where a bot's ignored output is said (the conduct report).
		after := "the end of the game"
		if r.Kind != hextris.NoError {
			after = "its error (" + r.Error + ")"
		}
		if answers.Ignored == 0 {
			answers.IgnoredFirst = fmt.Sprintf("the solution's last %d characters, after %s: the referee stops reading there", ignored, after)
		}
		answers.Ignored++
	}
	if forfeit != "" {
		r.Score = 0
	}
	if opt.Record != nil {
		rec := map[string]any{
			"name": "gauntlet/" + c.ID, "problemId": d.Problem.ID, "seed": d.Seed,
			"solution": solution, "phrases": d.Phrases.Name(),
			"score": r.Score, "move_score": r.MoveScore, "power_score": r.PowerScore,
			"end_state": r.EndState, "error": r.Error, "units_locked": r.UnitsLocked,
			"moves_executed": r.MovesExecuted, "board": r.Board,
		}
		if ignored > 0 {
			rec["ignored_chars"] = ignored
		}
		line, err := json.Marshal(rec)
		if err != nil {
			return contract.Outcome{}, err
		}
		if _, err := opt.Record.Write(append(line, '\n')); err != nil {
			return contract.Outcome{}, fmt.Errorf("hextris: writing the record: %w", err)
		}
	}
	out := contract.Outcome{
		Seats: []contract.SeatResult{{Score: float64(r.Score), Rank: 1, Forfeit: forfeit, Answers: answers}},
		Turns: r.MovesExecuted,
		Detail: map[string]any{
			"move_score":   r.MoveScore,
			"power_score":  r.PowerScore,
			"error":        r.Error,
			"end_state":    r.EndState,
			"units_locked": r.UnitsLocked,
			"solution":     solution,
		},
	}
	if ignored > 0 {
		out.Detail["ignored_chars"] = ignored
	}
	out.KeepAnswers()
	if opt.RecordMoves {
		moves, err := json.Marshal(solution)
		if err != nil {
			return contract.Outcome{}, err
		}
		out.Moves = moves
	}
	return out, nil
}
