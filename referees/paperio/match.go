package paperio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"
)

// Bot is an in-process strategy.
type Bot interface {
	// Command returns the direction of player id (1..s.N) for the coming
	// tick. It is called only when that player stands on a cell centre, as
	// the runner asks its clients. s is the game as the runner's tick
	// message shows it (State.View), made for this call: the bot may read
	// it (and copy it to simulate with State.Advance) but must not keep it.
	// Returning DirNone, or the reverse of the current direction, keeps the
	// direction.
	Command(s *State, id int) Dir
}

// Agent is the player of one seat: an in-process Bot, or an external
// command speaking the runner's JSON protocol on its stdin and stdout.
type Agent struct {
	Bot     Bot      // in-process strategy; when nil, Command is run
	Command []string // argv of an external bot
	Env     []string // extra KEY=VALUE environment entries for Command
	Dir     string   // working directory for Command ("" = the caller's)
	Name    string   // label in records ("" = "bot<k>" or the command)
	// Stderr, when set, also receives Command's stderr, turn by turn when
	// it is a lineproc.TurnMarker (the harness's log of the seat).
	Stderr io.Writer
}

// Config describes a game: the number of players (1..6, the length of the
// agents list), the constants (Rules, including the server/local mode and
// the external bots' time limits), the constants the bots were built for
// (Known: what they know that the runner's messages do not say, such as
// the tick count; in-process bots are shown these, see ViewRules) and
// whether the clients are shuffled with the game's generator before the
// ids are given out, as the server runner does.
type Config struct {
	Rules   Rules
	Known   Rules
	Shuffle bool
}

// DefaultConfig is the production server: official constants, known to the
// bots, shuffled clients.
func DefaultConfig() Config {
	return Config{Rules: DefaultRules(), Known: DefaultRules(), Shuffle: true}
}

// FinalsConfig is the finals' server: their constants, known to the bots,
// shuffled clients.
func FinalsConfig() Config {
	return Config{Rules: FinalsRules(), Known: FinalsRules(), Shuffle: true}
}

// MatchOptions tune PlayMatch.
type MatchOptions struct {
	// NoTimeLimit reads external bots without REQUEST_MAX_TIME and
	// MAX_EXECUTION_TIME (like the local runner).
	NoTimeLimit bool
	// Margin is added to both limits (0 = none; the harness passes
	// DefaultMargin unless told otherwise). An answer is timed from the end
	// of the write of its tick message to the arrival of its newline.
	Margin time.Duration
	// Record, when non-nil, receives the game as a conformance trace
	// (header line, then one line per tick with the state, the commands
	// and the spawn), replayable with Replay.
	Record io.Writer
	// Name labels the record.
	Name string
	// Log, when non-nil, receives the external bots' stderr.
	Log io.Writer
}

// PlayerResult is the outcome of one agent.
type PlayerResult struct {
	ID         int    // player id in the game (after the shuffle)
	Score      int    // final score, dead or alive
	Alive      bool   // alive at the end
	Ticks      int    // ticks survived (the tick it died on, or the ticks played)
	Death      string // the referee's loss events ("" if alive)
	Disconnect string // why an external bot was disconnected ("" if not)
	// Ignored counts the answers that changed nothing: a line that is not
	// JSON (the runner ignores it), no command or one that is not left,
	// right, up or down, and turning back (the rules keep the direction);
	// IgnoredFirst describes the first one.
	Ignored      int
	IgnoredFirst string
	// Times are an external bot's answer times in order, late answers
	// included (nil for in-process bots).
	Times []time.Duration
	Rank  int // 1 = best score; equal scores share a rank
}

// MatchResult is the outcome of a game, indexed like the agents list.
type MatchResult struct {
	Players []PlayerResult
	Ticks   int // ticks processed
}

// seat is the connection of one player during a match.
type seat struct {
	bot    Bot
	proc   *procBot
	reason string // disconnect reason
	name   string
	// ignored counts the answers that changed nothing; note describes the
	// first one.
	ignored int
	note    string
}

