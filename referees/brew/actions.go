package brew

import (
	"math/bits"
	"strconv"
)

// Kind is an action's verb.
type Kind uint8

// The verbs. The zero Action is WAIT.
const (
	Wait Kind = iota
	Rest
	Cast
	Learn
	Brew
	numKinds
)

var kindNames = [numKinds]string{"WAIT", "REST", "CAST", "LEARN", "BREW"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one player's command for a turn. ID is the spell or order id
// (CAST, LEARN, BREW); Times is CAST's repeat count, which the parser sets
// to 1 when the line gives none. A CAST built in code needs Times >= 1
// (CastAction(id, 1)): Times 0 is the line "CAST id 0", a parsed but
// invalid action (the player waits). The fields are Java ints: a parsed
// line never has negative values.
type Action struct {
	Kind  Kind
	ID    int32
	Times int32
}

// Convenience constructors.
func WaitAction() Action              { return Action{Kind: Wait} }
func RestAction() Action              { return Action{Kind: Rest} }
func CastAction(id, times int) Action { return Action{Kind: Cast, ID: int32(id), Times: int32(times)} }
func LearnAction(id int) Action       { return Action{Kind: Learn, ID: int32(id)} }
func BrewAction(id int) Action        { return Action{Kind: Brew, ID: int32(id)} }
func (a Action) String() string       { return string(a.AppendText(nil)) }
func (a Action) isSpellAction() bool  { return a.Kind == Cast || a.Kind == Learn || a.Kind == Brew }

func availableKind(k Kind, lg uint8) bool {
	r := &rulesByLeague[lg]
	switch k {
	case Wait, Brew:
		return true
	case Rest, Cast:
		return r.spells
	case Learn:
		return r.tome
	}
	return false
}

// AppendText appends the command line for a (no newline), as a bot prints
// it: "CAST 79 2", "BREW 42", "REST". CAST's count is written when it is
// not 1.
func (a Action) AppendText(dst []byte) []byte {
	dst = append(dst, a.Kind.String()...)
	if a.isSpellAction() {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(a.ID), 10)
		if a.Kind == Cast && a.Times != 1 {
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, int64(a.Times), 10)
		}
	}
	return dst
}

// Expressible reports whether a can be written as a command line that the
// referee of league lg parses back into a itself: a known verb available in
// that league, non-negative numbers. An in-process bot returning anything
// else is treated like a bot printing an unparseable line.
func (a Action) Expressible(league uint8) bool {
	if a.Kind >= numKinds || league < 1 || league > MaxLeague || !availableKind(a.Kind, league) {
		return false
	}
	switch a.Kind {
	case Wait, Rest:
		return a.ID == 0 && a.Times == 0
	case Cast:
		return a.ID >= 0 && a.Times >= 0
	default:
		return a.ID >= 0 && a.Times == 0
	}
}

// Invalid-action reasons (the referee only logs them; the player waits).
const (
	okAction = iota
	errUnknownID
	errWrongKind
	errTimes
	errNotRepeatable
	errExhausted
	errAfford
	errSpace
	errAllCastable
	errTax
	errIngredients
	errInactive
	errVerb
	errFullBook
)

var invalidReasons = [...]string{
	okAction:         "",
	errUnknownID:     "no such id for this verb",
	errWrongKind:     "id of another kind",
	errTimes:         "repeat count below 1",
	errNotRepeatable: "spell is not repeatable",
	errExhausted:     "spell is exhausted",
	errAfford:        "not enough ingredients",
	errSpace:         "not enough space in inventory",
	errAllCastable:   "all spells are already castable",
	errTax:           "not enough tier-0 ingredients for the tome tax",
	errIngredients:   "not enough ingredients for the order",
	errInactive:      "player is not active",
	errVerb:          "verb not available in this league",
	errFullBook:      "no room for another spell",
}

// findSpell returns the index of player p's spell with this id, or -1.
func (s *State) findSpell(p int, id int32) int {
	pl := &s.P[p]
	for i := 0; i < int(pl.NSpells); i++ {
		if int32(pl.Spells[i].ID) == id {
			return i
		}
	}
	return -1
}

func (s *State) findTome(id int32) int {
	for i := 0; i < int(s.NTome); i++ {
		if int32(s.Tome[i].ID) == id {
			return i
		}
	}
	return -1
}

func (s *State) findOrder(id int32) int {
	for i := 0; i < int(s.NOrders); i++ {
		if int32(s.Orders[i].ID) == id {
			return i
		}
	}
	return -1
}

