package brew

import "fmt"

// Game limits.
const (
	Players      = 2
	TomeSize     = 6   // visible tome spells (league 3)
	QueueSize    = 5   // visible orders
	MaxInventory = 10  // ingredients a player may hold in total
	MaxRounds    = 100 // the engine's turn limit
	// MaxSpells bounds a player's spell list: 4 starting spells plus at most
	// one copy of each of the 42 tome spells.
	MaxSpells = StartSpells + TomeDeckSize
	// MaxLeague is the highest league level: the referee has levels 1
	// (Wood 2), 2 (Wood 1) and 3 (Bronze and above, the final rules).
	MaxLeague = 3
)

// Spell is one of a player's spells: its id and its recipe (an index into
// Recipes).
type Spell struct {
	ID     uint8
	Recipe uint8
}

// PlayerState is one player's part of the state. Inventory and score are
// Java ints (32-bit, wrapping) like the referee's.
type PlayerState struct {
	Inv        [Tiers]int32
	Score      int32
	Deliveries int32 // potions brewed
	Active     bool  // false once disqualified or timed out
	NSpells    uint8
	Castable   uint64 // bit i set: Spells[i] is not exhausted
	Spells     [MaxSpells]Spell
}

// TomeSlot is one visible tome spell: its id (also its recipe index) and the
// tier-0 ingredients taxed onto it.
type TomeSlot struct {
	ID    uint8
	Stock int32
}

// OrderSlot is one visible order with its league's cost and base price.
type OrderSlot struct {
	ID    uint8
	Cost  [Tiers]int8
	Price int8
}

// State is the whole game as a flat value: copy it with = to simulate.
// Nothing in it points elsewhere, so a copy shares nothing with the original.
type State struct {
	League uint8 // 1, 2 or 3 (final rules)
	Over   bool  // the game has ended; final bonuses are in the scores
	Round  int32 // turns played so far (0 before the first)
	NextID int32 // id of the next learnt spell

	P [Players]PlayerState

	NTome uint8
	Tome  [TomeSize]TomeSlot

	NOrders uint8
	Orders  [QueueSize]OrderSlot

	// Urgency bonus for queue slots 0 and 1: remaining uses and value.
	BonusUses  [2]int32
	BonusValue [2]int32

	// The undealt rest of the decks: ids, drawn from Pos up to Len. A
	// player's view (Observe) has them emptied.
	TomeDeck  [TomeDeckSize]uint8
	TomePos   uint8
	TomeLen   uint8
	OrderDeck [OrderCount]uint8
	OrderPos  uint8
	OrderLen  uint8
}

// leagueRules are the switches of one league.
type leagueRules struct {
	start     [Tiers]int32
	goal      int32
	tome      bool // LEARN and the tome
	spells    bool // CAST, REST and the spell lists
	bonus     bool // urgency bonus
	invPoints bool // end-of-game points for tier 1..3 ingredients
}

var rulesByLeague = [MaxLeague + 1]leagueRules{
	1: {start: [Tiers]int32{2, 2, 3, 3}, goal: 2},
	2: {start: [Tiers]int32{3, 0, 0, 0}, goal: 3, spells: true, invPoints: true},
	3: {start: [Tiers]int32{3, 0, 0, 0}, goal: 6, tome: true, spells: true, bonus: true, invPoints: true},
}

func (s *State) rules() *leagueRules { return &rulesByLeague[s.League] }

// BrewGoal is the number of potions that ends the game in this league.
func (s *State) BrewGoal() int32 { return s.rules().goal }

// HasSpells reports whether CAST and REST exist in this league.
func (s *State) HasSpells() bool { return s.rules().spells }

// HasTome reports whether LEARN and the tome exist in this league.
func (s *State) HasTome() bool { return s.rules().tome }

// NormalizeLeague checks a league level: the game's configurations are
// levels 1 (Wood 2), 2 (Wood 1) and 3 (Bronze and above: the final rules);
// any other is an error naming it.
func NormalizeLeague(league int) (uint8, error) {
	if league < 1 || league > MaxLeague {
		return 0, fmt.Errorf("league %d: the leagues are 1 (Wood 2), 2 (Wood 1) and 3 (Bronze and above: the final rules)", league)
	}
	return uint8(league), nil
}

