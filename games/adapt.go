package games

import (
	"fmt"
	"reflect"

	"gauntlet/harness/contract"
)

// adapter is one game's typed view of the values that cross the harness
// boundary as any: its case data D (contract.Case.Data) and its bot type B
// (what its strategies' New functions build). Each game declares one, and
// every type assertion of the game goes through it, with one error that
// names the game, the case or strategy, and both types.
//
// A game whose referee runs only built-in bots says so with builtinOnly:
// its adapter refuses an external player.
type adapter[D, B any] struct {
	game        string
	builtinOnly bool
}

// data returns the case's data.
func (a adapter[D, B]) data(c contract.Case) (D, error) {
	d, ok := c.Data.(D)
	if !ok {
		return d, fmt.Errorf("%s: case %q holds %s, not %s (a case of another game?)", a.game, c.ID, typeName(c.Data), reflect.TypeFor[D]())
	}
	return d, nil
}

// bot returns v, a bot built by a strategy (who names it in the error), as
// the game's bot type.
func (a adapter[D, B]) bot(v any, who string) (B, error) {
	b, ok := v.(B)
	if !ok {
		return b, fmt.Errorf("%s: %s is %s, not a %s", a.game, who, typeName(v), reflect.TypeFor[B]())
	}
	return b, nil
}

// seat returns a player's built-in bot as the game's bot type, or the zero
// B for an external bot, whose Command the game's referee runs instead. It
// is on every game's path: it allocates nothing.
func (a adapter[D, B]) seat(pl contract.Player) (B, error) {
	if pl.Bot == nil {
		var zero B
		if a.builtinOnly {
			return zero, fmt.Errorf("%s: entrant %s: external bots are not supported (built-in strategies only)", a.game, pl.Name)
		}
		return zero, nil
	}
	if b, ok := pl.Bot.(B); ok {
		return b, nil // the usual case, without building bot's error text
	}
	return a.bot(pl.Bot, "the bot of "+pl.Name)
}

func typeName(v any) string {
	if v == nil {
		return "nothing"
	}
	return reflect.TypeOf(v).String()
}
