// Package brewbeam is a beam-search strategy for the brew game (Witches'
// Brew). Each turn it searches lines of its own actions (BREW, CAST, REST
// and, in the first rounds, LEARN) a fixed number of turns ahead, keeping
// the best states of each depth by a weighted evaluation and merging states
// reached by different action orders. The opponent is modelled cheaply: an
// order it can brew now is assumed gone after the first turn, and a brew
// that ends the game for it ends the search.
//
// The search state is two machine words (see node.go), the hash set and the
// layers are reused from turn to turn, and a turn allocates nothing. The
// budget is a count of generated states, so play is reproducible; an
// optional wall-clock limit caps it further.
package brewbeam

import (
	"time"

	"gauntlet/referees/brew"
	"gauntlet/strategies/param"
)

// Beam is the beam-search bot. It is deterministic: the search has no
// random choices (the seed is accepted for a uniform constructor), and
// with time_ms = 0 its play depends only on the states it is shown.
type Beam struct {
	cfg config
	r   root

	cur, next []node
	set       nodeSet
	discPow   []float32 // discount^d

	nodes    int // states generated this turn
	deadline time.Time
	stats    Stats
	legal    []brew.Action
}

var _ brew.Bot = (*Beam)(nil)

// Stats describes the last turn's search.
type Stats struct {
	Nodes    int  // states generated (duplicates included)
	Depth    int  // deepest layer completed
	Fallback bool // the search found no legal action and a legal one was substituted
}

// New builds a beam bot from parameter values (missing ones take their
// defaults; unknown or out-of-range ones are an error).
func New(v param.Values, seed uint64) (*Beam, error) {
	cfg, err := configFrom(v)
	if err != nil {
		return nil, err
	}
	_ = seed
	layer := cfg.width * 48
	b := &Beam{
		cfg:     cfg,
		cur:     make([]node, 0, layer),
		next:    make([]node, 0, layer),
		discPow: make([]float32, cfg.depth+2),
		legal:   make([]brew.Action, 0, brew.MaxLegal),
	}
	b.set.reset(layer)
	p := float32(1)
	for i := range b.discPow {
		b.discPow[i] = p
		p *= cfg.discount
	}
	return b, nil
}

// Stats returns what the last call of Act searched.
func (b *Beam) Stats() Stats { return b.stats }

// root is the part of the game the search reads, prepared once a turn.
type root struct {
	nOwn    int
	delta   [maxSearch][4]int32
	sum     [maxSearch]int32
	rep     [maxSearch]bool
	ownMask uint64 // castable bits of every own spell

	nTome     int
	tomeStock [6]int32
	tomeValue [6]float32 // evaluation of having learnt tome slot k

	nOrders int
	cost    [5][4]int32
	costW   [5]int32 // tier-weighted cost
	price   [5]int32
	bonus   [2]int32 // urgency values before the shift to {1, 0}

	oppGone   uint32 // orders assumed brewed by the opponent on the first turn
	goal      int32
	myDel     int32
	myScore   int32
	oppFinal  int32 // the opponent's score if the game ended now
	round     int32
	horizon   int
	oppEnds   bool // the opponent ends the game this turn
	endPhase  bool
	learnLeft int32 // LEARN is searched at depths below this
}

// Act chooses seat me's action.
func (b *Beam) Act(s *brew.State, me int) brew.Action {
	b.stats = Stats{}
	if s.Over || !s.P[me].Active {
		return brew.WaitAction()
	}
	if b.cfg.timeLimit > 0 {
		b.deadline = time.Now().Add(b.cfg.timeLimit)
	}
	b.prepare(s, me)
	act := b.search(s, me)
	if ok, _ := s.Valid(me, act); ok || act.Kind == brew.Wait {
		return act
	}
	b.stats.Fallback = true
	b.legal = s.Legal(me, b.legal[:0])
	return b.legal[0]
}