// New returns the state before the first turn of the game with this seed
// and league, dealt exactly as the referee deals it.
func New(seed int64, league int) (State, error) {
	var s State
	err := s.Reset(seed, league)
	return s, err
}

// Reset reinitialises s in place for a new game (no allocation).
func (s *State) Reset(seed int64, league int) error {
	lg, err := NormalizeLeague(league)
	if err != nil {
		return err
	}
	*s = State{League: lg}
	r := s.rules()
	d := Deal(seed, int(lg))
	s.TomeDeck = d.Tome
	s.TomeLen = TomeDeckSize
	if r.tome {
		for i := 0; i < TomeSize; i++ {
			s.Tome[i] = TomeSlot{ID: s.drawTome()}
		}
		s.NTome = TomeSize
	}
	s.OrderDeck = d.Orders
	s.OrderLen = uint8(d.NOrders)
	for i := 0; i < QueueSize; i++ {
		s.Orders[i] = s.makeOrder(s.drawOrder())
	}
	s.NOrders = QueueSize
	if r.bonus {
		s.BonusUses = [2]int32{4, 4}
	}
	s.BonusValue = [2]int32{3, 1}
	s.NextID = FirstLearnID
	for p := range s.P {
		pl := &s.P[p]
		pl.Inv = r.start
		pl.Active = true
		if r.spells {
			for k := 0; k < StartSpells; k++ {
				pl.Spells[k] = Spell{ID: uint8(FirstSpellID + p*StartSpells + k), Recipe: uint8(TomeDeckSize + k)}
			}
			pl.NSpells = StartSpells
			pl.Castable = 1<<StartSpells - 1
		}
	}
	return nil
}

func (s *State) drawTome() uint8 {
	id := s.TomeDeck[s.TomePos]
	s.TomePos++
	return id
}

func (s *State) drawOrder() uint8 {
	id := s.OrderDeck[s.OrderPos]
	s.OrderPos++
	return id
}

func (s *State) makeOrder(id uint8) OrderSlot {
	c := orderCard(s.League, id-FirstOrderID)
	return OrderSlot{ID: id, Cost: c.Cost, Price: c.Price}
}

// OrderPrice is what brewing the order at queue index q pays now: its base
// price plus the urgency bonus of slots 0 and 1 while that slot has uses.
func (s *State) OrderPrice(q int) int32 {
	price := int32(s.Orders[q].Price)
	if q < 2 && s.BonusUses[q] > 0 {
		price += s.BonusValue[q]
	}
	return price
}

// Total is the number of ingredients in an inventory (Java int sum).
func Total(inv *[Tiers]int32) int32 {
	return inv[0] + inv[1] + inv[2] + inv[3]
}

// SpellRecipe returns the recipe of player p's i-th spell.
func (s *State) SpellRecipe(p, i int) *Recipe {
	return &Recipes[s.P[p].Spells[i].Recipe]
}

// IsCastable reports whether player p's i-th spell is not exhausted.
func (s *State) IsCastable(p, i int) bool {
	return s.P[p].Castable&(1<<uint(i)) != 0
}

// ActivePlayers counts the players still in the game.
func (s *State) ActivePlayers() int {
	n := 0
	for p := range s.P {
		if s.P[p].Active {
			n++
		}
	}
	return n
}

// Observe writes into dst the game as player p sees it: everything the
// turn input shows (and what a bot can count from it: the round, both
// delivery counts), with the undealt decks emptied. Simulations on dst then
// draw no new tome spells or orders.
func (s *State) Observe(dst *State) {
	*dst = *s
	dst.TomeDeck = [TomeDeckSize]uint8{}
	dst.OrderDeck = [OrderCount]uint8{}
	dst.TomePos, dst.TomeLen, dst.OrderPos, dst.OrderLen = 0, 0, 0, 0
}

// Deactivate disqualifies player p as the referee does on a bad output
// line or a timeout: the player stops playing and its score becomes -1.
func (s *State) Deactivate(p int) {
	s.P[p].Active = false
	s.P[p].Score = -1
}

// Scores returns both scores as ints.
func (s *State) Scores() [Players]int {
	return [Players]int{int(s.P[0].Score), int(s.P[1].Score)}
}

// ActiveFlags returns whether each player is still active.
func (s *State) ActiveFlags() [Players]bool {
	return [Players]bool{s.P[0].Active, s.P[1].Active}
}
