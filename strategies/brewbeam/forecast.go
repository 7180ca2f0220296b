package brewbeam

import "gauntlet/referees/brew"

// forecast is what the opponent's predicted play means for our lines.
type forecast struct {
	goneAt  [maxDepth + 2]uint32 // the orders it has brewed before our action index d
	finalAt [maxDepth + 2]int32  // its final score if the game ends after our first d actions
	end     int                  // our lines end after this many actions (it ends the game then); 0: never
}

// maxAlt is the most forecasts beside the best that opp_lines asks for.
const maxAlt = 3

// oppNow is opponent model 1: the best order the opponent can brew now is
// gone from our second action on, and if that brew ends the game, our
// lines end after one action.
func (b *Beam) oppNow(s *brew.State, op *brew.PlayerState) {
	r := &b.r
	best, bestPrice := -1, int32(-1)
	for q := 0; q < r.nOrders; q++ {
		c := &r.cost[q]
		if op.Inv[0] >= c[0] && op.Inv[1] >= c[1] && op.Inv[2] >= c[2] && op.Inv[3] >= c[3] {
			if p := s.OrderPrice(q); p > bestPrice {
				best, bestPrice = q, p
			}
		}
	}
	if best < 0 {
		return
	}
	for d := 1; d < len(r.opp.goneAt); d++ {
		r.opp.goneAt[d] = 1 << uint(best)
	}
	if r.endsGame(op, 1) {
		r.opp.end = 1
		r.horizon = 1
		c := &r.cost[best]
		final := op.Score + bestPrice + op.Inv[1] - c[1] + op.Inv[2] - c[2] + op.Inv[3] - c[3]
		for d := 1; d < len(r.opp.finalAt); d++ {
			r.opp.finalAt[d] = final
		}
	}
}

// oppSearch is opponent model 2: a beam search from the opponent's seat
// (ignoring us) predicts the turn of each of its brews. An order it brews
// with its action i is gone for our actions after i and its price counts
// in the opponent's final score from then on (its ingredients estimated as
// those it holds less what its brews cost); a brew that reaches the goal
// ends our lines at the same turn, against the exact final score of the
// opponent's line.
//
// With opp_deny, when that game-ending brew comes after the opponent's
// first action, a second search predicts its play without the order it
// takes: the forecast for our lines that brew that order first.
func (b *Beam) oppSearch(s *brew.State, me int) {
	r := &b.r
	now := r.opp // the opponent's score now, at every depth
	order, last := b.forecast(s, me, 0, &r.opp)
	if b.cfg.oppLines > 1 && b.opp.stats.Depth > 0 {
		b.altForecasts(&s.P[1-me], now)
	}
	if r.opp.end == 0 {
		return
	}
	r.horizon = r.horizonOf(&r.opp)
	if !b.cfg.oppDeny || last == 0 {
		return
	}
	r.denyOrder, r.denyBefore = order, last
	r.deny = now
	b.forecast(s, me, 1<<uint(order), &r.deny)
	r.horizon = max(r.horizon, r.horizonOf(&r.deny))
}

// horizonOf is how deep our lines go against forecast f: the full horizon,
// or less where the opponent's predicted play ends the game sooner.
func (r *root) horizonOf(f *forecast) int {
	if f.end > 0 {
		return min(r.full, f.end)
	}
	return r.full
}

// forecast runs the opponent's search with the orders of gone taken from
// the start and fills f (which holds the opponent's score now) from its
// best line. It returns the order and the action index of the line's last
// brew (-1, -1 without one).
func (b *Beam) forecast(s *brew.State, me int, gone uint32, f *forecast) (order, last int) {
	o := b.opp
	o.stats = Stats{}
	o.prepare(s, 1-me)
	for d := range o.r.opp.goneAt {
		o.r.opp.goneAt[d] = gone
	}
	// Its game-ending lines are won or lost against our score were the
	// game to end now (prepare sets it), or, with opp_judge, against our
	// points alone or against nothing: the public bots measured end the
	// game as soon as they can, whatever the score.
	switch b.cfg.oppJudge {
	case 1:
		for d := range o.r.opp.finalAt {
			o.r.opp.finalAt[d] = s.P[me].Score
		}
	case 2:
		for d := range o.r.opp.finalAt {
			o.r.opp.finalAt[d] = -1
		}
	}
	o.search(s, 1-me)
	b.stats.OppNodes += o.stats.Nodes
	if o.stats.Depth == 0 {
		return -1, -1
	}
	return b.fillForecast(&o.best, o.bestAt, &s.P[1-me], f)
}