// prepare fills b.r from the state.
func (b *Beam) prepare(s *brew.State, me int) {
	r := &b.r
	cfg := &b.cfg
	pl, op := &s.P[me], &s.P[1-me]
	*r = root{}
	r.nOwn = min(int(pl.NSpells), maxOwn)
	for i := 0; i < r.nOwn; i++ {
		r.setSpell(i, s.SpellRecipe(me, i))
	}
	r.ownMask = 1<<uint(r.nOwn) - 1
	r.nTome = int(s.NTome)
	for k := 0; k < r.nTome; k++ {
		rc := &brew.Recipes[s.Tome[k].ID]
		r.setSpell(tomeBase+k, rc)
		r.tomeStock[k] = s.Tome[k].Stock
		gain := int32(0)
		for t := 0; t < 4; t++ {
			gain += int32(rc.Delta[t]) * int32(t+1)
		}
		r.tomeValue[k] = cfg.wSpell + cfg.wSpellGain*float32(gain)
	}
	r.nOrders = int(s.NOrders)
	for q := 0; q < r.nOrders; q++ {
		o := &s.Orders[q]
		for t := 0; t < 4; t++ {
			r.cost[q][t] = int32(o.Cost[t])
			r.costW[q] += int32(o.Cost[t]) * int32(t+1)
		}
		r.price[q] = int32(o.Price)
	}
	r.bonus = s.BonusValue
	r.goal = s.BrewGoal()
	r.myDel = pl.Deliveries
	r.myScore = pl.Score
	r.round = s.Round
	r.oppFinal = op.Score + op.Inv[1] + op.Inv[2] + op.Inv[3]
	r.horizon = min(cfg.depth, int(brew.MaxRounds-s.Round))
	if s.Round < cfg.learnTurns && s.HasTome() {
		r.learnLeft = cfg.learnTurns - s.Round
	}
	r.endPhase = s.Round >= cfg.endRound || pl.Deliveries >= r.goal-1 || op.Deliveries >= r.goal-1
	if cfg.oppModel && op.Active {
		best, bestPrice := -1, int32(-1)
		for q := 0; q < r.nOrders; q++ {
			c := &r.cost[q]
			if op.Inv[0] >= c[0] && op.Inv[1] >= c[1] && op.Inv[2] >= c[2] && op.Inv[3] >= c[3] {
				if p := s.OrderPrice(q); p > bestPrice {
					best, bestPrice = q, p
				}
			}
		}
		if best >= 0 {
			r.oppGone = 1 << uint(best)
			if op.Deliveries+1 >= r.goal {
				r.oppEnds = true
				r.horizon = 1
				c := &r.cost[best]
				r.oppFinal = op.Score + bestPrice + op.Inv[1] - c[1] + op.Inv[2] - c[2] + op.Inv[3] - c[3]
			}
		}
	}
}

func (r *root) setSpell(i int, rc *brew.Recipe) {
	r.sum[i] = 0
	for t := 0; t < 4; t++ {
		r.delta[i][t] = int32(rc.Delta[t])
		r.sum[i] += int32(rc.Delta[t])
	}
	r.rep[i] = rc.Repeatable
}

// rootKey encodes the state of seat me.
func (b *Beam) rootKey(s *brew.State, me int) (a, bb uint64) {
	pl := &s.P[me]
	a = withInv(0, &pl.Inv)
	a |= (pl.Castable & b.r.ownMask) << castShift
	u0, u1 := min(s.BonusUses[0], 7), min(s.BonusUses[1], 7)
	bb = withUses(0, max(u0, 0), max(u1, 0))
	if s.BonusValue == [2]int32{1, 0} {
		bb |= shiftedBit
	}
	return a, bb
}

// search runs the beam and returns the first action of the best line.
func (b *Beam) search(s *brew.State, me int) brew.Action {
	a0, b0 := b.rootKey(s, me)
	b.nodes = 0
	b.cur = append(b.cur[:0], node{a: a0, b: b0})
	for d := 0; d < b.r.horizon; d++ {
		b.next = b.next[:0]
		b.set.reset(cap(b.next))
		complete := true
		for i := range b.cur {
			if !b.expand(&b.cur[i], d) {
				complete = false
				break
			}
		}
		if len(b.next) == 0 || (!complete && d > 0) {
			break
		}
		if len(b.next) > b.cfg.width {
			selectTop(b.next, b.cfg.width)
			b.next = b.next[:b.cfg.width]
		}
		b.cur, b.next = b.next, b.cur
		b.stats.Depth = d + 1
		if !complete {
			break
		}
	}
	b.stats.Nodes = b.nodes
	if b.stats.Depth == 0 {
		return brew.WaitAction()
	}
	best := 0
	for i := 1; i < len(b.cur); i++ {
		if b.cur[i].eval > b.cur[best].eval {
			best = i
		}
	}
	return b.decode(s, me, b.cur[best].first)
}

// decode turns an encoded first action back into the game's action.
func (b *Beam) decode(s *brew.State, me int, e uint16) brew.Action {
	kind, idx, times := decodeAct(e)
	switch kind {
	case actRest:
		return brew.RestAction()
	case actCast:
		return brew.CastAction(int(s.P[me].Spells[idx].ID), times)
	case actLearn:
		return brew.LearnAction(int(s.Tome[idx].ID))
	case actBrew:
		return brew.BrewAction(int(s.Orders[idx].ID))
	}
	return brew.WaitAction()
}

// budgetLeft reports whether more states may be generated.
func (b *Beam) budgetLeft() bool {
	if b.nodes >= b.cfg.nodes || len(b.next) >= cap(b.next) {
		return false
	}
	if b.cfg.timeLimit > 0 && b.nodes&1023 == 0 && b.nodes > 0 && time.Now().After(b.deadline) {
		return false
	}
	return true
}

