package relay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gauntlet/referees/internal/lineproc"
)

// maxInput caps the lines of one "###Input" block.
const maxInput = 16 << 20

// Relayed plays one game with a relayed referee (cg-brutaltester's old
// mode). gauntlet starts the referee and one process per player, writes
// "###Seed N" and "###Start P" to the referee, and then follows its
// commands:
//
//	###Input i        the lines up to the next "###" line are player i's input
//	###Output i n     n lines of player i's answer, written back to the referee
//	###Error i text   a message about player i (kept in Result.Notes)
//	###End 1 02       the places, best first: player 1 first, 0 and 2 tied
//
// Other lines of the referee are its own and are ignored. Every answer is
// timed as CodinGame did (Limits.FirstTurn for a player's first answer,
// Limits.Turn for the others, from the end of the write of its input). A
// player that crashes, answers late, does not read its input or prints a
// line longer than Limits.MaxLine forfeits and the game ends there: the
// players at fault are placed last, the others tie ahead of them. After
// "###End" the referee is ended (its exit status then changes nothing).
// The game's turns (Result.Turns) are its rounds: the most ###Output
// commands naming any one player.
//
// A referee that exits before "###End", is silent past the game's
// wall-clock limit, or writes a command that breaks the protocol makes
// the game a *RefereeError. Other errors are the caller's (ctx ended).
//
// The result's Transcript holds the game turn by turn: every line sent and
// answered, the answer times, the players' stderr by the answer it came
// with (a player's stderr is looked at when its answer has come and again
// before its next input is sent) and the referee's messages, up to
// TranscriptLines and TranscriptBytes. Its PlayerData are the players'
// "[PDATA] key = value" (last value) and "[PDATA+] key = value" (summed)
// stderr lines, as psyleague reads them, up to the same cap.
func Relayed(ctx context.Context, referee []string, seed int64, players []Player, lim Limits, log io.Writer) (*Result, error) {
	gctx, cancel := context.WithTimeout(ctx, lim.game())
	defer cancel()
	g := &relayGame{lim: lim, deadline: time.Now().Add(lim.game()), res: newResult(len(players)),
		procs: make([]*lineproc.Proc, len(players)), asked: make([]int, len(players)),
		rec: newRecorder("relayed", seed, len(players))}
	g.rec.withLimits(lim)
	ref, err := lineproc.Start(gctx, referee, lineproc.Options{MaxLine: maxRefLine, Stderr: stderrTo(g.rec.referee, log)})
	if err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	g.ref = ref
	defer g.close()
	res, err := g.play(gctx, seed, players, log)
	if ctx.Err() != nil && (err != nil || !g.ended) {
		// Cut short by the caller: a player that its end killed is not at
		// fault, so a game that ended by a fault then is no result.
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	// What the processes wrote to stderr is all in once they are ended.
	g.close()
	g.rec.drainReferee(true)
	for i := range players {
		g.rec.drain(i, evStderrEnd)
	}
	res.Transcript = g.rec.transcript()
	res.PlayerData = g.rec.pd.playerData()
	return res, nil
}

type relayGame struct {
	lim      Limits
	deadline time.Time
	ref      *lineproc.Proc
	procs    []*lineproc.Proc
	asked    []int // per player, the ###Output commands naming it
	res      *Result
	pending  string // a line read ahead (the "###" line after an input)
	hasNext  bool
	inbuf    []byte
	rec      *recorder
	ended    bool // the referee's ###End came
}

func (g *relayGame) close() {
	// The referee is done (or at fault, already recorded); players are
	// ended with the game whatever their exit status.
	_ = g.ref.Close()
	for _, p := range g.procs {
		if p != nil {
			_ = p.Close()
		}
	}
}

func (g *relayGame) play(ctx context.Context, seed int64, players []Player, log io.Writer) (*Result, error) {
	for i, pl := range players {
		p, err := lineproc.Start(ctx, pl.Argv, lineproc.Options{Env: pl.Env, MaxLine: g.lim.maxLine(), Stderr: stderrTo(g.rec.players[i], log)}.WithSeat(pl.Stderr))
		if err != nil {
			g.res.Forfeit[i] = "crashed in turn 1: " + err.Error()
			g.rec.forfeit(i, g.res.Forfeit[i])
			return g.endByFault(), nil
		}
		g.procs[i] = p
	}
	start := "###Seed " + strconv.FormatInt(seed, 10) + "\n###Start " + strconv.Itoa(len(players)) + "\n"
	if err := g.tell([]byte(start)); err != nil {
		return nil, err
	}
	for {
		line, err := g.next()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(line, "###") {
			g.rec.add(evRefOut, -1, line) // the referee's own output
			continue
		}
		g.rec.drainReferee(false)
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "###Input":
			i, err := g.player(line, rest)
			if err != nil {
				return nil, err
			}
			if over, err := g.input(i); err != nil || over {
				return g.resultOr(err)
			}
		case "###Output":
			over, err := g.output(line, rest)
			if err != nil || over {
				return g.resultOr(err)
			}
		case "###Error":
			who, msg, _ := strings.Cut(rest, " ")
			g.res.note("player " + Quote(who, 8) + ": " + Quote(msg, 300))
			g.rec.add(evRefError, -1, rest)
		case "###End":
			places, err := g.places(line, rest)
			if err != nil {
				return nil, err
			}
			g.res.Places = places
			g.rec.end(line)
			g.ended = true
			return g.res, nil
		default:
			return nil, g.fault("unknown command %s (want ###Input, ###Output, ###Error or ###End)", Quote(line, 80))
		}
	}
}

