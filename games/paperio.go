package games

import (
	"context"
	"fmt"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/referees/paperio"
	"gauntlet/strategies/paperbasic"
	"gauntlet/strategies/param"
)

// paperioGame adapts the Paper.io 2019 referee (Mail.Ru miniaicups): 1 to 6
// players, the official server rules, clients shuffled by the game's seed
// as the server did.
type paperioGame struct{}

var (
	_ contract.Replayer         = paperioGame{}
	_ contract.ReplayReferencer = paperioGame{}
	_ contract.BotServer        = paperioGame{}
)

// paperTypes is paperio's typed view of cases and bots.
var paperTypes = adapter[paperCase, paperio.Bot]{game: "paperio"}

// paperCase is the Data of a paperio case.
type paperCase struct{ Seed int64 }

func init() {
	contract.Default.RegisterGame(paperioGame{})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "paperio", Name: "simple", Params: paperbasic.SimpleParams,
		Doc: "go out a few cells and come back home, keeping a safety margin",
		New: func(v param.Values, seed uint64) (any, error) { return paperbasic.NewSimple(v, seed) },
	})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "paperio", Name: "random", Params: paperbasic.RandomParams,
		Doc: "a seeded random direction that never reverses and avoids the walls",
		New: func(v param.Values, seed uint64) (any, error) { return paperbasic.NewRandom(v, seed) },
	})
}

func (paperioGame) Info() contract.GameInfo {
	return contract.GameInfo{
		Name:      "paperio",
		Title:     "Mail.Ru Paper.io 2019 (1-6 players, server rules)",
		MinSeats:  1,
		MaxSeats:  paperio.MaxPlayers,
		Opponents: "simple",
		CaseSets:  seedCaseSets(),
		Direction: contract.Higher,
		Limits:    paperioLimits,
	}
}

// paperioLimits are the server runner's (REQUEST_MAX_TIME per answer,
// MAX_EXECUTION_TIME for all of a bot's answers) with gauntlet's margin.
var paperioLimits = func() contract.TimeLimits {
	r := paperio.DefaultRules()
	return contract.TimeLimits{
		Turn:            r.RequestMaxTime,
		Total:           r.MaxExecutionTime,
		Margin:          paperio.DefaultMargin,
		NoFirstTurnTime: "Paper.io's runner had no first-turn limit: every answer has REQUEST_MAX_TIME, which --turn-time sets",
		Measured: "from the end of the write of the tick message to the arrival of the answer's newline " +
			"(the runner timed each read from the moment it queued the message, through the contest's relay and TCP)",
	}
}()

func (paperioGame) Cases(set string) ([]contract.Case, error) {
	return seedCases("paperio", set, 6, func(s int64) any { return paperCase{Seed: s} })
}

func (paperioGame) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	d, err := paperTypes.data(c)
	if err != nil {
		return contract.Outcome{}, err
	}
	if len(players) < 1 || len(players) > paperio.MaxPlayers {
		return contract.Outcome{}, fmt.Errorf("paperio takes 1 to %d players; got %d", paperio.MaxPlayers, len(players))
	}
	agents := make([]paperio.Agent, len(players))
	for i, pl := range players {
		bot, err := paperTypes.seat(pl)
		if err != nil {
			return contract.Outcome{}, err
		}
		agents[i] = paperio.Agent{Bot: bot, Command: pl.Command.Argv, Env: pl.Command.Env, Name: pl.Name, Stderr: pl.Command.Stderr}
	}
	cfg := paperio.DefaultConfig()
	lim := opt.Applied(paperioLimits)
	cfg.Rules.RequestMaxTime, cfg.Rules.MaxExecutionTime = lim.Turn, lim.Total
	rec := recordingOf(opt, c.ID)
	res, err := paperio.PlayMatch(ctx, cfg, d.Seed, agents, paperio.MatchOptions{
		NoTimeLimit: opt.NoTimeLimit,
		Margin:      lim.Margin,
		Record:      rec.w,
		Name:        rec.name,
		Log:         opt.Log,
	})
	if err != nil {
		return contract.Outcome{}, err
	}
	out := contract.Outcome{Seats: make([]contract.SeatResult, len(players)), Turns: res.Ticks}
	alive := make([]bool, len(players))
	deaths := make([]string, len(players))
	for i, p := range res.Players {
		out.Seats[i] = contract.SeatResult{Score: float64(p.Score), Forfeit: p.Disconnect, Answers: contract.Answers{
			Ignored: p.Ignored, IgnoredFirst: p.IgnoredFirst, Times: contract.NewAnswerTimes(p.Times, lim),
		}}
		alive[i], deaths[i] = p.Alive, p.Death
	}
	contract.RanksByScore(out.Seats)
	out.Detail = map[string]any{"alive": alive, "deaths": deaths}
	out.KeepAnswers()
	if opt.RecordMoves {
		ids := make([]int, len(res.Players))
		for i, p := range res.Players {
			ids[i] = p.ID
		}
		if out.Moves, err = paperMovesOf(rec.moves.Bytes(), ids); err != nil {
			return contract.Outcome{}, err
		}
	}
	return out, nil
}

// Replay is `gauntlet replay paperio`: one trace on stdin (a header line,
// then rows with tick, cmds and optional spawn), one state line per
// processed tick on stdout.
func (paperioGame) Replay(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "replay paperio", "< trace.jsonl > states.jsonl")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("replay paperio", rest); err != nil {
		return err
	}
	return paperio.Replay(ctx, io.Stdin, io.Stdout)
}

// ReplayReference is the traces of the organisers' server, one game each.
func (paperioGame) ReplayReference() contract.ReplayReference {
	return contract.ReplayReference{Files: "referees/paperio/testdata/*.jsonl.gz", Header: 1, Trace: true,
		Fields: []string{"tick", "players", "bonuses", "hash"}}
}

// ServeBot speaks the JSON-lines protocol of the contest's runner.
func (paperioGame) ServeBot(ctx context.Context, io cli.IO, bot any) error {
	b, err := paperTypes.bot(bot, "the served bot")
	if err != nil {
		return err
	}
	return paperio.Serve(ctx, io.Stdin, io.Stdout, b)
}
