package paperio

// Game is a state with the referee's random generator: Tick plays a whole
// tick including the random bonus spawn of step 12, drawing from the MT
// exactly as the Python referee draws from its global random module.
type Game struct {
	State
	RNG MT
}

// NewGame starts a game of n players whose generator is seeded as
// random.seed(seed). It does not shuffle anything (see ShuffleOrder).
func NewGame(rules Rules, n int, seed int64) (*Game, error) {
	s, err := NewState(rules, n)
	if err != nil {
		return nil, err
	}
	g := &Game{State: *s}
	g.RNG.Seed(seed)
	return g, nil
}

// ShuffleOrder returns the permutation random.shuffle gives a list of n
// clients: client order[k] becomes player k+1. The server runner does this
// once, before the game, with the game's generator.
func (m *MT) ShuffleOrder(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	m.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// PlayTick plays one tick with the given commands (by player index, used only
// for players at a cell centre), spawns a bonus as the referee does, and
// advances the tick counter. It reports the spawned bonus, if any.
func (g *Game) PlayTick(cmds *Commands) (MapBonus, bool) {
	g.Step(cmds)
	b, ok := g.SpawnRandom(&g.RNG)
	g.EndTick()
	return b, ok
}

// activeChoices are the bonus durations the referee draws from.
var activeChoices = [5]int32{10, 20, 30, 40, 50}

// SpawnRandom is step 12: with the allowed kinds non-empty, draw
// randint(1, BONUS_CHANCE); on 1 with room on the map, draw cell centres
// until a free one, then the kind and the duration, and put the bonus on the
// map.
func (s *State) SpawnRandom(m *MT) (MapBonus, bool) {
	var kinds [numBonusKinds]BonusKind
	nk := 0
	for k := BonusKind(0); k < numBonusKinds; k++ {
		if s.Rules.Available[k] {
			kinds[nk] = k
			nk++
		}
	}
	if nk == 0 {
		return MapBonus{}, false
	}
	if m.Randint(1, s.Rules.BonusChance) != 1 || s.NBonuses >= s.Rules.BonusesMaxCount {
		return MapBonus{}, false
	}
	var x, y int
	for tries := 0; ; tries++ {
		x = m.Randint(1, Cols)*Width - Half
		y = m.Randint(1, Rows)*Width - Half
		if s.spawnFree(x, y) {
			break
		}
		if tries > 1<<20 {
			return MapBonus{}, false // no free cell at all
		}
	}
	b := MapBonus{Kind: kinds[m.Choice(nk)], Active: activeChoices[m.Choice(len(activeChoices))]}
	b.Cell, _ = CellOf(x, y)
	_ = s.AddBonus(b)
	return b, true
}

// spawnFree is the referee's test for a bonus position: not within two
// cells of a live player, not a bonus, not a live trail cell.
func (s *State) spawnFree(x, y int) bool {
	c, _ := CellOf(x, y)
	for k := 0; k < s.N; k++ {
		p := &s.Players[k]
		if !p.Alive {
			continue
		}
		if (p.X == x && p.Y == y) || (abs(p.X-x) <= 2*Width && abs(p.Y-y) <= 2*Width) {
			return false
		}
		if p.TrailBits.Has(c) {
			return false
		}
	}
	for _, b := range s.MapBonuses() {
		if b.Cell == c {
			return false
		}
	}
	return true
}
