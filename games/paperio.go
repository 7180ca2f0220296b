package games

import (
	"context"
	"fmt"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/referees/paperio"
	"gauntlet/strategies/paperbasic"
	"gauntlet/strategies/paperpaths"
	"gauntlet/strategies/param"
)

// paperioGame adapts the Paper.io 2019 referee (Mail.Ru miniaicups): 1 to 6
// players, clients shuffled by the game's seed as the server did. It is
// registered twice: paperio plays the server runner's rules (1,500 ticks,
// 5 s an answer, 120 s a game), paperio-finals the finals' (2,500 ticks,
// 9 s, 200 s), the game the finalists' bots were built for. The two share
// everything but the rules, and each refuses the other's cases.
type paperioGame struct{ finals bool }

var (
	_ contract.Replayer         = paperioGame{}
	_ contract.ReplayReferencer = paperioGame{}
	_ contract.BotServer        = paperioGame{}
	_ contract.Eliminator       = paperioGame{}
)

// paperioGames are the two registrations.
var paperioGames = [...]paperioGame{{}, {finals: true}}

func (g paperioGame) name() string {
	if g.finals {
		return "paperio-finals"
	}
	return "paperio"
}

// config is the game's referee configuration: its constants, its limits on
// external bots and what its bots know.
func (g paperioGame) config() paperio.Config {
	if g.finals {
		return paperio.FinalsConfig()
	}
	return paperio.DefaultConfig()
}

// types is the game's typed view of cases and bots.
func (g paperioGame) types() adapter[paperCase, paperio.Bot] {
	return adapter[paperCase, paperio.Bot]{game: g.name()}
}

// paperCase is the Data of a paperio case; Finals says which of the two
// games made it.
type paperCase struct {
	Seed   int64
	Finals bool `json:",omitempty"`
}

// paperStrategies are the strategies of both games.
var paperStrategies = []contract.Strategy{
	{
		Name: "simple", Params: paperbasic.SimpleParams,
		Doc: "go out a few cells and come back home, keeping a safety margin",
		New: func(v param.Values, seed uint64) (any, error) { return paperbasic.NewSimple(v, seed) },
	},
	{
		Name: "random", Params: paperbasic.RandomParams,
		Doc: "a seeded random direction that never reverses and avoids the walls",
		New: func(v param.Values, seed uint64) (any, error) { return paperbasic.NewRandom(v, seed) },
	},
	{
		Name: "paperpaths", Params: paperpaths.Params,
		Doc: "safe random loops against opponents' arrival-time maps, best captured value per tick",
		New: func(v param.Values, seed uint64) (any, error) { return paperpaths.New(v, seed) },
	},
	{
		Name: "paperpaths2", Params: paperpaths.Params2,
		Doc: "paperpaths with the write-up's safe path builder, endgame close and seek fallback, at the contest's budget (the runner's clock, paths=20000 a cap; its loop order as estimator=1|2, duel_estimator in duels)",
		New: func(v param.Values, seed uint64) (any, error) { return paperpaths.New2(v, seed) },
	},
}

func init() {
	for _, g := range paperioGames {
		contract.Default.RegisterGame(g)
		for _, s := range paperStrategies {
			s.Game = g.name()
			contract.Default.RegisterStrategy(&s)
		}
	}
}

func (g paperioGame) Info() contract.GameInfo {
	title := "Mail.Ru Paper.io 2019 (1-6 players, server rules)"
	if g.finals {
		title = "Mail.Ru Paper.io 2019 (1-6 players, the finals' rules: 2,500 ticks, 9 s an answer, 200 s a game)"
	}
	return contract.GameInfo{
		Name:      g.name(),
		Title:     title,
		MinSeats:  1,
		MaxSeats:  paperio.MaxPlayers,
		Opponents: "simple",
		CaseSets:  seedCaseSets(),
		Direction: contract.Higher,
		Limits:    paperioLimits(g.config().Rules),
	}
}

// paperioLimits are the runner's limits in r (REQUEST_MAX_TIME per answer,
// MAX_EXECUTION_TIME for all of a bot's answers) with gauntlet's margin.
func paperioLimits(r paperio.Rules) contract.TimeLimits {
	return contract.TimeLimits{
		Turn:            r.RequestMaxTime,
		Total:           r.MaxExecutionTime,
		Margin:          paperio.DefaultMargin,
		NoFirstTurnTime: "Paper.io's runner had no first-turn limit: every answer has REQUEST_MAX_TIME, which --turn-time sets",
		Measured: "from the end of the write of the tick message to the arrival of the answer's newline " +
			"(the runner timed each read from the moment it queued the message, through the contest's relay and TCP)",
	}
}

func (g paperioGame) Cases(set string) ([]contract.Case, error) {
	return seedCases(g.name(), set, 6, func(s int64) any { return paperCase{Seed: s, Finals: g.finals} })
}

func (g paperioGame) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	types := g.types()
	d, err := types.data(c)
	if err != nil {
		return contract.Outcome{}, err
	}
	if d.Finals != g.finals {
		return contract.Outcome{}, fmt.Errorf("%s: case %q is a case of %s", g.name(), c.ID, paperioGame{finals: d.Finals}.name())
	}
	if len(players) < 1 || len(players) > paperio.MaxPlayers {
		return contract.Outcome{}, fmt.Errorf("%s takes 1 to %d players; got %d", g.name(), paperio.MaxPlayers, len(players))
	}
	agents := make([]paperio.Agent, len(players))
	for i, pl := range players {
		bot, err := types.seat(pl)
		if err != nil {
			return contract.Outcome{}, err
		}
		agents[i] = paperio.Agent{Bot: bot, Command: pl.Command.Argv, Env: pl.Command.Env, Name: pl.Name, Stderr: pl.Command.Stderr}
	}
	cfg := g.config()
	lim := opt.Applied(paperioLimits(cfg.Rules))
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
// processed tick on stdout. The trace's header names the rules, so both
// games replay the same way.
func (g paperioGame) Replay(ctx context.Context, io cli.IO, args []string) error {
	fs := cli.NewFlags(io, "replay "+g.name(), "< trace.jsonl > states.jsonl")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs("replay "+g.name(), rest); err != nil {
		return err
	}
	return paperio.Replay(ctx, io.Stdin, io.Stdout)
}

// Eliminated is the referee's cause of seat's death, its events joined by
// "; " ("" for a player alive at the end), from the game's detail.
func (paperioGame) Eliminated(o *contract.Outcome, seat int) string {
	return o.SeatString("deaths", seat)
}

// ReplayReference is the traces of the organisers' server, one game each.
func (paperioGame) ReplayReference() contract.ReplayReference {
	return contract.ReplayReference{Files: "referees/paperio/testdata/*.jsonl.gz", Header: 1, Trace: true,
		Fields: []string{"tick", "players", "bonuses", "hash"}}
}

// ServeBot speaks the JSON-lines protocol of the contest's runner. The
// runner's messages do not carry the tick count or the clock, so the bot is
// shown the game's rules.
func (g paperioGame) ServeBot(ctx context.Context, io cli.IO, bot any) error {
	b, err := g.types().bot(bot, "the served bot")
	if err != nil {
		return err
	}
	return paperio.ServeRules(ctx, g.config().Known, io.Stdin, io.Stdout, b)
}