// resultOr is the result of a game a player's fault ended, or err.
func (g *relayGame) resultOr(err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	return g.endByFault(), nil
}

// endByFault places the players at fault last.
func (g *relayGame) endByFault() *Result {
	g.res.Places = faultPlaces(nil, g.res.Forfeit)
	return g.res
}

// fault is a referee error with the referee's stderr.
func (g *relayGame) fault(format string, args ...any) *RefereeError {
	return refErr(g.ref.StderrTail(), format, args...)
}

// next returns the referee's next line, within the game's time.
func (g *relayGame) next() (string, error) {
	if g.hasNext {
		g.hasNext = false
		return g.pending, nil
	}
	left := time.Until(g.deadline)
	if left <= 0 {
		return "", g.hung()
	}
	line, _, err := g.ref.Answer(left, 0)
	if err == nil {
		return line, nil
	}
	// Declared past the answer: errors.As takes its address, which moves
	// it to the heap, an allocation an answer otherwise.
	var capErr *lineproc.CapError
	switch {
	case errors.As(err, &capErr):
		return "", g.capped(capErr)
	case errors.Is(err, lineproc.ErrTimeout):
		return "", g.hung()
	case errors.Is(err, lineproc.ErrLineTooLong):
		return "", g.fault("a line longer than %d bytes", maxRefLine)
	case errors.Is(err, lineproc.ErrExited):
		if time.Now().After(g.deadline) {
			return "", g.hung()
		}
		return "", g.fault("the referee ended before ###End (%s)", exitStatus(err))
	}
	return "", err
}

func (g *relayGame) hung() *RefereeError {
	return g.fault("no ###End within the game's time limit of %s", lineproc.Millis(g.lim.game()))
}

// capped is a referee still running at the game's wall-clock cap
// (--game-timeout), which came before the game's own time limit.
func (g *relayGame) capped(e *lineproc.CapError) *RefereeError {
	return g.fault("no ###End within the game's wall-clock cap of %s (--game-timeout)", lineproc.Millis(e.Cap))
}

// tell writes text to the referee within the game's time.
func (g *relayGame) tell(text []byte) error {
	left := time.Until(g.deadline)
	if left <= 0 {
		return g.hung()
	}
	if err := g.ref.Send(text, left); err != nil {
		var capErr *lineproc.CapError
		if errors.As(err, &capErr) {
			return g.capped(capErr)
		}
		if errors.Is(err, lineproc.ErrTimeout) {
			return g.hung()
		}
		return g.fault("the referee stopped reading its input (%s)", exitStatus(err))
	}
	return nil
}

// player reads the player index of a command.
func (g *relayGame) player(line, field string) (int, error) {
	i, err := strconv.Atoi(field)
	if err != nil || i < 0 || i >= len(g.procs) {
		return 0, g.fault("%s names no player (the game has players 0 to %d)", Quote(line, 80), len(g.procs)-1)
	}
	return i, nil
}

// input relays an ###Input block to player i; over is true when the
// player's fault ended the game.
func (g *relayGame) input(i int) (over bool, err error) {
	g.inbuf = g.inbuf[:0]
	g.rec.drain(i, evStderr) // what the player wrote since its last answer
	for {
		line, err := g.next()
		if err != nil {
			return false, err
		}
		if strings.HasPrefix(line, "###") {
			g.pending, g.hasNext = line, true
			break
		}
		g.rec.sent(i, line)
		if len(g.inbuf)+len(line) >= maxInput {
			return false, g.fault("an ###Input block longer than %d bytes", maxInput)
		}
		g.inbuf = append(g.inbuf, line...)
		g.inbuf = append(g.inbuf, '\n')
	}
	limit, margin := g.limits(i)
	write := time.Duration(0)
	if limit > 0 {
		write = limit + margin
	}
	if err := g.procs[i].Send(g.inbuf, write); err != nil {
		return g.forfeit(i, err, g.asked[i]+1)
	}
	return false, nil
}

