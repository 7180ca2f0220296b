package brew

// Ingredient tiers, deck sizes and id ranges. Ids come from one counter the
// referee restarts for every game: tome spells 0..41, orders 42..77, the
// starting spells of player 0 (78..81) and player 1 (82..85), then one id per
// successful LEARN.
const (
	Tiers        = 4  // ingredient tiers 0..3
	TomeDeckSize = 42 // tome spells in the game
	OrderCount   = 36 // orders in the game (18 in league 1)
	FirstOrderID = TomeDeckSize
	FirstSpellID = FirstOrderID + OrderCount // player 0's first starting spell
	FirstLearnID = FirstSpellID + 2*StartSpells
	StartSpells  = 4

	// Recipes indexes a spell recipe: 0..41 are the tome spells (the index
	// is the tome spell's id), 42..45 the four starting spells.
	RecipeCount = TomeDeckSize + StartSpells

	orderCountL1 = 18
)

// Recipe is a spell's effect: the ingredient change of one cast.
type Recipe struct {
	Delta      [Tiers]int8
	Repeatable bool // some component is negative
}

// OrderCard is one potion order: the ingredients it consumes and its base
// price (the urgency bonus is added by the game).
type OrderCard struct {
	Cost  [Tiers]int8
	Price int8
}

// Recipes holds the 42 tome spells (index = id) and the 4 starting spells.
var Recipes = func() [RecipeCount]Recipe {
	d := [RecipeCount][Tiers]int8{
		{-3, 0, 0, 1}, {3, -1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {3, 0, 0, 0},
		{2, 3, -2, 0}, {2, 1, -2, 1}, {3, 0, 1, -1}, {3, -2, 1, 0}, {2, -3, 2, 0},
		{2, 2, 0, -1}, {-4, 0, 2, 0}, {2, 1, 0, 0}, {4, 0, 0, 0}, {0, 0, 0, 1},
		{0, 2, 0, 0}, {1, 0, 1, 0}, {-2, 0, 1, 0}, {-1, -1, 0, 1}, {0, 2, -1, 0},
		{2, -2, 0, 1}, {-3, 1, 1, 0}, {0, 2, -2, 1}, {1, -3, 1, 1}, {0, 3, 0, -1},
		{0, -3, 0, 2}, {1, 1, 1, -1}, {1, 2, -1, 0}, {4, 1, -1, 0}, {-5, 0, 0, 2},
		{-4, 0, 1, 1}, {0, 3, 2, -2}, {1, 1, 3, -2}, {-5, 0, 3, 0}, {-2, 0, -1, 2},
		{0, 0, -3, 3}, {0, -3, 3, 0}, {-3, 3, 0, 0}, {-2, 2, 0, 0}, {0, 0, -2, 2},
		{0, -2, 2, 0}, {0, 0, 2, -1},
		// starting spells: not repeatable, whatever their deltas
		{2, 0, 0, 0}, {-1, 1, 0, 0}, {0, -1, 1, 0}, {0, 0, -1, 1},
	}
	var out [RecipeCount]Recipe
	for i, delta := range d {
		out[i].Delta = delta
		if i < TomeDeckSize {
			for _, x := range delta {
				if x < 0 {
					out[i].Repeatable = true
				}
			}
		}
	}
	return out
}()

// Orders holds the 36 orders of leagues 2 and up; Orders[i] has id 42+i.
var Orders = [OrderCount]OrderCard{
	{[4]int8{2, 2, 0, 0}, 6}, {[4]int8{3, 2, 0, 0}, 7}, {[4]int8{0, 4, 0, 0}, 8},
	{[4]int8{2, 0, 2, 0}, 8}, {[4]int8{2, 3, 0, 0}, 8}, {[4]int8{3, 0, 2, 0}, 9},
	{[4]int8{0, 2, 2, 0}, 10}, {[4]int8{0, 5, 0, 0}, 10}, {[4]int8{2, 0, 0, 2}, 10},
	{[4]int8{2, 0, 3, 0}, 11}, {[4]int8{3, 0, 0, 2}, 11}, {[4]int8{0, 0, 4, 0}, 12},
	{[4]int8{0, 2, 0, 2}, 12}, {[4]int8{0, 3, 2, 0}, 12}, {[4]int8{0, 2, 3, 0}, 13},
	{[4]int8{0, 0, 2, 2}, 14}, {[4]int8{0, 3, 0, 2}, 14}, {[4]int8{2, 0, 0, 3}, 14},
	{[4]int8{0, 0, 5, 0}, 15}, {[4]int8{0, 0, 0, 4}, 16}, {[4]int8{0, 2, 0, 3}, 16},
	{[4]int8{0, 0, 3, 2}, 17}, {[4]int8{0, 0, 2, 3}, 18}, {[4]int8{0, 0, 0, 5}, 20},
	{[4]int8{2, 1, 0, 1}, 9}, {[4]int8{0, 2, 1, 1}, 12}, {[4]int8{1, 0, 2, 1}, 12},
	{[4]int8{2, 2, 2, 0}, 13}, {[4]int8{2, 2, 0, 2}, 15}, {[4]int8{2, 0, 2, 2}, 17},
	{[4]int8{0, 2, 2, 2}, 19}, {[4]int8{1, 1, 1, 1}, 12}, {[4]int8{3, 1, 1, 1}, 14},
	{[4]int8{1, 3, 1, 1}, 16}, {[4]int8{1, 1, 3, 1}, 18}, {[4]int8{1, 1, 1, 3}, 20},
}

// OrdersL1 holds the league-1 variant of every order (costs halved where
// some component exceeds 1); only the ids in leagueOneOrders are dealt.
var OrdersL1 = func() [OrderCount]OrderCard {
	var out [OrderCount]OrderCard
	for i, o := range Orders {
		out[i] = o
		halve := false
		for _, c := range o.Cost {
			if c > 1 {
				halve = true
			}
		}
		if halve {
			for t := range out[i].Cost {
				// Java halves the negated cost with truncation toward zero,
				// which equals halving the positive cost the same way.
				out[i].Cost[t] = o.Cost[t] / 2
			}
		}
	}
	return out
}()

// leagueOneOrders lists, in table order, the order indexes kept in league 1:
// the first order of each distinct halved cost.
var leagueOneOrders = func() [orderCountL1]uint8 {
	var out [orderCountL1]uint8
	n := 0
	for i := range OrdersL1 {
		dup := false
		for _, j := range out[:n] {
			if OrdersL1[j].Cost == OrdersL1[i].Cost {
				dup = true
				break
			}
		}
		if !dup && n < len(out) {
			out[n] = uint8(i)
			n++
		}
	}
	return out
}()

// orderCard returns the order with the given table index in a league.
func orderCard(league uint8, index uint8) OrderCard {
	if league == 1 {
		return OrdersL1[index]
	}
	return Orders[index]
}

// Decks is the dealt order of both decks for a seed, as ids: the tome deck
// (empty order in leagues 1 and 2 is still shuffled, unused) and the order
// deck. The first 6 tome ids and the first 5 order ids are shown on turn 1.
type Decks struct {
	Tome   [TomeDeckSize]uint8
	Orders [OrderCount]uint8
	// NOrders is 36, or 18 in league 1.
	NOrders int
}

// Deal shuffles both decks for a seed and league as the referee does: one
// java.util.Random(seed) shuffles the tome deck, then the order deck.
func Deal(seed int64, league int) Decks {
	var d Decks
	for i := range d.Tome {
		d.Tome[i] = uint8(i)
	}
	if league == 1 {
		d.NOrders = orderCountL1
		for i, idx := range leagueOneOrders {
			d.Orders[i] = FirstOrderID + idx
		}
	} else {
		d.NOrders = OrderCount
		for i := range d.Orders {
			d.Orders[i] = FirstOrderID + uint8(i)
		}
	}
	rng := NewJavaRandom(seed)
	rng.ShuffleBytes(d.Tome[:])
	rng.ShuffleBytes(d.Orders[:d.NOrders])
	return d
}
