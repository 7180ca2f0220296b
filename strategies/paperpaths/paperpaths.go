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
// within depth cells; an opponent far away counts too when it may take a
// saw within reach (a capture takes the saws it encloses, and the strike
// runs along the whole row or column ahead of where the loop closed); a
// strike that takes our last land is our death, as the referee records it
// a tick later. The budget is a number of paths per decision, so
// games are reproducible given the seed; an optional time limit per
// decision trades that for speed.
//
// Params2 (paperpaths2) turns on what the write-up adds: paths built step by
// step that never take a cell after which the trail could no longer close
// before an opponent arrives (forward first with probability forward), loops
// that must close before the game ends, the nearest enemy cell sought when no
// loop is safe, saws valued by what their strike scores and the shortest way to
// each tried as a loop (w_saw), and (not in the write-up) the rest of the last
// decision's loop checked again alongside the new draws (keep_plan); optionally
// the write-up's loop order (kills, enemy cells, time, points) or its kills
// first alone (kill_first), its territory lifetime (terr_life: own cells the
// capture of an opponent out takes, were it to go home by a shortest way, are
// no home from the tick it can be back; with terr_detour by any way up to that
// many cells longer, each from the tick it can be back by it), the way home
// that leaves the opponents the most time when no loop is safe (escape), a
// shortest way to an opponent's trail that can be cut before it is home (hunt),
// a power on the loop's time in its value per tick (time_pow), the way from a
// loop's end to the nearest enemy land counted in its time (approach), a walk
// through the own land to an opponent's long trail from home (press), a
// per-game time budget shared out over the decisions left, a guard on the
// closing cell against the opponents that can reach it by the closing
// (close_guard, counting only those with no trail out with close_guard_bare;
// close_guard_out for those that would meet our head there with a trail no
// longer than ours, in the last cell before the closing), no path that stands
// in the cells an opponent's capture takes when it can close its loop
// (eat_guard: a head inside a capture is eaten), a call home when an opponent's
// long trail runs through the own land (defend: the safe loop that closes
// soonest, then the press from home), a loop into the enemy land taken in place
// of the press when it captures enough of it (raid), every loop of one or
// two straight legs scored beside the draws (legs), a loop's value lessened by
// the own land it leaves open to an opponent's loop while our head is away
// (exposed; exposed_timed: by the tick; exposed_end: in the game's last ticks
// only), a call home when an opponent's way home would take enough of the own
// land (threat), loops compared by their value alone in the game's last ticks
// (end_ticks, end_pow), and twenty-three weights of their own in a game of two
// players (duel_forward, duel_max_len, duel_margin, duel_time_bias,
// duel_w_enemy, duel_approach, duel_close_guard, duel_close_guard_bare,
// duel_close_guard_out, duel_press, duel_estimator, duel_terr_life,
// duel_terr_detour, duel_eat_guard, duel_defend, duel_raid, duel_threat,
// duel_legs, duel_exposed, duel_exposed_timed, duel_exposed_end,
// duel_end_ticks, duel_end_pow).
// Params keeps the previous defaults.
package paperpaths