// fillForecast fills f (which holds the opponent's score now) from the
// opponent's line ending in n, at index at of its search's last layer,
// and returns the order and the action index of the line's last brew
// (-1, -1 without one).
func (b *Beam) fillForecast(n *node, at int, op *brew.PlayerState, f *forecast) (order, last int) {
	r := &b.r
	hist := n.hist
	order, last = -1, -1
	brews := int32(0)
	for q := 0; q < r.nOrders; q++ {
		i := brewIndex(hist, q)
		if i < 0 {
			continue
		}
		brews++
		if i > last {
			order, last = q, i
		}
		c := &r.cost[q]
		for d := i + 1; d < len(f.goneAt); d++ {
			f.goneAt[d] |= 1 << uint(q)
			f.finalAt[d] += r.price[q] - c[1] - c[2] - c[3]
		}
	}
	for d := range f.finalAt {
		f.finalAt[d] = max(f.finalAt[d], op.Score)
	}
	if b.cfg.oppFinal {
		// The line's own points and ingredients at each depth, its casts'
		// gains included; past its end they stay as they were there.
		var pts [maxDepth + 2]int32
		depth := b.opp.linePoints(at, &pts)
		for d := 1; d < len(f.finalAt); d++ {
			f.finalAt[d] = op.Score + pts[min(d, depth)]
		}
	}
	if r.endsGame(op, brews) {
		// The line ends there, so its final state is the game's end: its
		// points and ingredients are exact.
		f.end = last + 1
		final := op.Score + endPoints(n.a, n.b)
		for d := f.end; d < len(f.finalAt); d++ {
			f.finalAt[d] = final
		}
	}
	return order, last
}

// lineKey returns a key of the opponent's line ending in n, op its state
// now: the order and action index of the line's first brew, and the
// action index of its last where that brew ends the game (0 where there
// is none).
func (r *root) lineKey(n *node, op *brew.PlayerState) uint32 {
	key, first, last, brews := uint32(0), 1<<histBits, -1, int32(0)
	for q := 0; q < r.nOrders; q++ {
		i := brewIndex(n.hist, q)
		if i < 0 {
			continue
		}
		brews++
		last = max(last, i)
		if i < first {
			key, first = uint32(q+1)|uint32(i+1)<<8, i
		}
	}
	if r.endsGame(op, brews) {
		key |= uint32(last+1) << lineEndShift
	}
	return key
}

// lineEndShift is where lineKey puts the index of a game-ending brew,
// above the first brew's order and index.
const lineEndShift = 16

// endsGame reports whether brews more potions bring the opponent, op its
// state now, to the goal.
func (r *root) endsGame(op *brew.PlayerState, brews int32) bool {
	return brews > 0 && op.Deliveries+brews >= r.goal
}

// altForecasts fills r.alt from the opponent's search just run: its best
// lines whose first brew or game-ending brew differs from the best line's
// and each other's.
func (b *Beam) altForecasts(op *brew.PlayerState, now forecast) {
	r := &b.r
	o := b.opp
	var keys [maxAlt + 1]uint32
	keys[0] = r.lineKey(&o.best, op)
	r.nAlt = 0
	for r.nAlt < b.cfg.oppLines-1 {
		best, bestKey := -1, uint32(0)
	scan:
		for i := range o.cur {
			k := r.lineKey(&o.cur[i], op)
			for _, used := range keys[:r.nAlt+1] {
				if k == used {
					continue scan
				}
			}
			if best < 0 || o.cur[i].eval > o.cur[best].eval {
				best, bestKey = i, k
			}
		}
		if best < 0 {
			return
		}
		keys[r.nAlt+1] = bestKey
		r.alt[r.nAlt] = now
		b.fillForecast(&o.cur[best], best, op, &r.alt[r.nAlt])
		r.nAlt++
	}
}

// forecastFor returns the forecast of the opponent's play that holds for
// a line of state a and brew history hist.
func (r *root) forecastFor(a uint64, hist uint32) *forecast {
	if r.denyBefore > 0 && brewedOf(a)&(1<<uint(r.denyOrder)) != 0 && brewIndex(hist, r.denyOrder) < r.denyBefore {
		return &r.deny
	}
	return &r.opp
}
