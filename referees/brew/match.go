package brew

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Bot is an in-process strategy. It is built with its own seed and must be
// deterministic given it.
type Bot interface {
	// Act returns the action of seat me for the coming turn. s is the game
	// as that seat sees it (see State.Observe): a private copy the bot may
	// read and must not keep or modify.
	Act(s *State, me int) Action
}

// Agent is the player of one seat: an in-process Bot, or an external
// command speaking the CodinGame protocol on its stdin and stdout.
type Agent struct {
	Bot     Bot      // in-process strategy; when nil, Command is run
	Command []string // argv of an external bot
	Env     []string // extra KEY=VALUE environment entries for Command
	Dir     string   // working directory for Command ("" = the caller's)
	// Stderr, when set, also receives Command's stderr, turn by turn when
	// it is a lineproc.TurnMarker (the harness's log of the seat).
	Stderr io.Writer
}

// Default time limits for external bots, as on CodinGame (the statement's
// "response time per turn ≤ 50 ms, for the first turn ≤ 1000 ms").
const (
	DefaultTurnTime      = 50 * time.Millisecond
	DefaultFirstTurnTime = 1000 * time.Millisecond
)

// Default margins added to those limits by gauntlet. A contest bot commonly
// starts its clock when it has read its input and spends the whole budget;
// the time from the end of our write to the arrival of its answer adds the
// pipe, the scheduler and, on the first turn, the start of its process
// (CodinGame started the players before the referee's first turn). The
// margins let such a bot play; README gives the figures behind them.
const (
	DefaultMargin          = 30 * time.Millisecond
	DefaultFirstTurnMargin = 750 * time.Millisecond
)

// MatchOptions configure PlayMatch.
type MatchOptions struct {
	// TurnTime and FirstTurnTime limit an external bot's answer (0 = the
	// defaults, 50 ms and 1000 ms), timed from the end of the write of its
	// input to the arrival of its answer's newline. Margin and
	// FirstTurnMargin are added to them (0 = none; the harness passes
	// DefaultMargin and DefaultFirstTurnMargin unless told otherwise).
	// NoTimeLimit disables the limits, for reproducible runs.
	TurnTime        time.Duration
	FirstTurnTime   time.Duration
	Margin          time.Duration
	FirstTurnMargin time.Duration
	NoTimeLimit     bool
	// Record, when non-nil, receives the game as one JSON line in the
	// games.jsonl format, replayable with Replay. Name labels it.
	Record io.Writer
	Name   string
	// Log, when non-nil, receives external bots' stderr.
	Log io.Writer
}

// MatchResult is the outcome of one match.
type MatchResult struct {
	Scores     [Players]int  // final scores, -1 for a disqualified player
	Active     [Players]bool // still active at the end
	Rounds     int           // turns played
	Deliveries [Players]int  // potions brewed
	// Reason says why a seat was deactivated ("" when it was not), e.g.
	// `timeout in round 7: answered after 61 ms, limit 50 ms + margin 10 ms`
	// or `unparseable line "FOO" (round 3)`.
	Reason [Players]string
	// Times are an external bot's answer times in order (Times[p][0] is
	// the first round's), late answers included; nil for in-process bots.
	Times [Players][]time.Duration
	// Ignored counts the actions the rules did not carry out (an action
	// that is not possible now: the player waits, as the referee lets it);
	// IgnoredFirst describes the first one, e.g.
	// `"BREW 99": no such id for this verb (round 4)`.
	Ignored      [Players]int
	IgnoredFirst [Players]string
}

// seat is one player's connection during a match.
type seat struct {
	bot  Bot
	proc *procBot
}

