// Package refgame makes games of referee programs: `--game
// 'referee:COMMAND'` (a two-player relayed game at CodinGame's limits) or
// `--game FILE.json` (a game file, see File). It registers a resolver with
// contract.Default, so that every command that takes --game takes these,
// and plays them through package relay. Every entrant of such a game is a
// cmd: bot.
package refgame

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/referees/relay"
)

// Prefix starts a --game value that is a relayed referee's command line.
const Prefix = "referee:"

func init() {
	contract.Default.RegisterResolver(Resolve)
}

// Resolve makes the game of a --game value: "referee:COMMAND", or the
// path of a game file ending in .json (one that cannot be read is an
// error). Other values are not its (ok false).
func Resolve(name string) (contract.Game, bool, error) {
	if cmd, ok := strings.CutPrefix(name, Prefix); ok {
		f := File{Name: "referee", Referee: cmd}
		g, err := f.game(name, []byte(name))
		return g, true, err
	}
	if !strings.HasSuffix(name, ".json") {
		return nil, false, nil
	}
	// No built-in game's name ends in .json: this is a game file, or a
	// mistake to point out.
	st, err := os.Stat(name)
	if err != nil {
		return nil, true, fmt.Errorf("game file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, true, fmt.Errorf("game file %s: not a regular file", name)
	}
	g, err := readFile(name)
	return g, true, err
}

// Game is a game played by a referee program.
type Game struct {
	file        File
	source      string
	fingerprint string
	protocol    string
	referee     *entrant.Entrant // the referee's command, as a bot's
	args        []string
	minSeats    int
	maxSeats    int
	scores      bool
	limits      contract.TimeLimits
	gameTime    time.Duration
}

var (
	_ contract.Game           = (*Game)(nil)
	_ contract.Sourcer        = (*Game)(nil)
	_ contract.CaseDefaulter  = (*Game)(nil)
	_ contract.DetailColumner = (*Game)(nil)
)

// Info describes the game.
func (g *Game) Info() contract.GameInfo {
	return contract.GameInfo{
		Name:      g.file.Name,
		Title:     g.title(),
		MinSeats:  g.minSeats,
		MaxSeats:  g.maxSeats,
		Opponents: g.file.Opponents,
		CaseSets:  caseSets(),
		Direction: g.file.Direction,
		Limits:    g.limits,
	}
}

// title is the game file's title (or name) with its referee, e.g. `A race
// (relayed referee "python3 race.py")`; an inline referee: game, which has
// neither, is its referee alone: `relayed referee "python3 race.py"`.
func (g *Game) title() string {
	ref := fmt.Sprintf("%s referee %s", g.protocol, relay.Quote(g.file.Referee, 200))
	if strings.HasPrefix(g.source, Prefix) {
		return ref
	}
	title := g.file.Title
	if title == "" {
		title = g.file.Name
	}
	return title + " (" + ref + ")"
}

// Source is the --game value and the fingerprint of the game file and
// the referee's files.
func (g *Game) Source() (string, string) { return g.source, g.fingerprint }

// DefaultCases is the game file's case set.
func (g *Game) DefaultCases(string) string { return g.file.Cases }

// DetailColumns are the referee's counts shown in tables.
func (g *Game) DetailColumns() []string { return []string{"referee_notes"} }

// Play plays one case.
func (g *Game) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	if len(players) < g.minSeats || len(players) > g.maxSeats {
		return contract.Outcome{}, fmt.Errorf("%s takes %d to %d players; got %d", g.file.Name, g.minSeats, g.maxSeats, len(players))
	}
	ps := make([]relay.Player, len(players))
	for i, pl := range players {
		if pl.Bot != nil {
			return contract.Outcome{}, fmt.Errorf("%s: entrant %s is not a cmd: bot", g.file.Name, pl.Name)
		}
		ps[i] = relay.Player{Argv: pl.Command.Argv, Env: pl.Command.Env, Stderr: pl.Command.Stderr}
	}
	seed := int64(c.Seed)
	ref, err := g.referee.Argv(c.Seed)
	if err != nil {
		return contract.Outcome{}, err
	}
	lim := opt.Applied(g.limits)
	rl := relay.Limits{FirstTurn: lim.FirstTurn, FirstTurnMargin: lim.FirstTurnMargin, Turn: lim.Turn, Margin: lim.Margin,
		Game: g.gameTime, MaxLine: g.file.MaxLineBytes}
	var res *relay.Result
	switch g.protocol {
	case "direct":
		args := g.args
		if g.file.Args == nil {
			args = relay.DirectArgs(len(ps)) // no -pK pair for a seat the game does not have
		}
		res, err = relay.Direct(ctx, ref, args, seed, ps, rl, opt.Log)
	case "play":
		res, err = relay.Play(ctx, ref, g.args, seed, ps, rl, opt.Log)
	default:
		res, err = relay.Relayed(ctx, append(ref, relay.Expand(g.args, nil, seed, "")...), seed, ps, rl, opt.Log)
	}
	var re *relay.RefereeError
	if errors.As(err, &re) {
		return contract.Outcome{}, &contract.RefereeError{Reason: re.Reason, Stderr: re.Stderr}
	}
	if err != nil {
		return contract.Outcome{}, err
	}
	out := g.outcome(res, lim)
	if opt.RecordMoves && res.Transcript != nil {
		// The transcript is what a viewer shows of the game (see Watch).
		if out.Moves, err = encodeTranscript(res.Transcript); err != nil {
			return contract.Outcome{}, err
		}
	}
	return out, nil
}

