package games

import (
	"context"
	"fmt"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/referees/brew"
	"gauntlet/strategies/brewbasic"
	"gauntlet/strategies/param"
)

// brewGame adapts the Witches' Brew referee (CodinGame Fall Challenge
// 2020), final-league rules, two seats.
type brewGame struct{}

var (
	_ contract.Replayer         = brewGame{}
	_ contract.ReplayReferencer = brewGame{}
	_ contract.BotServer        = brewGame{}
)

// brewTypes is brew's typed view of cases and bots.
var brewTypes = adapter[brewCase, brew.Bot]{game: "brew"}

// brewCase is the Data of a brew case.
type brewCase struct {
	Seed   int64
	League int
}

func init() {
	contract.Default.RegisterGame(brewGame{})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "brew", Name: "greedy", Params: brewbasic.GreedyParams,
		Doc: "one-ply heuristic: brew the best affordable order, else cast towards it",
		New: func(v param.Values, seed uint64) (any, error) { return brewbasic.NewGreedy(v, seed) },
	})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "brew", Name: "random", Params: brewbasic.RandomParams,
		Doc: "a seeded random legal action each turn",
		New: func(v param.Values, seed uint64) (any, error) { return brewbasic.NewRandom(v, seed) },
	})
}

func (brewGame) Info() contract.GameInfo {
	return contract.GameInfo{
		Name:      "brew",
		Title:     "CodinGame Fall Challenge 2020: Witches' Brew (2 players, final-league rules)",
		MinSeats:  brew.Players,
		MaxSeats:  brew.Players,
		Opponents: "greedy",
		CaseSets:  seedCaseSets(),
		Direction: contract.Higher,
		Limits:    brewLimits,
	}
}

// brewLimits are CodinGame's limits for the Fall Challenge 2020 with
// gauntlet's margins.
var brewLimits = contract.TimeLimits{
	Turn:            brew.DefaultTurnTime,
	FirstTurn:       brew.DefaultFirstTurnTime,
	Margin:          brew.DefaultMargin,
	FirstTurnMargin: brew.DefaultFirstTurnMargin,
	Answers:         brew.MaxRounds,
	Measured: "from the end of the write of the turn input to the arrival of the answer's newline " +
		"(CodinGame's runner timed from handing the input to its writer to reading the answer, polling every millisecond)",
}

func (brewGame) Cases(set string) ([]contract.Case, error) {
	return seedCases("brew", set, 10, func(s int64) any { return brewCase{Seed: s, League: 3} })
}

func (brewGame) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	d, err := brewTypes.data(c)
	if err != nil {
		return contract.Outcome{}, err
	}
	if len(players) != brew.Players {
		return contract.Outcome{}, fmt.Errorf("brew needs %d players; got %d", brew.Players, len(players))
	}
	var agents [brew.Players]brew.Agent
	for i, pl := range players {
		bot, err := brewTypes.seat(pl)
		if err != nil {
			return contract.Outcome{}, err
		}
		agents[i] = brew.Agent{Bot: bot, Command: pl.Command.Argv, Env: pl.Command.Env, Stderr: pl.Command.Stderr}
	}
	rec := recordingOf(opt, c.ID)
	lim := opt.Applied(brewLimits)
	res, err := brew.PlayMatch(ctx, d.Seed, d.League, agents, brew.MatchOptions{
		TurnTime:        lim.Turn,
		FirstTurnTime:   lim.FirstTurn,
		Margin:          lim.Margin,
		FirstTurnMargin: lim.FirstTurnMargin,
		NoTimeLimit:     opt.NoTimeLimit,
		Record:          rec.w,
		Name:            rec.name,
		Log:             opt.Log,
	})
	if err != nil {
		return contract.Outcome{}, err
	}
	out := contract.Outcome{Seats: make([]contract.SeatResult, brew.Players), Turns: res.Rounds}
	for i := range out.Seats {
		out.Seats[i] = contract.SeatResult{Score: float64(res.Scores[i]), Forfeit: res.Reason[i], Answers: contract.Answers{
			Ignored: res.Ignored[i], IgnoredFirst: res.IgnoredFirst[i], Times: contract.NewAnswerTimes(res.Times[i], lim),
		}}
	}
	contract.RanksByScore(out.Seats)
	out.Detail = map[string]any{"deliveries": res.Deliveries[:]}
	out.KeepAnswers()
	if opt.RecordMoves {
		if out.Moves, err = brewMovesOf(rec.moves.Bytes()); err != nil {
			return contract.Outcome{}, err
		}
	}
	return out, nil
}

// Replay is `gauntlet replay brew [--inputs]`: recorded games (JSON lines
// with seed, league and actions) on stdin, one result line per game on
// stdout, in order.
func (brewGame) Replay(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "replay brew", "[--inputs] < games.jsonl > results.jsonl")
	inputs := fs.Bool("inputs", false, "also write every turn's full input text (field \"inputs\")")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("replay brew", rest); err != nil {
		return err
	}
	return brew.Replay(ctx, io.Stdin, io.Stdout, *inputs)
}

// ReplayReference is the organisers' referee's results of recorded games.
func (brewGame) ReplayReference() contract.ReplayReference {
	return contract.ReplayReference{Files: "referees/brew/testdata/games.jsonl.gz",
		Fields: []string{"rounds", "scores", "active", "inputs_sha256"}}
}

// ServeBot speaks the CodinGame protocol of the contest.
func (brewGame) ServeBot(ctx context.Context, io cli.IO, bot any) error {
	b, err := brewTypes.bot(bot, "the served bot")
	if err != nil {
		return err
	}
	return brew.Serve(ctx, io.Stdin, io.Stdout, b)
}