// PlayMatch plays one game of the given seed and league. In-process bots
// get the structured state (no text); external bots get the exact turn
// input and are held to the time limits. A bot that times out, crashes or
// prints an unparseable line is deactivated with score -1 and a reason,
// as the referee does; the match still completes. The error is for the
// caller's own faults only: a bad league, a command that cannot start, a
// cancelled context, a failing Record writer.
func PlayMatch(ctx context.Context, seed int64, league int, agents [Players]Agent, opt MatchOptions) (MatchResult, error) {
	var res MatchResult
	st, err := New(seed, league)
	if err != nil {
		return res, err
	}
	var seats [Players]seat
	defer func() {
		for i := range seats {
			if seats[i].proc != nil {
				seats[i].proc.close()
			}
		}
	}()
	for i, a := range agents {
		switch {
		case a.Bot != nil:
			seats[i].bot = a.Bot
		case len(a.Command) > 0:
			p, err := startProc(ctx, a, opt.Log)
			if err != nil {
				return res, fmt.Errorf("seat %d: %w", i, err)
			}
			seats[i].proc = p
		default:
			return res, fmt.Errorf("seat %d: agent has neither a bot nor a command", i)
		}
	}
	turnTime, firstTime := opt.TurnTime, opt.FirstTurnTime
	if turnTime <= 0 {
		turnTime = DefaultTurnTime
	}
	if firstTime <= 0 {
		firstTime = DefaultFirstTurnTime
	}
	if opt.NoTimeLimit {
		turnTime, firstTime = 0, 0
	}
	turnMargin, firstMargin := max(opt.Margin, 0), max(opt.FirstTurnMargin, 0)
	var rec *recorder
	if opt.Record != nil {
		rec = &recorder{}
	}
	var view State
	buf := make([]byte, 0, 4096)
	for !st.Over {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		round := int(st.Round) + 1
		limit, margin := turnTime, turnMargin
		if round == 1 {
			limit, margin = firstTime, firstMargin
		}
		var acts [Players]Action
		var dq [Players]string
		var texts, lines [Players]*string
		for p := range seats {
			if !st.P[p].Active {
				continue
			}
			if seats[p].bot != nil {
				st.Observe(&view)
				a, reason := safeAct(seats[p].bot, &view, p)
				if reason == "" && !a.Expressible(st.League) {
					reason = fmt.Sprintf("unparseable line %q (action not available in league %d)", a.String(), st.League)
				}
				acts[p], dq[p] = a, reason
				if reason == "" {
					res.ignore(&st, p, a, "", round)
				}
				if rec != nil {
					buf = st.AppendInput(buf[:0], p)
					texts[p] = ptr(string(buf))
					if reason == "" {
						lines[p] = ptr(a.String())
					} else {
						lines[p] = ptr("")
					}
				}
				continue
			}
			buf = st.AppendInput(buf[:0], p)
			if rec != nil {
				texts[p] = ptr(string(buf))
			}
			text, err := seats[p].proc.turn(buf, limit, margin, round)
			if err != nil {
				dq[p] = err.Error()
				if rec != nil {
					// An empty line replays as the same disqualification.
					lines[p] = ptr("")
				}
				continue
			}
			if rec != nil {
				lines[p] = ptr(text)
			}
			a, perr := ParseCommand(text, int(st.League))
			if perr != nil {
				dq[p] = perr.Error()
				continue
			}
			acts[p] = a
			res.ignore(&st, p, a, text, round)
		}
		for p := range dq {
			if dq[p] != "" {
				st.Deactivate(p)
				res.Reason[p] = dq[p] + onRound(dq[p], round)
				if seats[p].proc != nil {
					seats[p].proc.close()
				}
			}
		}
		if rec != nil {
			rec.add(texts, lines)
		}
		st.Step(acts)
	}
	if err := ctx.Err(); err != nil {
		// A bot killed because the caller gave up is no forfeit: the
		// game is not over.
		return res, err
	}
	for p := range seats {
		if seats[p].proc != nil {
			res.Times[p] = seats[p].proc.times
		}
	}
	res.Scores = st.Scores()
	res.Active = st.ActiveFlags()
	res.Rounds = int(st.Round)
	res.Deliveries = [Players]int{int(st.P[0].Deliveries), int(st.P[1].Deliveries)}
	if rec != nil {
		if err := rec.write(opt.Record, opt.Name, seed, int(st.League), &res); err != nil {
			return res, fmt.Errorf("writing the record: %w", err)
		}
	}
	return res, nil
}