// ignore counts an answer that changes nothing.
func (s *seat) ignore(why string, tick int) {
	if s.ignored == 0 {
		s.note = fmt.Sprintf("%s (tick %d)", why, tick)
	}
	s.ignored++
}

// PlayMatch plays one game. The game's generator is seeded with seed
// (Python's random.seed); it shuffles the agents first when cfg.Shuffle is
// set and draws the bonus spawns. In-process bots get a copy of the state;
// external bots get the runner's messages and are held to its time limits.
// A bot is handled as the runner's TCP client handles it: one that times
// out (REQUEST_MAX_TIME per read, MAX_EXECUTION_TIME in total), crashes or
// answers JSON that is not an object is disconnected: it gets no more
// messages and keeps its direction; the reason is recorded and the game
// goes on. A line that is not JSON at all is ignored (no command that
// tick); it is counted in Ignored with the other answers that change
// nothing. A panicking in-process bot is
// disconnected. The error is for the caller's own faults only:
// bad config, a command that cannot start, a cancelled context, a failing
// Record writer.
func PlayMatch(ctx context.Context, cfg Config, seed int64, agents []Agent, opt MatchOptions) (MatchResult, error) {
	var res MatchResult
	n := len(agents)
	g, err := NewGame(cfg.Rules, n, seed)
	if err != nil {
		return res, err
	}
	if err := cfg.Known.Validate(); err != nil {
		return res, fmt.Errorf("the rules the bots know: %w", err)
	}
	order := make([]int, n) // order[k]: the agent playing id k+1
	for i := range order {
		order[i] = i
	}
	if cfg.Shuffle {
		order = g.RNG.ShuffleOrder(n)
	}
	seats := make([]seat, n)
	defer func() {
		for i := range seats {
			if seats[i].proc != nil {
				seats[i].proc.close()
			}
		}
	}()
	for k, ai := range order {
		a := agents[ai]
		seats[k].name = a.Name
		switch {
		case a.Bot != nil:
			seats[k].bot = a.Bot
			if a.Name == "" {
				seats[k].name = fmt.Sprintf("bot%d", ai)
			}
		case len(a.Command) > 0:
			p, err := startProc(ctx, a, opt.Log)
			if err != nil {
				return res, fmt.Errorf("agent %d: %w", ai, err)
			}
			seats[k].proc = p
			if a.Name == "" {
				seats[k].name = a.Command[0]
			}
		default:
			return res, fmt.Errorf("agent %d: neither a bot nor a command", ai)
		}
	}
	limit, total := cfg.Rules.RequestMaxTime, cfg.Rules.MaxExecutionTime
	if opt.NoTimeLimit {
		limit, total = 0, 0
	}
	margin := max(opt.Margin, 0)
	var rec *recorder
	if opt.Record != nil {
		rec = newRecorder(opt.Record, opt.Name, seed, &cfg, g, seats)
	}
	buf := AppendStartGame(nil, &g.Rules)
	for k := range seats {
		if seats[k].proc != nil {
			if err := seats[k].proc.send(buf, limit, margin); err != nil {
				seats[k].disconnect(err.Error() + " (start_game)")
			}
		}
	}
	view := new(State)
	for !g.Over() {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		var cmds Commands
		if rec != nil {
			rec.startTick()
		}
		// Step 1: tick messages to the external bots at centres.
		for k := 0; k < n; k++ {
			p := &g.Players[k]
			if !p.Alive || !p.AtCentre() || seats[k].proc == nil {
				continue
			}
			buf = g.AppendTick(buf[:0], p.ID)
			if err := seats[k].proc.send(buf, limit, margin); err != nil {
				seats[k].disconnect(fmt.Sprintf("%v (tick %d)", err, g.Tick))
			}
		}
		// Step 2: commands.
		for k := 0; k < n; k++ {
			p := &g.Players[k]
			if !p.Alive || !p.AtCentre() || seats[k].reason != "" {
				continue
			}
			if b := seats[k].bot; b != nil {
				g.State.View(view, p.ID, &cfg.Known)
				d, reason := safeCommand(b, view, p.ID)
				if reason != "" {
					seats[k].reason = fmt.Sprintf("%s (tick %d)", reason, g.Tick)
					continue
				}
				cmds[k] = d
				if rec != nil {
					rec.answer(k, d.String(), d == DirNone)
				}
				continue
			}
			line, err := seats[k].proc.ask(limit, total, margin)
			if errors.Is(err, errLong) {
				// Cut by the relay, the line reached the runner as
				// something that is not JSON: ignored.
				seats[k].ignore(err.Error(), g.Tick)
				if rec != nil {
					rec.answer(k, "", true)
				}
				continue
			}
			if err == nil {
				var word string
				word, cmds[k], err = ParseAnswer([]byte(line))
				switch {
				case errors.Is(err, ErrUnreadable):
					// The runner ignores a non-JSON answer.
					seats[k].ignore(err.Error(), g.Tick)
					err = nil
				case err != nil:
				case cmds[k] == DirNone && word == "":
					seats[k].ignore(fmt.Sprintf("no command in %q", clip(line, 80)), g.Tick)
				case cmds[k] == DirNone:
					seats[k].ignore(fmt.Sprintf("command %q is not left, right, up or down", clip(word, 40)), g.Tick)
				case !p.CanTurn(cmds[k]):
					seats[k].ignore(fmt.Sprintf("command %q turns back", word), g.Tick)
				}
				if err == nil && rec != nil {
					rec.answer(k, word, word == "")
				}
			}
			if err != nil {
				cmds[k] = DirNone
				seats[k].disconnect(fmt.Sprintf("%v (tick %d)", err, g.Tick))
			}
		}
		t := g.Tick
		spawn, spawned := g.PlayTick(&cmds)
		res.Ticks = t
		if rec != nil {
			if err := rec.endTick(t, &g.State, spawn, spawned); err != nil {
				return res, fmt.Errorf("writing the record: %w", err)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		// A bot killed because the caller gave up is no disconnect: the
		// game is not over.
		return res, err
	}
	// Like the runner, only the players still in the game get end_game.
	buf = AppendEndGame(buf[:0])
	for k := range seats {
		if seats[k].proc != nil && seats[k].reason == "" && g.Players[k].Alive {
			_ = seats[k].proc.send(buf, limit, margin)
		}
	}
	res.Players = make([]PlayerResult, n)
	for k, ai := range order {
		p := &g.Players[k]
		r := PlayerResult{ID: p.ID, Score: p.Score, Alive: p.Alive, Death: p.Death.String(), Disconnect: seats[k].reason,
			Ignored: seats[k].ignored, IgnoredFirst: seats[k].note}
		if seats[k].proc != nil {
			r.Times = seats[k].proc.times
		}
		r.Ticks = res.Ticks
		if !p.Alive {
			r.Ticks = p.DeathTick
		}
		res.Players[ai] = r
	}
	rankByScore(res.Players)
	if rec != nil {
		if err := rec.flush(); err != nil {
			return res, fmt.Errorf("writing the record: %w", err)
		}
	}
	return res, nil
}

func (s *seat) disconnect(reason string) {
	if s.reason == "" {
		s.reason = reason
	}
	if s.proc != nil {
		s.proc.close()
	}
}

// rankByScore gives rank 1 to the best score; equal scores share a rank.
func rankByScore(ps []PlayerResult) {
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]].Score > ps[idx[b]].Score })
	for r, i := range idx {
		if r > 0 && ps[i].Score == ps[idx[r-1]].Score {
			ps[i].Rank = ps[idx[r-1]].Rank
		} else {
			ps[i].Rank = r + 1
		}
	}
}

