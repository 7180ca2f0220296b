// Package paperpaths is a Paper.io strategy after the safe-random-paths
// approach of the 2019 write-ups.
//
// At every cell centre it computes, per opponent, the earliest tick it can
// stand on each cell: a Dijkstra search over (cell, direction, been home)
// that respects the referee's movement (no reversal, the own trail blocked
// until the opponent is back home, where its trail is cleared) and speeds
// (held nitro and slowdown running out cell by cell, map bonuses picked up
// on the way). The same search gives each opponent's earliest way home: the
// time its trail stays cuttable.
//
// It then draws random loops that leave the territory and come back, times
// them with its own speed profile, and keeps only the loops that close
// before any opponent can reach any cell of the trail (a capture beats a
// cut made in the same tick, so a tie is safe, plus a tunable margin).
// Loops are valued by named weights: captured neutral and enemy cells,
// opponents' trails cut while they are still away from home, nitro picked
// up and slowdown avoided, cells walked inside the own territory; the value
// is divided by the loop's time (plus a bias towards longer loops).
// Optionally (life > 0) a captured cell is valued by its expected lifetime
// as ours: the time from the capture to the earliest opponent arrival on
// it, from the same arrival maps.
//
// A shallow minimax on copies of the referee's state (State.Advance) then
// forbids the first moves that a nearby opponent can answer with our death
// within depth cells. The budget is a number of paths per decision, so
// games are reproducible given the seed; an optional time limit per
// decision trades that for speed.
//
// Params2 (paperpaths2) turns on what the write-up adds: paths built step
// by step that never take a cell after which the trail could no longer
// close before an opponent arrives (forward first with probability
// forward), loops that must close before the game ends, the nearest enemy
// cell sought when no loop is safe, saws valued by what their strike scores
// and the shortest way to each tried as a loop (w_saw), and (not in the
// write-up) the rest of the last decision's loop checked again alongside
// the new draws (keep_plan); optionally the write-up's loop order (kills,
// enemy cells, time, points) or its kills first alone (kill_first), its
// territory lifetime (terr_life: own cells an opponent's way home takes are
// no home from then), the way home that leaves the opponents the most time
// when no loop is safe (escape), a shortest way to an opponent's trail that
// can be cut before it is home (hunt), a power on the loop's time in its
// value per tick (time_pow), the way from a loop's end to the nearest
// enemy land counted in its time (approach), a walk through the own land
// to an opponent's long trail from home (press), a per-game time budget
// shared out over the decisions left, and eight weights of their own in a
// game of two players (duel_forward, duel_max_len, duel_margin,
// duel_time_bias, duel_w_enemy, duel_approach, duel_close_guard,
// duel_press).
// Params keeps the previous defaults.
package paperpaths

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// Params are the tunable parameters of paperpaths.
var Params = param.Specs{
	{Name: "paths", Kind: param.Int, Min: 1, Max: 50000, Default: 120,
		Help: "random paths drawn per decision (the search budget)"},
	{Name: "max_len", Kind: param.Int, Min: 2, Max: 60, Default: 16,
		Help: "longest outward walk of a path, in cells, before heading home"},
	{Name: "forward", Kind: param.Float, Min: 0, Max: 1, Default: 0.7,
		Help: "probability that a path keeps its direction at each cell"},
	{Name: "margin", Kind: param.Float, Min: 0, Max: 60, Default: 2,
		Help: "safety margin in ticks between closing the loop and the earliest opponent arrival on the trail"},
	{Name: "w_neutral", Kind: param.Float, Min: 0, Max: 10, Default: 1,
		Help: "value of a captured neutral cell"},
	{Name: "w_enemy", Kind: param.Float, Min: 0, Max: 20, Default: 5,
		Help: "value of a captured enemy cell (the game pays 5 points)"},
	{Name: "w_kill", Kind: param.Float, Min: 0, Max: 200, Default: 50,
		Help: "value of cutting an opponent's trail before it can be home (the game pays 50 points)"},
	{Name: "w_nitro", Kind: param.Float, Min: 0, Max: 50, Default: 3,
		Help: "value of a nitro picked up on the path"},
	{Name: "w_slow", Kind: param.Float, Min: 0, Max: 50, Default: 10,
		Help: "penalty of a slowdown picked up on the path"},
	{Name: "time_bias", Kind: param.Float, Min: 0, Max: 100, Default: 30,
		Help: "ticks added to a loop's length when dividing its value by its time (favours longer, surer loops)"},
	{Name: "w_home", Kind: param.Float, Min: 0, Max: 5, Default: 0.5,
		Help: "value of the cells of the loop that stay inside the own territory (penalty-free waiting)"},
	{Name: "life", Kind: param.Int, Min: 0, Max: 800, Default: 0,
		Help: "territory lifetime horizon in ticks: a captured cell counts in full only if no opponent can reach it within this long after the loop closes, proportionally less if one can sooner (0: off)"},
	{Name: "life_floor", Kind: param.Float, Min: 0, Max: 1, Default: 0.5,
		Help: "share of a captured cell's value kept however soon an opponent can reach it (with life > 0)"},
	{Name: "max_out", Kind: param.Int, Min: 0, Max: 1500, Default: 0,
		Help: "longest time in ticks a trail may stay out, the existing trail included (0: no limit)"},
	{Name: "depth", Kind: param.Int, Min: 0, Max: 3, Default: 2,
		Help: "cells of the minimax that forbids moves a nearby opponent can punish with our death (0: off)"},
	{Name: "time_ms", Kind: param.Int, Min: 0, Max: 10000, Default: 0,
		Help: "time limit per decision in milliseconds (0: none; a limit makes games depend on the machine)"},
	{Name: "game_ms", Kind: param.Int, Min: -1, Max: 600000, Default: 0,
		Help: "time budget per game in milliseconds, shared out over the decisions left, twice the share while a trail is out (0: none; -1: the runner's limits, MAX_EXECUTION_TIME per game and REQUEST_MAX_TIME per tick); with a budget, paths is only a cap"},
	{Name: "estimator", Kind: param.Int, Min: 0, Max: 2, Default: 0,
		Help: "how loops are compared: 0 value per tick; 1 the write-up's order (kills, then captured enemy cells, then time with nitro/slowdown counted as ticks, then points; points alone when no enemy cell is taken); 2 as 1 but value per tick when no enemy cell is taken"},
	{Name: "nitro_ticks", Kind: param.Float, Min: 0, Max: 300, Default: 30,
		Help: "ticks a nitro picked up on the path is worth (estimator 1, 2)"},
	{Name: "slow_ticks", Kind: param.Float, Min: 0, Max: 600, Default: 200,
		Help: "ticks a slowdown picked up on the path costs (estimator 1, 2)"},
	{Name: "empty_ticks", Kind: param.Int, Min: 0, Max: 1500, Default: 200,
		Help: "longest time a trail that takes no enemy cell may stay out before it is penalised (estimator 1; 0: no limit)"},
	{Name: "safe_walk", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: build paths step by step, never taking a cell that makes the trail reachable by an opponent before it can be home (the write-up's safe path builder); 0: draw the whole walk and check it at the end"},
	{Name: "end_close", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: a loop must close before the game's last tick"},
	{Name: "seek", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: with no safe loop, head for the nearest enemy cell (the nearest cell not ours when there is none) instead of the first allowed move"},
	{Name: "terr_life", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: own cells an opponent out of its territory takes by its shortest way home stop being home from the tick it can be back (the write-up's territory lifetime): coming back there closes no loop, and walking there starts a trail"},
	{Name: "kill_first", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: with estimator 0, a loop that cuts more opponents' trails before they can be home beats any that cuts fewer (the write-up's first rank), value per tick deciding among equals"},
	{Name: "keep_plan", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: the rest of the loop chosen at the last decision is checked and scored again alongside the new draws, so a safe plan is not lost when no draw finds it again"},
	{Name: "escape", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: with a trail out and no safe loop, take the first move whose shortest way home leaves the most time before an opponent can reach the trail, instead of the shortest way home"},
	{Name: "hunt", Kind: param.Int, Min: 0, Max: 2, Default: 0,
		Help: "1: before drawing loops, head by a shortest way for a cell of an opponent's trail that can be reached before that opponent can be home and before any opponent can reach the own trail or any cell of the way there (the cut kills it); 2: the same, but from home the cells of the own land on the way count only where they touch an opponent's land (elsewhere only a player with a trail can meet us there, and the longer trail dies)"},
	{Name: "time_pow", Kind: param.Float, Min: 0.2, Max: 1, Default: 1,
		Help: "power of the loop's time in the value per tick (value / (ticks + time_bias)^time_pow): below 1 favours bigger loops"},
	{Name: "w_saw", Kind: param.Float, Min: 0, Max: 5, Default: 0,
		Help: "weight of the points a saw picked up on the path is expected to score (estimator 0): SAW_KILL_SCORE for each opponent on the line it cuts ahead, SAW_SCORE for each other opponent whose territory the line crosses, if no opponent can reach it first; above 0 the shortest way to each saw (then home) is also scored alongside the draws (0: saws are worth nothing)"},
	{Name: "close_guard", Kind: param.Float, Min: 0, Max: 60, Default: 0,
		Help: "ticks after a loop closes during which no opponent may be able to reach the closing cell (heads closer than a cell kill the one with the longer trail, both when equal, and an opponent inside its territory has none; 0: off)"},
	{Name: "approach", Kind: param.Float, Min: 0, Max: 3, Default: 0,
		Help: "weight of the way from a path's last cell to the nearest enemy cell, in ticks at normal speed, added to the path's time when dividing its value (above 0 favours loops that end near enemy land, the next target; 0: off)"},
	{Name: "press", Kind: param.Int, Min: 0, Max: 200, Default: 0,
		Help: "with no trail out, head through the own land for the nearest cell of an opponent's trail once that trail is at least this many cells long: walking its own land a player has no trail to lose, and the opponent must close its loop early or be cut (0: off)"},
	{Name: "duel_forward", Kind: param.Float, Min: 0, Max: 1, Default: 0.7,
		Help: "forward in a game of two players"},
	{Name: "duel_max_len", Kind: param.Int, Min: 2, Max: 60, Default: 16,
		Help: "max_len in a game of two players"},
	{Name: "duel_margin", Kind: param.Float, Min: 0, Max: 60, Default: 2,
		Help: "margin in a game of two players"},
	{Name: "duel_time_bias", Kind: param.Float, Min: 0, Max: 100, Default: 30,
		Help: "time_bias in a game of two players"},
	{Name: "duel_w_enemy", Kind: param.Float, Min: 0, Max: 20, Default: 5,
		Help: "w_enemy in a game of two players"},
	{Name: "duel_approach", Kind: param.Float, Min: 0, Max: 3, Default: 0,
		Help: "approach in a game of two players"},
	{Name: "duel_close_guard", Kind: param.Float, Min: 0, Max: 60, Default: 0,
		Help: "close_guard in a game of two players"},
	{Name: "duel_press", Kind: param.Int, Min: 0, Max: 200, Default: 0,
		Help: "press in a game of two players"},
}

// Params2 are the parameters of paperpaths2, the successor: the same
// parameters with the write-up's choices as defaults, and five weights
// tuned in six-player self-play; a game of two players takes their duel_
// values, those before the tuning, approach, close_guard and press. Params keeps
// the previous defaults (the baseline), the same in duels.
//
// Its budget is the contest's: the runner's clock (game_ms=-1: 120 s a
// game, 5 s a tick) with paths as a cap. Where README's figures were
// measured the cap binds before the clock (about 40 s of a 1v1 game's
// 120), so games repeat exactly unless the machine is much slower; a pure
// path budget (game_ms=0, paths=120, the former defaults) repeats on any
// machine and is 100 times cheaper, for self-play and tuning.
var Params2 = withDefaults(Params, param.Values{
	"safe_walk": 1, "end_close": 1, "seek": 1, "keep_plan": 1, "game_ms": -1, "paths": 20000, "w_saw": 1,
	// Tuned in six-player games (gauntlet tune --fillers; README): longer
	// walks that turn more often (the write-up's forward was 0.9, max_len
	// 24 here), enemy cells worth four times as much, a longer time bias.
	"forward": 0.68, "max_len": 35, "margin": 2.66, "time_bias": 66.5, "w_enemy": 19.9,
	// In duels the values before that tuning: against the public contest
	// bots they won more duels than the tuned ones (README).
	"duel_forward": 0.9, "duel_max_len": 24, "duel_margin": 2, "duel_time_bias": 30, "duel_w_enemy": 5,
	// Loops that end near the opponent's land: in duels it won self-play
	// and turned duels against a public contest bot; among six players it
	// did not pay (README).
	"duel_approach": 1,
	// No loop closes on a cell the opponent can reach within 9 ticks of
	// the closing (a cell and the margin): a public contest bot steps into
	// the land where our loop is to close and wins the head-on meeting
	// there; among six players it did not pay (README).
	"duel_close_guard": 9,
	// From home, through the own land, head for the opponent's trail once
	// it is 15 cells long: a public contest bot's longest loops run deep
	// into our land while we are elsewhere, and it must close them early
	// when we come (README).
	"duel_press": 15,
})

func withDefaults(s param.Specs, d param.Values) param.Specs {
	out := make(param.Specs, len(s))
	copy(out, s)
	for i := range out {
		if v, ok := d[out[i].Name]; ok {
			out[i].Default = v
		}
	}
	return out
}

// horizon is how far ahead, in ticks, arrival maps are computed.
const horizon = 800

// Bot is a paperpaths player. It keeps its buffers between decisions and
// never mutates the state it is shown.
type Bot struct {
	rng           *rand.Rand
	weights               // in play: the first decision of a game of two replaces them with duel
	duel          weights // those of a game of two
	weighed       bool    // the game's weights are chosen (at the first decision)
	paths         int
	wNeutral      float64
	wKill         float64
	wNitro, wSlow float64
	wHome         float64
	life          int32
	lifeFloor     float64
	maxOut        int32
	depth         int
	timeLimit     time.Duration
	gameBudget    time.Duration // 0: none; negative: the runner's limits
	estimator     int
	nitroTicks    float64
	slowTicks     float64
	emptyTicks    int32
	safeWalk      bool
	endClose      bool
	seek          bool
	terrLife      bool
	killFirst     bool
	keepPlan      bool
	escape        bool
	hunt          int
	timePow       float64
	wSaw          float64

	spent   time.Duration           // time used by the decisions so far
	toHome  [paperio.NumCells]int32 // cells from the own territory, trails ignored
	toEnemy [paperio.NumCells]int32 // cells from the nearest enemy cell (approach)
	tickMin int32                   // fewest ticks a cell can take (nitro)
	left    int32                   // ticks left in the game

	st       *paperio.State // the state of this decision (survey), read only
	me       int            // our player ID
	arr      *arrivals
	arrive   [paperio.NumCells]int32 // earliest opponent arrival in ticks
	homeAt   [paperio.MaxPlayers]int32
	terrEnd  [paperio.NumCells]int32 // tick from now an own cell may be lost (terr_life), else unreached
	owner    [paperio.NumCells]int8  // 1 + index of the player whose trail holds the cell
	bonus    [paperio.NumCells]bonusCell
	dist     [paperio.NumCells]int32
	parent   [paperio.NumCells]paperio.Cell
	first    [paperio.NumCells]paperio.Dir // first move of the seek search
	goal     paperio.Cell                  // the own cell homeDist reached
	queue    [paperio.NumCells]paperio.Cell
	wayMin   [paperio.NumCells]int32 // earliest opponent arrival on the way to a cell (hunt)
	lines    []paperio.Cell
	walk     []paperio.Cell // cells of the last path drawn, from the one after the head
	plan     []paperio.Cell // walk of the loop chosen at the last decision (keep_plan)
	sawWays  []paperio.Cell // shortest ways to the saws on the map, one after another (w_saw)
	sawEnds  []int          // where each way in sawWays ends
	best     []paperio.Cell // walk of the best loop so far in this decision
	onPath   paperio.Bits
	sim      []*paperio.State
	forbiddn [dirSlots]bool
	pathsRun int   // paths drawn in the last decision
	fellBack bool  // the last decision found no safe loop
	slack    int32 // ticks between the last path's closing and the earliest arrival on its trail
}

var _ paperio.Bot = (*Bot)(nil)

// New builds a paperpaths bot from parameter values (Params, the previous
// defaults) and a seed.
func New(v param.Values, seed uint64) (*Bot, error) { return newBot(Params, v, seed) }

// New2 builds a paperpaths2 bot: the same bot with the defaults of Params2.
func New2(v param.Values, seed uint64) (*Bot, error) { return newBot(Params2, v, seed) }

func newBot(specs param.Specs, v param.Values, seed uint64) (*Bot, error) {
	v, err := specs.Validate(v)
	if err != nil {
		return nil, err
	}
	return &Bot{
		rng:        rand.New(rand.NewPCG(seed, 0x70617468)),
		weights:    readWeights(specs, v, ""),
		duel:       readWeights(specs, v, "duel_"),
		paths:      specs.Int(v, "paths"),
		wNeutral:   specs.Float(v, "w_neutral"),
		wKill:      specs.Float(v, "w_kill"),
		wNitro:     specs.Float(v, "w_nitro"),
		wSlow:      specs.Float(v, "w_slow"),
		wHome:      specs.Float(v, "w_home"),
		life:       int32(specs.Int(v, "life")),
		lifeFloor:  specs.Float(v, "life_floor"),
		maxOut:     int32(specs.Int(v, "max_out")),
		depth:      specs.Int(v, "depth"),
		timeLimit:  time.Duration(specs.Int(v, "time_ms")) * time.Millisecond,
		gameBudget: time.Duration(specs.Int(v, "game_ms")) * time.Millisecond,
		estimator:  specs.Int(v, "estimator"),
		nitroTicks: specs.Float(v, "nitro_ticks"),
		slowTicks:  specs.Float(v, "slow_ticks"),
		emptyTicks: int32(specs.Int(v, "empty_ticks")),
		safeWalk:   specs.Int(v, "safe_walk") == 1,
		endClose:   specs.Int(v, "end_close") == 1,
		seek:       specs.Int(v, "seek") == 1,
		terrLife:   specs.Int(v, "terr_life") == 1,
		killFirst:  specs.Int(v, "kill_first") == 1,
		keepPlan:   specs.Int(v, "keep_plan") == 1,
		escape:     specs.Int(v, "escape") == 1,
		hunt:       specs.Int(v, "hunt"),
		timePow:    specs.Float(v, "time_pow"),
		wSaw:       specs.Float(v, "w_saw"),
		arr:        new(arrivals),
		lines:      make([]paperio.Cell, 0, paperio.NumCells+1),
		walk:       make([]paperio.Cell, 0, paperio.NumCells+1),
		plan:       make([]paperio.Cell, 0, paperio.NumCells+1),
		sawWays:    make([]paperio.Cell, 0, paperio.MaxMapBonuses*(paperio.NumCells+1)),
		sawEnds:    make([]int, 0, paperio.MaxMapBonuses),
		best:       make([]paperio.Cell, 0, paperio.NumCells+1),
	}, nil
}

var dirs = [4]paperio.Dir{paperio.Up, paperio.Down, paperio.Left, paperio.Right}

// survey fills the arrival map (earliest tick any live opponent can stand
// on each cell), each opponent's earliest way home, the trail owners and
// the map bonuses.
func (b *Bot) survey(s *paperio.State, me int) {
	b.st, b.me = s, me
	for i := range b.arrive {
		b.arrive[i] = unreached
		b.owner[i] = 0
		b.bonus[i] = bonusCell{}
	}
	for _, mb := range s.MapBonuses() {
		k := bonusNone
		switch mb.Kind {
		case paperio.Nitro:
			k = bonusNitro
		case paperio.Slowdown:
			k = bonusSlow
		case paperio.Saw:
			k = bonusSaw
		}
		b.bonus[mb.Cell] = bonusCell{kind: k, active: int16(mb.Active)}
	}
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		b.homeAt[k] = unreached
		if !o.Alive || o.ID == me {
			continue
		}
		for _, c := range o.Trail() {
			b.owner[c] = int8(k + 1)
		}
		b.homeAt[k] = b.arr.run(o, s.Rules.Speed, &b.bonus, horizon)
		b.arr.minInto(&b.arrive)
	}
	if b.terrLife {
		b.territoryLife(s, me)
	}
}

// territoryLife fills terrEnd, after the write-up: every opponent with a
// trail out is sent home by a shortest way, and the own cells its capture
// would take are lost at the earliest tick it can be home.
func (b *Bot) territoryLife(s *paperio.State, me int) {
	for i := range b.terrEnd {
		b.terrEnd[i] = unreached
	}
	p := s.Player(me)
	if p == nil {
		return
	}
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == me || o.NLines == 0 || b.homeAt[k] >= unreached {
			continue
		}
		c := o.Cell()
		if c == paperio.NoCell {
			continue
		}
		b.lines = append(b.lines[:0], o.Trail()...)
		if !o.AtCentre() {
			n, ok := c.Step(o.Dir)
			if !ok {
				continue
			}
			c = n
			if !o.Terr.Has(c) {
				b.lines = append(b.lines, c)
			}
		}
		b.onPath = paperio.Bits{}
		if !o.Terr.Has(c) {
			// terrEnd holds only own cells, so ours(o, ...) is o's territory.
			if b.homeDist(o, c, o.Dir, 0, 0) < 0 {
				continue
			}
			n0 := len(b.lines)
			for x := b.goal; x != c; x = b.parent[x] {
				b.lines = append(b.lines, x)
			}
			slices.Reverse(b.lines[n0:])
		} else {
			b.lines = append(b.lines, c)
		}
		got := paperio.Capture(&o.Terr, b.lines)
		for j := range got {
			got[j] &= p.Terr[j]
		}
		for j, word := range got {
			for ; word != 0; word &= word - 1 {
				x := paperio.CellAt(bits.TrailingZeros32(word), j)
				b.terrEnd[x] = min(b.terrEnd[x], b.homeAt[k])
			}
		}
	}
}

// ours reports whether cell c is still own territory t ticks from now: in
// the territory, and (with terr_life) not lost by then.
func (b *Bot) ours(p *paperio.Player, c paperio.Cell, t int32) bool {
	return p.Terr.Has(c) && (!b.terrLife || t < b.terrEnd[c])
}

// homeDist is the length of a shortest way from c to the own territory
// avoiding the trail and the path cells, without reversing first (first is
// the direction that led to c); -1 when there is none. c is reached t0
// ticks from now and each further cell takes tick ticks: with terr_life, a
// cell lost by then is no way home.
func (b *Bot) homeDist(p *paperio.Player, c paperio.Cell, first paperio.Dir, t0, tick int32) int32 {
	if b.ours(p, c, t0) {
		b.goal = c
		return 0
	}
	for i := range b.dist {
		b.dist[i] = -1
	}
	b.dist[c] = 0
	qh, qt := 0, 0
	for _, d := range dirs {
		if d == first.Reverse() {
			continue
		}
		n, ok := c.Step(d)
		if !ok || p.TrailBits.Has(n) || b.onPath.Has(n) {
			continue
		}
		if b.ours(p, n, t0+tick) {
			b.goal, b.parent[n] = n, c
			return 1
		}
		b.dist[n] = 1
		b.parent[n] = c
		b.queue[qt] = n
		qt++
	}
	for qh < qt {
		x := b.queue[qh]
		qh++
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || p.TrailBits.Has(n) || b.onPath.Has(n) {
				continue
			}
			if b.ours(p, n, t0+(b.dist[x]+1)*tick) {
				b.goal, b.parent[n] = n, x
				return b.dist[x] + 1
			}
			b.dist[n] = b.dist[x] + 1
			b.parent[n] = x
			b.queue[qt] = n
			qt++
		}
	}
	return -1
}

// homeStep is the first direction of a shortest way home among the moves
// the minimax allows, or DirNone.
func (b *Bot) homeStep(p *paperio.Player, tick int32) paperio.Dir {
	best, bestD := paperio.DirNone, int32(unreached)
	head := p.Cell()
	b.onPath = paperio.Bits{}
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		n, _ := head.Step(d)
		h := b.homeDist(p, n, d, tick, tick)
		if h >= 0 && h < bestD {
			best, bestD = d, h
		}
	}
	return best
}

// weights are the parameters that take other values in a duel.
type weights struct {
	maxLen                                                  int
	forward, margin, timeBias, wEnemy, approach, closeGuard float64
	press                                                   int
}

// readWeights reads the weights from v, their names after prefix ("" for
// a game of more than two players, "duel_" for a game of two).
func readWeights(specs param.Specs, v param.Values, prefix string) weights {
	return weights{
		maxLen:     specs.Int(v, prefix+"max_len"),
		forward:    specs.Float(v, prefix+"forward"),
		margin:     specs.Float(v, prefix+"margin"),
		timeBias:   specs.Float(v, prefix+"time_bias"),
		wEnemy:     specs.Float(v, prefix+"w_enemy"),
		approach:   specs.Float(v, prefix+"approach"),
		closeGuard: specs.Float(v, prefix+"close_guard"),
		press:      specs.Int(v, prefix+"press"),
	}
}

// Command picks the direction of player id.
func (b *Bot) Command(s *paperio.State, id int) paperio.Dir {
	p := s.Player(id)
	if p == nil || !p.Alive {
		return paperio.DirNone
	}
	if !b.weighed {
		b.weighed = true
		if s.N == 2 {
			b.weights = b.duel
		}
	}
	start := time.Now()
	defer func() { b.spent += time.Since(start) }()
	limit := b.decisionLimit(s, p)
	deadline := start.Add(limit)
	b.survey(s, id)
	b.forbid(s, id, &b.forbiddn)
	var enemy paperio.Bits
	for k := 0; k < s.N; k++ {
		if o := &s.Players[k]; o.ID != id {
			enemy.Or(&o.Terr)
		}
	}
	head := p.Cell()
	trail := p.Trail()
	// The existing trail must stay safe until the loop closes.
	trailArrive := unreached
	for _, c := range trail {
		trailArrive = min(trailArrive, b.arrive[c])
	}
	pr := heldProfile(p)
	out := int32(len(trail)) * pr.ticks(s.Rules.Speed) // about how long the trail has been out
	b.left = int32(max(s.Rules.MaxTickCount-s.Tick, 0))
	if b.safeWalk {
		b.homeMap(p)
		b.tickMin = profile{nitro: 1}.ticks(s.Rules.Speed)
	}
	if b.approach > 0 {
		b.distMap(&enemy, &b.toEnemy)
	}
	if b.hunt > 0 {
		if d := b.huntStep(p, &enemy, trailArrive, pr.ticks(s.Rules.Speed)); d != paperio.DirNone {
			b.plan = b.plan[:0]
			b.fellBack = false
			return d
		}
	}
	if b.press > 0 && len(trail) == 0 {
		if d := b.pressStep(s, p); d != paperio.DirNone {
			b.plan = b.plan[:0]
			b.fellBack = false
			return d
		}
	}
	bestScore, bestDir := math.Inf(-1), paperio.DirNone
	b.pathsRun = 0
	b.best = b.best[:0]
	// try scores one loop (the script's cells then home, or a fresh draw
	// when script is nil) and keeps it if it is the best so far.
	try := func(script []paperio.Cell) {
		d0, score, ok := b.samplePath(s, p, head, trail, trailArrive, out, pr, &enemy, script)
		if ok && !b.forbiddn[d0] && score > bestScore {
			bestScore, bestDir = score, d0
			if b.keepPlan {
				b.best = append(b.best[:0], b.walk...)
			}
		}
	}
	if b.keepPlan && len(b.plan) > 1 && b.plan[0] == head {
		try(b.plan[1:]) // the rest of the last decision's loop, checked again
	}
	if b.wSaw > 0 {
		// The shortest way to each saw, then home.
		b.sawRoutes(s, p)
		from := 0
		for _, end := range b.sawEnds {
			try(b.sawWays[from:end])
			from = end
		}
	}
	for k := 0; k < b.paths; k++ {
		if limit > 0 && k&7 == 7 && time.Now().After(deadline) {
			break
		}
		b.pathsRun++
		try(nil)
	}
	b.fellBack = bestDir == paperio.DirNone
	b.plan, b.best = b.best, b.plan[:0]
	if bestDir != paperio.DirNone {
		return bestDir
	}
	if b.seek && len(trail) == 0 {
		if d := b.seekStep(p, &enemy); d != paperio.DirNone {
			return d
		}
	}
	if len(trail) > 0 && b.escape {
		if d := b.escapeStep(s, p, head, trail, trailArrive, out, pr, &enemy); d != paperio.DirNone {
			return d
		}
	}
	if len(trail) > 0 {
		if d := b.homeStep(p, pr.ticks(s.Rules.Speed)); d != paperio.DirNone {
			return d
		}
	}
	for _, d := range dirs { // anything legal the minimax allows, then anything legal
		if !b.forbiddn[d] && legalMove(p, d) {
			return d
		}
	}
	for _, d := range dirs {
		if legalMove(p, d) {
			return d
		}
	}
	return p.Dir
}

// samplePath draws one random loop from the head (or, with a script, walks
// the script's cells from the head and then a shortest way home) and scores
// it; ok is false for an unsafe or impossible loop. The cells walked are
// left in b.walk.
func (b *Bot) samplePath(s *paperio.State, p *paperio.Player, head paperio.Cell, trail []paperio.Cell, trailArrive, out int32, pr profile, enemy *paperio.Bits, script []paperio.Cell) (paperio.Dir, float64, bool) {
	b.onPath = paperio.Bits{}
	b.lines = append(b.lines[:0], trail...)
	b.walk = b.walk[:0]
	b.slack = -unreached
	base := s.Rules.Speed
	cur, dir := head, p.Dir
	first := paperio.DirNone
	var outLen int
	if script != nil {
		outLen = len(script)
	} else {
		outLen = 1 + b.rng.IntN(b.maxLen)
	}
	w := walker{pr: pr, at: head}
	inside := 0
	minArrive := trailArrive
	closed := false
	for i := 0; i < outLen; i++ {
		var d paperio.Dir
		var n paperio.Cell
		if script != nil {
			var ok bool
			n = script[i]
			if d, ok = dirTo(cur, n); !ok || d == dir.Reverse() && dir != paperio.DirNone ||
				p.TrailBits.Has(n) || b.onPath.Has(n) || first == paperio.DirNone && !p.CanTurn(d) {
				return 0, 0, false
			}
		} else if b.safeWalk {
			var ok bool
			d, n, ok = b.safeStep(p, cur, dir, &w, base, minArrive, len(b.lines) > 0, first == paperio.DirNone)
			if !ok {
				if first == paperio.DirNone {
					return 0, 0, false
				}
				break
			}
		} else {
			d = dir
			if d == paperio.DirNone || b.rng.Float64() >= b.forward {
				d = dirs[b.rng.IntN(4)]
			}
			if d == dir.Reverse() && dir != paperio.DirNone {
				d = dir
			}
			var ok bool
			n, ok = cur.Step(d)
			if !ok || p.TrailBits.Has(n) || b.onPath.Has(n) {
				// Try the other turns once before giving up on the walk.
				found := false
				for _, alt := range dirs {
					if alt == dir.Reverse() && dir != paperio.DirNone {
						continue
					}
					if m, ok2 := cur.Step(alt); ok2 && !p.TrailBits.Has(m) && !b.onPath.Has(m) {
						d, n, found = alt, m, true
						break
					}
				}
				if !found {
					return 0, 0, false
				}
			}
			if first == paperio.DirNone && !p.CanTurn(d) {
				return 0, 0, false
			}
		}
		if first == paperio.DirNone {
			first = d
		}
		w.step(b, n, base)
		b.walk = append(b.walk, n)
		cur, dir = n, d
		if b.ours(p, n, w.t) {
			if len(b.lines) > 0 {
				b.lines = append(b.lines, n)
				closed = true
				break
			}
			inside++
			continue
		}
		b.onPath.Set(n)
		b.lines = append(b.lines, n)
		minArrive = min(minArrive, b.arrive[n])
	}
	if first == paperio.DirNone {
		return 0, 0, false
	}
	if !closed && len(b.lines) > 0 {
		if b.homeDist(p, cur, dir, w.t, w.pr.ticks(base)) < 0 {
			return 0, 0, false
		}
		// Walk the way home (goal back to cur, reversed) with the timing.
		n0 := len(b.lines)
		for x := b.goal; x != cur; x = b.parent[x] {
			b.lines = append(b.lines, x)
		}
		slices.Reverse(b.lines[n0:])
		b.walk = append(b.walk, b.lines[n0:]...)
		for _, x := range b.lines[n0:] {
			w.step(b, x, base)
			if !b.ours(p, x, w.t) {
				minArrive = min(minArrive, b.arrive[x])
			}
		}
	}
	if len(b.lines) > 0 {
		b.slack = minArrive - w.t
	} else {
		b.slack = unreached
	}
	// A capture beats a cut in the same tick: an arrival at the closing
	// tick itself is safe.
	if len(b.lines) > 0 && float64(minArrive) < float64(w.t)+b.margin {
		return 0, 0, false
	}
	// Heads closer than a cell meet head on: an opponent that can be at
	// the closing cell soon after the loop closes can kill us there.
	if b.closeGuard > 0 && len(b.lines) > 0 && float64(b.arrive[b.lines[len(b.lines)-1]]) < float64(w.t)+b.closeGuard {
		return 0, 0, false
	}
	if b.maxOut > 0 && len(b.lines) > 0 && out+w.t > b.maxOut {
		return 0, 0, false
	}
	if b.endClose && len(b.lines) > 0 && w.t > b.left {
		return 0, 0, false
	}
	var value float64
	var got, enemyGot paperio.Bits
	if len(b.lines) >= 2 {
		got = paperio.Capture(&p.Terr, b.lines)
		enemyGot = got
		for j := range enemyGot {
			enemyGot[j] &= enemy[j]
		}
	}
	if b.estimator > 0 {
		if score, ok := b.ordered(s, &w, &got, &enemyGot, out, len(b.lines) > 0); ok {
			return first, score, true
		}
	}
	if len(b.lines) >= 2 {
		if b.life > 0 {
			value = b.lifeValue(&got, &enemyGot, w.t)
		} else {
			ne := got.Count() - enemyGot.Count()
			value = b.wNeutral*float64(ne) + b.wEnemy*float64(enemyGot.Count())
		}
	}
	for killed := w.killed; killed != 0; killed &= killed - 1 {
		value += b.wKill
	}
	value += b.wNitro*float64(w.nitro) - b.wSlow*float64(w.slow) + b.wSaw*w.saw
	value += b.wHome * float64(inside) / float64(b.maxLen)
	t := float64(w.t) + b.timeBias
	if b.approach > 0 && len(b.walk) > 0 {
		if d := b.toEnemy[b.walk[len(b.walk)-1]]; d != unreached {
			t += b.approach * float64(d*profile{}.ticks(base))
		}
	}
	score := value / t
	if b.timePow != 1 {
		score = value / math.Pow(t, b.timePow)
	}
	if b.estimator > 0 || b.killFirst {
		score += float64(bits.OnesCount8(w.killed)) * killRank
	}
	return first, score, true
}

// Ranks of the write-up's order (estimators 1 and 2): kills, then captured
// enemy cells, then effective time, then points. Each rank's largest
// possible total stays below the next one's unit.
const (
	killRank  = 1e12
	enemyRank = 1e8
	timeRank  = 1e4
)

// ordered scores a loop in the write-up's order: opponents killed first,
// then enemy cells captured, then the shortest effective time (the loop's
// ticks less nitro_ticks per nitro, plus slow_ticks per slowdown picked up),
// then the points. A loop that takes no enemy cell is scored by its points
// (estimator 1, with a penalty past empty_ticks out) or reported not ok
// for the value-per-tick score (estimator 2).
func (b *Bot) ordered(s *paperio.State, w *walker, got, enemyGot *paperio.Bits, out int32, hasTrail bool) (float64, bool) {
	kills := float64(bits.OnesCount8(w.killed))
	ne := enemyGot.Count()
	r := &s.Rules
	points := float64((got.Count()-ne)*r.NeutralTerritoryScore+ne*r.EnemyTerritoryScore) + kills*float64(r.LineKillScore)
	if ne > 0 {
		t := max(float64(w.t)-b.nitroTicks*float64(w.nitro)+b.slowTicks*float64(w.slow), 0)
		return kills*killRank + float64(ne)*enemyRank - t*timeRank + points, true
	}
	if b.estimator == 2 {
		return 0, false
	}
	score := kills*killRank + points + b.nitroTicks/10*float64(w.nitro) - b.slowTicks/10*float64(w.slow)
	if b.emptyTicks > 0 && hasTrail && out+w.t > b.emptyTicks {
		score -= float64(out+w.t-b.emptyTicks) * 10
	}
	return score, true
}

// safeStep picks the next cell of a safe walk from cur (moving in dir):
// straight on with probability forward, else a side turn first (the other
// side, then straight on, next), skipping cells off the map, on the own
// trail or the path, forbidden first moves, and cells after which the
// trail (when there is one, or the walk leaves the territory) could no
// longer be home before an opponent reaches it: the time at the cell plus
// the shortest way home at nitro speed, plus the margin, must not pass the
// earliest opponent arrival on the trail (nor the game's end, with
// end_close).
func (b *Bot) safeStep(p *paperio.Player, cur paperio.Cell, dir paperio.Dir, w *walker, base int, minArrive int32, hasTrail, firstMove bool) (paperio.Dir, paperio.Cell, bool) {
	var order [4]paperio.Dir
	n := 0
	if dir == paperio.DirNone {
		order = dirs
		for i := 3; i > 0; i-- {
			j := b.rng.IntN(i + 1)
			order[i], order[j] = order[j], order[i]
		}
		n = 4
	} else {
		l, r := sides(dir)
		if b.rng.IntN(2) == 0 {
			l, r = r, l
		}
		if b.rng.Float64() < b.forward {
			order[0], order[1], order[2] = dir, l, r
		} else {
			order[0], order[1], order[2] = l, r, dir
		}
		n = 3
	}
	tn := w.t + w.pr.ticks(base)
	for _, d := range order[:n] {
		if firstMove && (b.forbiddn[d] || !p.CanTurn(d)) {
			continue
		}
		c, ok := cur.Step(d)
		if !ok || p.TrailBits.Has(c) || b.onPath.Has(c) {
			continue
		}
		home := b.ours(p, c, tn)
		if !hasTrail && home {
			return d, c, true // walking inside the territory
		}
		lim := minArrive
		if !home {
			lim = min(lim, b.arrive[c])
		}
		if b.endClose {
			lim = min(lim, b.left)
		}
		if float64(tn+b.toHome[c]*b.tickMin)+b.margin > float64(lim) {
			continue
		}
		return d, c, true
	}
	return 0, 0, false
}

// escapeStep is, with a trail out and no safe loop, the allowed first move
// whose shortest way home leaves the most ticks between closing the loop
// and the earliest opponent arrival on the trail, or DirNone.
func (b *Bot) escapeStep(s *paperio.State, p *paperio.Player, head paperio.Cell, trail []paperio.Cell, trailArrive, out int32, pr profile, enemy *paperio.Bits) paperio.Dir {
	best, bestSlack := paperio.DirNone, -unreached
	var step [1]paperio.Cell
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		step[0], _ = head.Step(d)
		b.samplePath(s, p, head, trail, trailArrive, out, pr, enemy, step[:])
		if b.slack > bestSlack {
			best, bestSlack = d, b.slack
		}
	}
	return best
}

// dirTo is the direction from c to its 4-neighbour n; ok is false when n
// is not one.
func dirTo(c, n paperio.Cell) (paperio.Dir, bool) {
	for _, d := range dirs {
		if m, ok := c.Step(d); ok && m == n {
			return d, true
		}
	}
	return paperio.DirNone, false
}

// sides are the two directions square to d.
func sides(d paperio.Dir) (paperio.Dir, paperio.Dir) {
	if d == paperio.Up || d == paperio.Down {
		return paperio.Left, paperio.Right
	}
	return paperio.Up, paperio.Down
}

// lifeValue values the cells a loop closing at tick t captures by their
// expected lifetime as ours: a cell that no opponent can reach within life
// ticks of the capture counts in full, one that an opponent reaches sooner
// counts between lifeFloor and 1, in proportion to the time it stays out
// of reach (the arrival map is the estimate).
func (b *Bot) lifeValue(got, enemyGot *paperio.Bits, t int32) float64 {
	var v float64
	for j, word := range got {
		for ; word != 0; word &= word - 1 {
			i := bits.TrailingZeros32(word)
			c := paperio.CellAt(i, j)
			w := b.wNeutral
			if enemyGot[j]>>uint(i)&1 != 0 {
				w = b.wEnemy
			}
			if left := b.arrive[c] - t; left < b.life {
				f := float64(max(left, 0)) / float64(b.life)
				w *= b.lifeFloor + (1-b.lifeFloor)*f
			}
			v += w
		}
	}
	return v
}

// walker times a path cell by cell and counts what it meets.
type walker struct {
	t           int32        // ticks from now to reach the last cell
	pr          profile      // own speed profile from there
	at          paperio.Cell // the last cell reached
	nitro, slow int          // bonuses picked up
	saw         float64      // points the saws picked up are expected to score (w_saw > 0)
	killed      uint8        // opponents (bit k-1) whose trail the path cuts before they can be home
}

// step moves to the next cell n.
func (w *walker) step(b *Bot, n paperio.Cell, base int) {
	tick := w.pr.ticks(base)
	w.t += tick
	w.pr = w.pr.arrive(b.bonus[n])
	switch b.bonus[n].kind {
	case bonusNitro:
		w.nitro++
	case bonusSlow:
		w.slow++
	case bonusSaw:
		if d, ok := dirTo(w.at, n); ok && b.wSaw > 0 && w.t < b.arrive[n] {
			w.saw += b.sawPoints(n, d, w.t, tick)
		}
	}
	w.at = n
	if o := b.owner[n]; o > 0 && w.t < b.homeAt[o-1] {
		w.killed |= 1 << (o - 1)
	}
}

// sawPoints is what a saw picked up at cell c moving in direction d, t
// ticks from now, is expected to score, after the referee's strike along
// the line ahead of c: the saw kill score for each opponent on that line
// now that is still there then (moving along the line, or the saw within
// a cell's time, tick, of now), the saw score for each other opponent
// whose territory the line crosses (it loses what lies beyond). The
// opponents are taken where they stand now.
func (b *Bot) sawPoints(c paperio.Cell, d paperio.Dir, t, tick int32) float64 {
	s := b.st
	pts := 0
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == b.me {
			continue
		}
		oc := o.Cell()
		stays := t <= tick || o.Dir == d || o.Dir == d.Reverse()
		hit, crosses := false, false
		for x, ok := c.Step(d); ok; x, ok = x.Step(d) {
			hit = hit || x == oc && stays
			crosses = crosses || o.Terr.Has(x)
		}
		switch {
		case hit:
			pts += s.Rules.SawKillScore
		case crosses:
			pts += s.Rules.SawScore
		}
	}
	return float64(pts)
}

// sawRoutes fills sawWays and sawEnds with a shortest way from the head
// to each saw on the map (reach), each way's cells after the head.
func (b *Bot) sawRoutes(s *paperio.State, p *paperio.Player) {
	b.sawWays, b.sawEnds = b.sawWays[:0], b.sawEnds[:0]
	if !slices.ContainsFunc(s.MapBonuses(), func(mb paperio.MapBonus) bool { return mb.Kind == paperio.Saw }) {
		return
	}
	b.reach(p)
	head := p.Cell()
	for _, mb := range s.MapBonuses() {
		if mb.Kind != paperio.Saw || b.dist[mb.Cell] <= 0 {
			continue
		}
		n0 := len(b.sawWays)
		for x := mb.Cell; x != head; x = b.parent[x] {
			b.sawWays = append(b.sawWays, x)
		}
		slices.Reverse(b.sawWays[n0:])
		b.sawEnds = append(b.sawEnds, len(b.sawWays))
	}
}

// decisionLimit is the time this decision may take (0: no limit): the
// per-decision limit, and with a game budget the budget left shared out
// over the decisions left (one a cell at nitro speed, so an upper count),
// doubled while a trail is out, where a choice costs most.
func (b *Bot) decisionLimit(s *paperio.State, p *paperio.Player) time.Duration {
	limit, game := b.timeLimit, b.gameBudget
	if game < 0 {
		game = s.Rules.MaxExecutionTime
		if limit == 0 {
			limit = s.Rules.RequestMaxTime
		}
	}
	if game <= 0 {
		return limit
	}
	cells := max(1, (s.Rules.MaxTickCount-s.Tick)/int(profile{nitro: 1}.ticks(s.Rules.Speed)))
	// A tenth of the budget is kept for the referee's side and the maps.
	share := max(game*9/10-b.spent, 0) / time.Duration(cells)
	if p.NLines > 0 {
		share *= 2
	}
	share = max(share, time.Microsecond)
	if limit == 0 || share < limit {
		limit = share
	}
	return limit
}

// homeMap fills toHome: the distance in cells from each cell to the own
// territory, trails ignored (a lower bound on the way home).
func (b *Bot) homeMap(p *paperio.Player) { b.distMap(&p.Terr, &b.toHome) }

// distMap fills dist with the distance in cells from each cell to the
// nearest cell of set, trails ignored (unreached everywhere when set is
// empty).
func (b *Bot) distMap(set *paperio.Bits, dist *[paperio.NumCells]int32) {
	qt := 0
	for c := range dist {
		dist[c] = unreached
		if set.Has(paperio.Cell(c)) {
			dist[c] = 0
			b.queue[qt] = paperio.Cell(c)
			qt++
		}
	}
	for qh := 0; qh < qt; qh++ {
		x := b.queue[qh]
		for _, d := range dirs {
			if n, ok := x.Step(d); ok && dist[n] == unreached {
				dist[n] = dist[x] + 1
				b.queue[qt] = n
				qt++
			}
		}
	}
}

// seekStep is the first allowed move of a shortest way to the nearest
// enemy cell (to the nearest cell not ours when no enemy cell is left),
// or DirNone.
func (b *Bot) seekStep(p *paperio.Player, enemy *paperio.Bits) paperio.Dir {
	target := func(c paperio.Cell) bool { return enemy.Has(c) }
	if enemy.Count() == 0 {
		target = func(c paperio.Cell) bool { return !p.Terr.Has(c) }
	}
	for _, x := range b.reach(p) {
		if target(x) {
			return b.first[x]
		}
	}
	return paperio.DirNone
}

// reach is a breadth-first search from the head over the cells off the
// own trail (see search).
func (b *Bot) reach(p *paperio.Player) []paperio.Cell {
	return b.search(p, func(c paperio.Cell) bool { return !p.TrailBits.Has(c) }, nil)
}

// search is a breadth-first search from the head over the cells walk
// admits, its first moves those the minimax allows: it fills dist (-1
// where not reached), parent and first (the first move of the way) and
// returns the cells reached after the head, nearest first, up to the first
// cell goal reports (with goal nil, all of them).
func (b *Bot) search(p *paperio.Player, walk, goal func(paperio.Cell) bool) []paperio.Cell {
	for i := range b.dist {
		b.dist[i] = -1
	}
	head := p.Cell()
	b.dist[head] = 0
	qt := 0
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		n, _ := head.Step(d)
		if !walk(n) {
			continue
		}
		b.dist[n], b.parent[n], b.first[n] = 1, head, d
		b.queue[qt] = n
		qt++
		if goal != nil && goal(n) {
			return b.queue[:qt]
		}
	}
	for qh := 0; qh < qt; qh++ {
		x := b.queue[qh]
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || !walk(n) {
				continue
			}
			b.dist[n], b.parent[n], b.first[n] = b.dist[x]+1, x, b.first[x]
			b.queue[qt] = n
			qt++
			if goal != nil && goal(n) {
				return b.queue[:qt]
			}
		}
	}
	return b.queue[:qt]
}