import (
	"math"
	"math/rand/v2"
	"time"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// Bot is a paperpaths player. It keeps its buffers between decisions and
// never mutates the state it is shown.
type Bot struct {
	rng      *rand.Rand
	weights                // in play: the first decision of a game of two replaces them with duel
	duel     weights       // those of a game of two
	weighed  bool          // the game's weights are chosen (at the first decision)
	options                // the other parameters
	spent    time.Duration // time used by the decisions so far
	cellMaps               // what the survey of this decision found (survey.go)
	ways                   // buffers of the breadth-first searches (ways.go)

	lines    []paperio.Cell
	walk     []paperio.Cell // cells of the last path drawn, from the one after the head
	walkAt   []int32        // the tick from now the head gets to each cell of walk
	plan     []paperio.Cell // walk of the loop chosen at the last decision (keep_plan)
	sawWays  []paperio.Cell // shortest ways to the saws on the map, one after another (w_saw)
	sawEnds  []int          // where each way in sawWays ends
	script   []paperio.Cell // the straight legs being scored (legs)
	best     []paperio.Cell // walk of the best loop so far in this decision
	onPath   paperio.Bits
	sim      []*paperio.State
	forbiddn [dirSlots]bool
	pathsRun int     // paths drawn in the last decision
	fellBack bool    // the last decision found no safe loop
	rush     bool    // this decision takes the safe loop that closes soonest (defend, threat)
	slack    int32   // ticks between the last path's closing and the earliest arrival on its trail
	taken    int     // enemy cells the last path drawn captures
	expose   float64 // exposed in this decision: 0 before the last exposed_end ticks
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
		rng:      rand.New(rand.NewPCG(seed, 0x70617468)),
		weights:  readWeights(specs, v, ""),
		duel:     readWeights(specs, v, "duel_"),
		options:  readOptions(specs, v),
		cellMaps: cellMaps{arr: new(arrivals)},
		lines:    make([]paperio.Cell, 0, paperio.NumCells+1),
		walk:     make([]paperio.Cell, 0, paperio.NumCells+1),
		plan:     make([]paperio.Cell, 0, paperio.NumCells+1),
		sawWays:  make([]paperio.Cell, 0, paperio.MaxMapBonuses*(paperio.NumCells+1)),
		sawEnds:  make([]int, 0, paperio.MaxMapBonuses),
		script:   make([]paperio.Cell, 0, 2*paperio.Cols),
		best:     make([]paperio.Cell, 0, paperio.NumCells+1),
	}, nil
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
	b.expose = b.exposed
	if b.exposedEnd > 0 && b.left > b.exposedEnd {
		b.expose = 0
	}
	if b.approach > 0 || b.expose > 0 {
		b.distMap(&enemy, &b.toEnemy)
	}
	if b.expose > 0 {
		b.exposureMap(p, profile{}.ticks(s.Rules.Speed))
	}
	if b.hunt > 0 {
		if d := b.huntStep(p, &enemy, trailArrive, pr.ticks(s.Rules.Speed)); d != paperio.DirNone {
			return b.offPlan(d)
		}
	}
	press := b.press
	b.rush = false
	if b.defend > 0 && b.raided(s, p) {
		// A raid on our land: come home by the loop that closes soonest,
		// and from home press the raiding trail.
		b.rush = len(trail) > 0
		if press == 0 || b.defend < press {
			press = b.defend
		}
	} else if b.threat > 0 && b.threatened() >= b.threat {
		// A loop that can close round our land: the same, pressing any
		// trail.
		b.rush = len(trail) > 0
		press = 1
	}
	pressDir := paperio.DirNone
	if press > 0 && len(trail) == 0 {
		pressDir = b.pressStep(s, p, press)
		if pressDir != paperio.DirNone && b.raid == 0 {
			return b.offPlan(pressDir)
		}
	}
	bestScore, bestDir, bestTaken := math.Inf(-1), paperio.DirNone, 0
	b.pathsRun = 0
	b.best = b.best[:0]
	// try scores one loop (the script's cells then home, or a fresh draw
	// when script is nil) and keeps it if it is the best so far.
	try := func(script []paperio.Cell) {
		d0, score, ok := b.samplePath(s, p, head, trail, trailArrive, out, pr, &enemy, script)
		if ok && !b.forbiddn[d0] && score > bestScore {
			bestScore, bestDir, bestTaken = score, d0, b.taken
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
	if b.weights.legs > 0 {
		b.tryLegs(p, head, b.weights.legs, try)
	}
	for k := 0; k < b.paths; k++ {
		if limit > 0 && k&7 == 7 && time.Now().After(deadline) {
			break
		}
		b.pathsRun++
		try(nil)
	}
	if pressDir != paperio.DirNone && (bestDir == paperio.DirNone || bestTaken < b.raid) {
		// No loop takes enough of the pressed opponent's land (raid).
		return b.offPlan(pressDir)
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

// offPlan returns d, a step that follows no loop (the hunt or the press):
// the next decision has no plan to check again and did not fall back.
func (b *Bot) offPlan(d paperio.Dir) paperio.Dir {
	b.plan = b.plan[:0]
	b.fellBack = false
	return d
}