// onRound adds the round to a reason that does not name it yet.
func onRound(reason string, round int) string {
	if strings.Contains(reason, " in round ") {
		return ""
	}
	return fmt.Sprintf(" (round %d)", round)
}

// ignore counts a's being ignored by the rules (the player waits), if it
// is: line is the bot's text of it ("" for an in-process bot: a's).
func (r *MatchResult) ignore(st *State, p int, a Action, line string, round int) {
	ok, why := st.Valid(p, a)
	if ok {
		return
	}
	if line == "" {
		line = a.String()
	}
	if r.Ignored[p] == 0 {
		r.IgnoredFirst[p] = fmt.Sprintf("%q: %s (round %d)", clipLine(line), why, round)
	}
	r.Ignored[p]++
}

// clipLine shortens a long bot line for a message.
func clipLine(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

func ptr(s string) *string { return &s }

// safeAct calls a bot and turns a panic into a forfeit reason.
func safeAct(b Bot, s *State, me int) (a Action, reason string) {
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("crashed: panic: %v", r)
		}
	}()
	return b.Act(s, me), ""
}

// recorder collects a match in the games.jsonl format.
type recorder struct {
	actions [][Players]*string
	inputs  [][Players]*string
}

func (r *recorder) add(texts, lines [Players]*string) {
	r.inputs = append(r.inputs, texts)
	r.actions = append(r.actions, lines)
}

// GameRecord is one line of games.jsonl: a game with every action line and
// input text, as the reference data and PlayMatch's Record write it.
type GameRecord struct {
	Name         *string            `json:"name"`
	Seed         int64              `json:"seed"`
	League       int                `json:"league"`
	Actions      [][Players]*string `json:"actions"`
	Inputs       [][Players]*string `json:"inputs,omitempty"`
	InputsSHA256 [][Players]*string `json:"inputs_sha256,omitempty"`
	Rounds       int                `json:"rounds"`
	Scores       [Players]int       `json:"scores"`
	Active       [Players]bool      `json:"active"`
}

func (r *recorder) write(w io.Writer, name string, seed int64, league int, res *MatchResult) error {
	g := GameRecord{
		Seed: seed, League: league, Actions: r.actions, Inputs: r.inputs,
		Rounds: res.Rounds, Scores: res.Scores, Active: res.Active,
	}
	if name != "" {
		g.Name = &name
	}
	g.InputsSHA256 = make([][Players]*string, len(r.inputs))
	for i, pair := range r.inputs {
		for p, t := range pair {
			if t != nil {
				g.InputsSHA256[i][p] = ptr(hashText([]byte(*t)))
			}
		}
	}
	data, err := json.Marshal(&g)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// hashText is the lowercase hex SHA-256 of an input text.
func hashText(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// errNoBot is returned by Play for a nil bot.
var errNoBot = errors.New("nil bot")

// Play runs a whole game between two in-process bots on s (which it
// advances to the end) with no text, no time limits and no allocation:
// the fast path for self-play and benchmarks. view is scratch space for
// the bots' copies of the state.
func Play(s *State, bots [Players]Bot, view *State) error {
	if bots[0] == nil || bots[1] == nil {
		return errNoBot
	}
	for !s.Over {
		var acts [Players]Action
		for p := 0; p < Players; p++ {
			if !s.P[p].Active {
				continue
			}
			s.Observe(view)
			a, reason := safeAct(bots[p], view, p)
			if reason != "" || !a.Expressible(s.League) {
				s.Deactivate(p)
				continue
			}
			acts[p] = a
		}
		s.Step(acts)
	}
	return nil
}
