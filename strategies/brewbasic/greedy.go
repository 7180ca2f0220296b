package brewbasic

import (
	"gauntlet/referees/brew"
	"gauntlet/strategies/param"
)

// GreedyParams are the parameters of the greedy bot.
var GreedyParams = param.Specs{
	{Name: "price_weight", Kind: param.Float, Min: 0, Max: 5, Default: 1,
		Help: "weight of an order's price when choosing the order to work towards"},
	{Name: "dist_weight", Kind: param.Float, Min: 0, Max: 5, Default: 1.5,
		Help: "weight of the missing ingredients (tier-weighted) when choosing the order"},
	{Name: "stock_weight", Kind: param.Float, Min: 0, Max: 2, Default: 0.25,
		Help: "value of a held ingredient per tier step when comparing casts"},
	{Name: "learn_rounds", Kind: param.Int, Min: 0, Max: 50, Default: 8,
		Help: "rounds at the start during which greedy learns tome spells"},
	{Name: "max_tax", Kind: param.Int, Min: 0, Max: 5, Default: 1,
		Help: "highest tome index (tier-0 tax) greedy pays to learn a spell"},
}

// Greedy brews the best order it can; otherwise it casts the spell that
// brings its inventory closest to the most attractive order, resting when
// no cast helps, and learns cheap spells early on. It is deterministic and
// never mutates the state it is shown.
type Greedy struct {
	priceW, distW, stockW float64
	learnRounds, maxTax   int32
	buf                   []brew.Action
}

var _ brew.Bot = (*Greedy)(nil)

// NewGreedy builds a greedy bot from parameter values (missing ones take
// their defaults; unknown or out-of-range ones are an error). Greedy draws
// no random numbers; the seed is accepted for a uniform constructor.
func NewGreedy(v param.Values, seed uint64) (*Greedy, error) {
	v, err := GreedyParams.Validate(v)
	if err != nil {
		return nil, err
	}
	_ = seed
	return &Greedy{
		priceW:      GreedyParams.Float(v, "price_weight"),
		distW:       GreedyParams.Float(v, "dist_weight"),
		stockW:      GreedyParams.Float(v, "stock_weight"),
		learnRounds: int32(GreedyParams.Int(v, "learn_rounds")),
		maxTax:      int32(GreedyParams.Int(v, "max_tax")),
		buf:         make([]brew.Action, 0, legalCap),
	}, nil
}

// missing is the tier-weighted count of ingredients inv lacks for cost.
func missing(inv *[brew.Tiers]int32, cost *[brew.Tiers]int8) float64 {
	d := 0
	for t := 0; t < brew.Tiers; t++ {
		if m := int(cost[t]) - int(inv[t]); m > 0 {
			d += m * (t + 1)
		}
	}
	return float64(d)
}

func (g *Greedy) value(inv *[brew.Tiers]int32, cost *[brew.Tiers]int8) float64 {
	v := -missing(inv, cost)
	for t := 0; t < brew.Tiers; t++ {
		v += g.stockW * float64(int(inv[t])*(t+1))
	}
	return v
}

// Act chooses seat me's action.
func (g *Greedy) Act(s *brew.State, me int) brew.Action {
	legal := s.Legal(me, g.buf[:0])
	g.buf = legal
	pl := &s.P[me]

	// 1. Brew the best-paying order available.
	best, bestPrice := -1, int32(-1)
	for i, a := range legal {
		if a.Kind != brew.Brew {
			continue
		}
		for q := 0; q < int(s.NOrders); q++ {
			if int32(s.Orders[q].ID) == a.ID && s.OrderPrice(q) > bestPrice {
				best, bestPrice = i, s.OrderPrice(q)
			}
		}
	}
	if best >= 0 {
		return legal[best]
	}

	// 2. Learn a cheap spell early on.
	if s.Round < g.learnRounds {
		for _, a := range legal {
			if a.Kind != brew.Learn {
				continue
			}
			for k := 0; k < int(s.NTome) && int32(k) <= g.maxTax; k++ {
				if int32(s.Tome[k].ID) == a.ID {
					return a
				}
			}
		}
	}

	// 3. Work towards the most attractive order.
	target, targetScore := -1, 0.0
	for q := 0; q < int(s.NOrders); q++ {
		sc := g.priceW*float64(s.OrderPrice(q)) - g.distW*missing(&pl.Inv, &s.Orders[q].Cost)
		if target < 0 || sc > targetScore {
			target, targetScore = q, sc
		}
	}
	if target < 0 {
		return brew.WaitAction()
	}
	cost := &s.Orders[target].Cost
	now := g.value(&pl.Inv, cost)
	bestCast, bestValue := -1, 0.0
	for i, a := range legal {
		if a.Kind != brew.Cast {
			continue
		}
		rc := castRecipe(s, me, a.ID)
		if rc == nil {
			continue
		}
		inv := pl.Inv
		for t := 0; t < brew.Tiers; t++ {
			inv[t] += int32(rc.Delta[t]) * a.Times
		}
		if v := g.value(&inv, cost); bestCast < 0 || v > bestValue {
			bestCast, bestValue = i, v
		}
	}
	if bestCast >= 0 && bestValue > now+1e-9 {
		return legal[bestCast]
	}
	for _, a := range legal {
		if a.Kind == brew.Rest {
			return a
		}
	}
	if bestCast >= 0 {
		return legal[bestCast]
	}
	return brew.WaitAction()
}

// castRecipe returns the recipe of seat me's spell with this id.
func castRecipe(s *brew.State, me int, id int32) *brew.Recipe {
	pl := &s.P[me]
	for i := 0; i < int(pl.NSpells); i++ {
		if int32(pl.Spells[i].ID) == id {
			return s.SpellRecipe(me, i)
		}
	}
	return nil
}