// check returns why a is invalid for player p now (okAction if it is legal),
// and the index of its target (spell, tome slot or queue slot).
func (s *State) check(p int, a Action) (reason int, idx int) {
	pl := &s.P[p]
	if !pl.Active {
		return errInactive, -1
	}
	if a.Kind >= numKinds || !availableKind(a.Kind, s.League) {
		return errVerb, -1
	}
	switch a.Kind {
	case Rest:
		if pl.Castable == allSpells(pl.NSpells) {
			return errAllCastable, -1
		}
	case Cast:
		i := s.findSpell(p, a.ID)
		if i < 0 {
			if s.findSpell(1-p, a.ID) >= 0 || s.findTome(a.ID) >= 0 || s.findOrder(a.ID) >= 0 {
				return errWrongKind, -1
			}
			return errUnknownID, -1
		}
		rc := &Recipes[pl.Spells[i].Recipe]
		t := a.Times
		switch {
		case t < 1:
			return errTimes, i
		case t > 1 && !rc.Repeatable:
			return errNotRepeatable, i
		case pl.Castable&(1<<uint(i)) == 0:
			return errExhausted, i
		}
		var sum int32
		for k := 0; k < Tiers; k++ {
			d := int32(rc.Delta[k])
			if pl.Inv[k]+d*t < 0 {
				return errAfford, i
			}
			sum += d
		}
		if sum*t+Total(&pl.Inv) > MaxInventory {
			return errSpace, i
		}
		return okAction, i
	case Learn:
		k := s.findTome(a.ID)
		if k < 0 {
			if s.findOrder(a.ID) >= 0 || s.findSpell(0, a.ID) >= 0 || s.findSpell(1, a.ID) >= 0 {
				return errWrongKind, -1
			}
			return errUnknownID, -1
		}
		if pl.Inv[0] < int32(k) {
			return errTax, k
		}
		if pl.NSpells >= MaxSpells {
			// Unreachable in a real game (42 tome spells in all); guards
			// states rebuilt from arbitrary input.
			return errFullBook, k
		}
		return okAction, k
	case Brew:
		q := s.findOrder(a.ID)
		if q < 0 {
			if s.findTome(a.ID) >= 0 || s.findSpell(0, a.ID) >= 0 || s.findSpell(1, a.ID) >= 0 {
				return errWrongKind, -1
			}
			return errUnknownID, -1
		}
		o := &s.Orders[q]
		for k := 0; k < Tiers; k++ {
			if pl.Inv[k] < int32(o.Cost[k]) {
				return errIngredients, q
			}
		}
		return okAction, q
	}
	return okAction, -1
}

func allSpells(n uint8) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// Valid reports whether a would take effect for player p now. An invalid
// action is not a fault: the referee lets the player wait. The returned
// text says why, "" when valid.
func (s *State) Valid(p int, a Action) (bool, string) {
	r, _ := s.check(p, a)
	return r == okAction, invalidReasons[r]
}

// Legal appends to buf every action that takes effect for player p now
// and returns the extended slice, in a fixed order: BREW (queue order),
// CAST (spell order, counts ascending), LEARN (tome order), REST, WAIT.
// WAIT is always last. With a buffer of capacity MaxLegal nothing is
// allocated.
func (s *State) Legal(p int, buf []Action) []Action {
	pl := &s.P[p]
	if !pl.Active || s.Over {
		return append(buf, Action{Kind: Wait})
	}
	r := s.rules()
	for q := 0; q < int(s.NOrders); q++ {
		o := &s.Orders[q]
		if pl.Inv[0] >= int32(o.Cost[0]) && pl.Inv[1] >= int32(o.Cost[1]) &&
			pl.Inv[2] >= int32(o.Cost[2]) && pl.Inv[3] >= int32(o.Cost[3]) {
			buf = append(buf, Action{Kind: Brew, ID: int32(o.ID)})
		}
	}
	if r.spells {
		// The largest count a spell allows follows from each consumed
		// ingredient and from the space left; every smaller count works too.
		room := MaxInventory - Total(&pl.Inv)
		for c := pl.Castable; c != 0; c &= c - 1 {
			i := bits.TrailingZeros64(c)
			if i >= int(pl.NSpells) {
				break
			}
			rc := &Recipes[pl.Spells[i].Recipe]
			most := int32(1)
			if rc.Repeatable {
				most = MaxInventory
			}
			var sum int32
			for k := 0; k < Tiers; k++ {
				d := int32(rc.Delta[k])
				sum += d
				if d < 0 {
					most = min(most, pl.Inv[k]/-d)
				}
			}
			if sum > 0 {
				most = min(most, room/sum)
			}
			id := int32(pl.Spells[i].ID)
			for t := int32(1); t <= most; t++ {
				buf = append(buf, Action{Kind: Cast, ID: id, Times: t})
			}
		}
	}
	if r.tome && pl.NSpells < MaxSpells {
		for k := 0; k < int(s.NTome); k++ {
			if pl.Inv[0] >= int32(k) {
				buf = append(buf, Action{Kind: Learn, ID: int32(s.Tome[k].ID)})
			}
		}
	}
	if r.spells && pl.Castable != allSpells(pl.NSpells) {
		buf = append(buf, Action{Kind: Rest})
	}
	return append(buf, Action{Kind: Wait})
}

// MaxLegal bounds the number of actions Legal returns for one player.
const MaxLegal = QueueSize + MaxSpells*MaxInventory + TomeSize + 2