// limits are player i's limit and margin for its next answer.
func (g *relayGame) limits(i int) (time.Duration, time.Duration) {
	if len(g.res.Times[i]) == 0 && g.lim.FirstTurn > 0 {
		return g.lim.FirstTurn, g.lim.FirstTurnMargin
	}
	return g.lim.Turn, g.lim.Margin
}

// output relays "###Output i n": n lines of player i's answer back to the
// referee.
func (g *relayGame) output(line, rest string) (over bool, err error) {
	f := strings.Fields(rest)
	if len(f) != 2 {
		return false, g.fault("%s: want ###Output PLAYER LINES", Quote(line, 80))
	}
	i, err := g.player(line, f[0])
	if err != nil {
		return false, err
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > maxLinesPerOutput {
		return false, g.fault("%s: the number of lines must be 1 to %d", Quote(line, 80), maxLinesPerOutput)
	}
	g.asked[i]++
	g.res.Turns = max(g.res.Turns, g.asked[i])
	limit, margin := g.limits(i)
	g.inbuf = g.inbuf[:0]
	g.rec.answer(i)
	var took time.Duration
	for range n {
		ans, t, err := g.procs[i].Answer(limit, margin)
		if err != nil {
			if lineproc.Came(err) {
				g.res.Times[i] = append(g.res.Times[i], t)
				g.rec.took(i, t) // a late answer's time
			}
			return g.forfeit(i, err, g.asked[i])
		}
		took = t
		g.rec.line(ans)
		g.inbuf = append(g.inbuf, ans...)
		g.inbuf = append(g.inbuf, '\n')
	}
	g.res.Times[i] = append(g.res.Times[i], took)
	g.rec.took(i, took)
	g.rec.drain(i, evStderr)
	return false, g.tell(g.inbuf)
}

// forfeit records player i's fault in its turn (counted from 1, the
// caller's to say); a fault that is the game's clock running out (the
// players are killed with it) is the referee's.
func (g *relayGame) forfeit(i int, err error, turn int) (bool, error) {
	if time.Now().After(g.deadline) {
		return false, g.hung()
	}
	g.res.Forfeit[i] = describe(err, turn)
	g.rec.drain(i, evStderr)
	g.rec.forfeit(i, g.res.Forfeit[i])
	return true, nil
}

// places reads "###End 1 02": player indices best first, those of one
// token tied.
func (g *relayGame) places(line, rest string) ([]int, error) {
	n := len(g.procs)
	places := make([]int, n)
	place := 1
	for _, tok := range strings.Fields(rest) {
		for _, c := range tok {
			i := int(c - '0')
			switch {
			case c < '0' || c > '9' || i >= n:
				return nil, g.fault("%s names %s, not a player (the game has players 0 to %d)", Quote(line, 80), Quote(string(c), 4), n-1)
			case places[i] != 0:
				return nil, g.fault("%s names player %d twice", Quote(line, 80), i)
			}
			places[i] = place
		}
		place += len(tok)
	}
	for i, p := range places {
		if p == 0 {
			return nil, g.fault("%s does not name player %d", Quote(line, 80), i)
		}
	}
	return places, nil
}

// describe turns a player's lineproc error into its forfeit reason, in the
// words of the built-in games:
//
//	timeout in turn 1: answered after 1,013 ms, limit 1,000 ms + margin 750 ms
//	timeout in turn 3: no newline within 10,000 bytes
//	crashed in turn 2: exit status 3; stderr: boom
func describe(err error, turn int) string {
	switch {
	case errors.Is(err, lineproc.ErrTimeout):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrTimeout.Error()+": ")
		return fmt.Sprintf("timeout in turn %d: %s", turn, msg)
	case errors.Is(err, lineproc.ErrLineTooLong):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrLineTooLong.Error()+": more than ")
		return fmt.Sprintf("timeout in turn %d: no newline within %s", turn, msg)
	case errors.Is(err, lineproc.ErrExited):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrExited.Error()+": ")
		msg = strings.TrimPrefix(msg, "reading output: ")
		msg = strings.TrimPrefix(msg, "writing input: ")
		return fmt.Sprintf("crashed in turn %d: %s", turn, msg)
	}
	return fmt.Sprintf("crashed in turn %d: %v", turn, err)
}

// exitStatus is a lineproc exit error without the stderr it quotes (a
// RefereeError keeps the stderr apart).
func exitStatus(err error) string {
	msg := strings.TrimPrefix(err.Error(), lineproc.ErrExited.Error()+": ")
	msg = strings.TrimPrefix(msg, "reading output: ")
	msg = strings.TrimPrefix(msg, "writing input: ")
	msg, _, _ = strings.Cut(msg, "; stderr: ")
	return msg
}