// safeCommand calls a bot and turns a panic into a disconnect reason.
func safeCommand(b Bot, s *State, id int) (d Dir, reason string) {
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("crashed: panic: %v", r)
		}
	}()
	return b.Command(s, id), ""
}

// Play runs a whole game between in-process bots (bots[k] plays id k+1)
// with no shuffle, no text, no time limits and no allocation: the fast path
// for self-play and benchmarks. The bots know the game's own rules. view is
// scratch space for the bots' copies of the state. A panicking bot is
// disconnected (keeps its direction).
func Play(g *Game, bots []Bot, view *State) error {
	if len(bots) != g.N {
		return fmt.Errorf("play: %d bots for %d players", len(bots), g.N)
	}
	var gone [MaxPlayers]bool
	for !g.Over() {
		var cmds Commands
		for k := 0; k < g.N; k++ {
			p := &g.Players[k]
			if !p.Alive || gone[k] || !p.AtCentre() {
				continue
			}
			g.State.View(view, p.ID, &g.Rules)
			d, reason := safeCommand(bots[k], view, p.ID)
			if reason != "" {
				gone[k] = true
				continue
			}
			cmds[k] = d
		}
		g.PlayTick(&cmds)
	}
	return nil
}

// recorder writes a match as a conformance trace.
type recorder struct {
	w    *bufio.Writer
	err  error
	rec  TickRecord
	row  recordRow
	hbuf []byte
}