// huntStep is the first allowed move of a shortest way (at the current
// speed) to a cell of an opponent's trail that is reached before that
// opponent can be home, with the margin, and before any opponent can reach
// the own trail or any cell of the way, inside the own territory too (a
// head-on meeting there can still kill); DirNone when there is none.
// Entering the cell cuts the trail: the opponent dies.
//
// With hunt=2 and no trail out, a cell of the own land on the way is a
// risk only where it touches an opponent's land (enemy): heads closer than
// a cell kill the longer trail, both when equal, and walking on our land we
// have none, so only a player standing in its own land can kill us there.
// hunt=1 counts every cell of the way, which keeps the bot from cutting an
// opponent that is deep in our land whenever that opponent's head is near
// its own trail, as it always is.
func (b *Bot) huntStep(p *paperio.Player, enemy *paperio.Bits, trailArrive, tick int32) paperio.Dir {
	for i := range b.dist {
		b.dist[i] = -1
	}
	home := b.hunt == 2 && p.NLines == 0
	risk := func(c paperio.Cell) int32 {
		if home && p.Terr.Has(c) && !touches(c, enemy) {
			return unreached
		}
		return b.arrive[c]
	}
	head := p.Cell()
	b.dist[head] = 0
	qt := 0
	margin := int32(math.Ceil(b.margin))
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		n, _ := head.Step(d)
		b.dist[n] = 1
		b.first[n] = d
		b.wayMin[n] = min(trailArrive, risk(n))
		b.queue[qt] = n
		qt++
	}
	for qh := 0; qh < qt; qh++ {
		x := b.queue[qh]
		t := b.dist[x] * tick
		if t+margin > b.wayMin[x] {
			continue // an opponent can cut the way before it gets here
		}
		if o := b.owner[x]; o > 0 && t+margin < b.homeAt[o-1] {
			return b.first[x]
		}
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || p.TrailBits.Has(n) {
				continue
			}
			b.dist[n] = b.dist[x] + 1
			b.first[n] = b.first[x]
			b.wayMin[n] = min(b.wayMin[x], risk(n))
			b.queue[qt] = n
			qt++
		}
	}
	return paperio.DirNone
}

// pressStep is the first allowed move of a shortest way through the own
// land to a cell of an opponent's trail of at least press cells (press),
// for a player with no trail out; DirNone when there is none. Walking its
// own land a player has no trail: a head-on meeting there kills the longer
// trail, so the way is safe, and an opponent whose trail it nears must
// close its loop early or be cut.
func (b *Bot) pressStep(s *paperio.State, p *paperio.Player) paperio.Dir {
	long := func(c paperio.Cell) bool {
		o := b.owner[c]
		return o > 0 && s.Players[o-1].NLines >= b.press
	}
	way := b.search(p, func(c paperio.Cell) bool { return p.Terr.Has(c) || long(c) }, long)
	if len(way) == 0 || !long(way[len(way)-1]) {
		return paperio.DirNone
	}
	return b.first[way[len(way)-1]]
}

// touches reports whether a side neighbour of c is in set.
func touches(c paperio.Cell, set *paperio.Bits) bool {
	for _, d := range dirs {
		if n, ok := c.Step(d); ok && set.Has(n) {
			return true
		}
	}
	return false
}