// outcome turns a referee's result into seats: a game of ranks scores
// n - place; a game of scores ranks by them, the players at fault last
// (with a score one worse than the worst other one, in a game of costs).
func (g *Game) outcome(res *relay.Result, lim contract.TimeLimits) contract.Outcome {
	n := len(res.Forfeit)
	out := contract.Outcome{Seats: make([]contract.SeatResult, n), Turns: res.Turns}
	for i := range out.Seats {
		out.Seats[i] = contract.SeatResult{Forfeit: res.Forfeit[i], Answers: contract.Answers{Times: contract.NewAnswerTimes(res.Times[i], lim)}}
	}
	if !g.scores || res.Scores == nil {
		for i := range out.Seats {
			out.Seats[i].Rank = res.Places[i]
			out.Seats[i].Score = float64(n - res.Places[i])
		}
	} else {
		g.rankScores(out.Seats, res.Scores)
	}
	out.Detail = map[string]any{}
	if len(res.Notes) > 0 {
		out.Detail["referee_notes"] = len(res.Notes)
		out.Detail["referee_messages"] = res.Notes
	}
	for k, v := range res.TestData {
		out.Detail["test."+k] = v
	}
	if res.PlayerData != nil {
		out.Detail["player_data"] = res.PlayerData
	}
	out.KeepAnswers()
	if len(out.Detail) == 0 {
		out.Detail = nil
	}
	return out
}

// rankScores fills the seats' scores and ranks from a referee's scores.
func (g *Game) rankScores(seats []contract.SeatResult, scores []float64) {
	info := g.Info()
	ok := 0
	worst := 0.0
	for i := range seats {
		if seats[i].Forfeit == "" {
			if ok == 0 || info.Better(worst, scores[i]) {
				worst = scores[i]
			}
			ok++
		}
	}
	for i := range seats {
		seats[i].Score = scores[i]
		if seats[i].Forfeit != "" {
			seats[i].Rank = ok + 1
			if info.Direction == contract.Lower && ok > 0 {
				seats[i].Score = worst + 1
			}
			continue
		}
		r := 1
		for j := range seats {
			if seats[j].Forfeit == "" && info.Better(scores[j], scores[i]) {
				r++
			}
		}
		seats[i].Rank = r
	}
}

// Cases expands seeds:N, seeds:A-B, seed:S[,S...] and smoke.
func (g *Game) Cases(set string) ([]contract.Case, error) {
	var seeds []int64
	switch {
	case set == "smoke":
		seeds = []int64{1, 2, 3}
	case strings.HasPrefix(set, "seeds:") && strings.Contains(set, "-"):
		lo, hi, _ := strings.Cut(strings.TrimPrefix(set, "seeds:"), "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if err1 != nil || err2 != nil || a > b || b-a >= 1_000_000 {
			return nil, fmt.Errorf("%s case set %q: want seeds:A-B with A <= B and at most 1000000 seeds", g.file.Name, set)
		}
		for s := a; s <= b; s++ {
			seeds = append(seeds, s)
		}
	case strings.HasPrefix(set, "seeds:"):
		n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, fmt.Errorf("%s case set %q: want seeds:N with N in 1..1000000", g.file.Name, set)
		}
		for s := 1; s <= n; s++ {
			seeds = append(seeds, int64(s))
		}
	case strings.HasPrefix(set, "seed:"):
		for _, f := range strings.Split(strings.TrimPrefix(set, "seed:"), ",") {
			s, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s case set %q: seed %q is not a 64-bit integer", g.file.Name, set, f)
			}
			seeds = append(seeds, s)
		}
	default:
		return nil, fmt.Errorf("unknown %s case set %q (known: smoke, seeds:N, seeds:A-B, seed:S[,S...])", g.file.Name, set)
	}
	cs := make([]contract.Case, len(seeds))
	for i, s := range seeds {
		cs[i] = contract.Case{ID: "seed:" + strconv.FormatInt(s, 10), Seed: uint64(s)}
	}
	return cs, nil
}

func caseSets() []contract.CaseSetInfo {
	return []contract.CaseSetInfo{
		{Name: "seeds:N", Doc: "the games of referee seeds 1..N (###Seed N, seed=N, {seed})"},
		{Name: "seeds:A-B", Doc: "the games of referee seeds A..B"},
		{Name: "smoke", Doc: "seeds 1..3 (quick)"},
		{Name: "seed:S[,S...]", Doc: "the games of the given referee seeds"},
	}
}