type recordRow struct {
	TickRecord
	Events []string           `json:"events"`
	Cmds   map[string]*string `json:"cmds"`
	Spawn  *BonusRecord       `json:"spawn,omitempty"`
}

type recordHeader struct {
	Name             string   `json:"name"`
	Seed             int64    `json:"seed"`
	Bots             []string `json:"bots"`
	Mode             string   `json:"mode"`
	MaxTickCount     int      `json:"MAX_TICK_COUNT"`
	BonusChance      int      `json:"BONUS_CHANCE"`
	BonusesMaxCount  int      `json:"BONUSES_MAX_COUNT"`
	AvailableBonuses []string `json:"AVAILABLE_BONUSES"`
	Spawns           string   `json:"spawns"`
	Shuffled         bool     `json:"shuffled"`
	Start            [][]any  `json:"start"`
}

func newRecorder(w io.Writer, name string, seed int64, cfg *Config, g *Game, seats []seat) *recorder {
	r := &recorder{w: bufio.NewWriter(w)}
	h := recordHeader{Name: name, Seed: seed, Mode: cfg.Rules.Mode.String(), MaxTickCount: cfg.Rules.MaxTickCount,
		BonusChance: cfg.Rules.BonusChance, BonusesMaxCount: cfg.Rules.BonusesMaxCount,
		AvailableBonuses: []string{}, Spawns: "rng", Shuffled: cfg.Shuffle}
	for _, k := range cfg.Rules.AvailableList() {
		h.AvailableBonuses = append(h.AvailableBonuses, k.String())
	}
	for k := range seats {
		h.Bots = append(h.Bots, seats[k].name)
		p := &g.Players[k]
		h.Start = append(h.Start, []any{p.ID, p.X, p.Y, []int{p.X / Width, p.Y / Width}})
	}
	r.write(struct {
		Header recordHeader `json:"header"`
	}{h})
	return r
}

func (r *recorder) write(v any) {
	if r.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		r.err = err
		return
	}
	b = append(b, '\n')
	_, r.err = r.w.Write(b)
}

func (r *recorder) startTick() { r.row.Cmds = map[string]*string{} }

func (r *recorder) answer(k int, word string, isNull bool) {
	key := strconv.Itoa(k + 1)
	if isNull {
		r.row.Cmds[key] = nil
		return
	}
	r.row.Cmds[key] = &word
}

func (r *recorder) endTick(t int, s *State, spawn MapBonus, spawned bool) error {
	r.hbuf = s.Record(t, &r.rec, r.hbuf)
	r.row.TickRecord = r.rec
	r.row.Events = []string{}
	r.row.Spawn = nil
	if spawned {
		r.row.Spawn = &BonusRecord{Kind: spawn.Kind, X: spawn.Cell.X(), Y: spawn.Cell.Y(), Active: int(spawn.Active)}
	}
	r.write(&r.row)
	return r.err
}

func (r *recorder) flush() error {
	if r.err != nil {
		return r.err
	}
	return r.w.Flush()
}