// expand adds the children of n (a state at depth d) to b.next. It returns
// false when the budget ran out.
func (b *Beam) expand(n *node, d int) bool {
	if n.b&terminalBit != 0 {
		if !b.budgetLeft() {
			return false
		}
		b.add(n.a, n.b, n.disc, n.eval, n.first)
		return true
	}
	r := &b.r
	inv := invOf(n.a)
	total := inv[0] + inv[1] + inv[2] + inv[3]
	brewed := brewedOf(n.a)
	learnt := learntOf(n.a)
	castable := castableOf(n.a)
	disc := b.discPow[d]
	ends := r.oppEnds || r.round+int32(d)+1 >= brew.MaxRounds
	children := 0

	// BREW
	gone := brewed
	if d > 0 {
		gone |= r.oppGone
	}
	for q := 0; q < r.nOrders; q++ {
		if brewed&(1<<uint(q)) != 0 || (d > 0 && r.oppGone&(1<<uint(q)) != 0) {
			continue
		}
		c := &r.cost[q]
		if inv[0] < c[0] || inv[1] < c[1] || inv[2] < c[2] || inv[3] < c[3] {
			continue
		}
		if !b.budgetLeft() {
			return false
		}
		ni := [4]int32{inv[0] - c[0], inv[1] - c[1], inv[2] - c[2], inv[3] - c[3]}
		na := withInv(n.a, &ni) | 1<<(brewedShift+uint(q))
		slot := q - popcount32(gone&(1<<uint(q)-1))
		u0, u1 := usesOf(n.b)
		price, bonus := r.price[q], int32(0)
		if slot < 2 {
			val := r.bonus
			if n.b&shiftedBit != 0 {
				val = [2]int32{1, 0}
			}
			if slot == 0 && u0 > 0 {
				bonus = val[0]
				u0--
			} else if slot == 1 && u1 > 0 {
				bonus = val[1]
				u1--
			}
		}
		nb := n.b
		if u0 <= 0 {
			u0, u1 = u1, 0
			nb |= shiftedBit
		}
		nb = withUses(nb, u0, u1)
		gained := int32(nb&scoreMask) + price + bonus
		nb = nb&^scoreMask | uint64(min(gained, scoreMask))
		if ends || r.myDel+int32(popcount32(brewed))+1 >= r.goal {
			nb |= terminalBit
		}
		nd := n.disc + disc*(b.cfg.wScore*float32(price+bonus)+b.cfg.wUrgency*float32(bonus))
		b.child(n, d, na, nb, nd, encodeAct(actBrew, q, 0))
		children++
	}

	nbBase := n.b
	if ends {
		nbBase |= terminalBit
	}

	// CAST
	for cm := castable; cm != 0; cm &= cm - 1 {
		i := trailingZeros64(cm)
		dl := &r.delta[i]
		ni := inv
		for t := int32(1); t <= brew.MaxInventory; t++ {
			ok := true
			for k := 0; k < 4; k++ {
				ni[k] += dl[k]
				if ni[k] < 0 {
					ok = false
				}
			}
			if !ok || total+r.sum[i]*t > brew.MaxInventory {
				break
			}
			if !b.budgetLeft() {
				return false
			}
			na := withInv(n.a, &ni) &^ (1 << (castShift + uint(i)))
			b.child(n, d, na, nbBase, n.disc, encodeAct(actCast, i, int(t)))
			children++
			if !r.rep[i] {
				break
			}
		}
	}

	// LEARN
	if int32(d) < r.learnLeft {
		for k := 0; k < r.nTome; k++ {
			if learnt&(1<<uint(k)) != 0 {
				continue
			}
			idx := int32(k - popcount32(learnt&(1<<uint(k)-1)))
			if inv[0] < idx {
				continue
			}
			if !b.budgetLeft() {
				return false
			}
			ni := inv
			ni[0] -= idx
			stock := r.tomeStock[k] + int32(popcount32(learnt>>uint(k+1)))
			room := brew.MaxInventory - (total - idx)
			ni[0] += min(room, stock)
			na := withInv(n.a, &ni) | 1<<(learnShift+uint(k)) | 1<<(castShift+tomeBase+uint(k))
			b.child(n, d, na, nbBase, n.disc, encodeAct(actLearn, k, 0))
			children++
		}
	}

	// REST
	all := r.ownMask | uint64(learnt)<<tomeBase
	if castable != all {
		if !b.budgetLeft() {
			return false
		}
		na := n.a&(1<<castShift-1) | all<<castShift
		b.child(n, d, na, nbBase, n.disc, encodeAct(actRest, 0, 0))
		children++
	}

	// WAIT, only when nothing else is possible.
	if children == 0 {
		if !b.budgetLeft() {
			return false
		}
		b.child(n, d, n.a, nbBase, n.disc, 0)
	}
	return true
}

// child evaluates a new state and adds it to the next layer.
func (b *Beam) child(parent *node, d int, a, bb uint64, disc float32, act uint16) {
	first := parent.first
	if d == 0 {
		first = act
	}
	b.add(a, bb, disc, b.evaluate(a, bb, disc, d+1), first)
}

// add puts a state into the next layer, keeping the better of duplicates.
func (b *Beam) add(a, bb uint64, disc, eval float32, first uint16) {
	b.nodes++
	idx, slot := b.set.lookup(a, bb)
	if idx >= 0 {
		if old := &b.next[idx]; eval > old.eval {
			old.disc, old.eval, old.first = disc, eval, first
		}
		return
	}
	b.set.insert(slot, a, bb, int32(len(b.next)))
	b.next = append(b.next, node{a: a, b: bb, disc: disc, eval: eval, first: first})
}
