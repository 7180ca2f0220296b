package games

import (
	"fmt"
	"reflect"

	"gauntlet/harness"
)

// adapter is one game's typed view of the values that cross the harness
// boundary as any: its case data D (harness.Case.Data) and its bot type B
// (what its strategies' New functions build). Each game declares one, and
// every type assertion of the game goes through it, with one error that
// names the game, the case or strategy, and both types.
type adapter[D, B any] struct{ game string }

// data returns the case's data.
func (a adapter[D, B]) data(c harness.Case) (D, error) {
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

// seatBot builds the bot of a built-in entrant in its seat. It is on every
// game's path: it allocates nothing beyond the bot.
func (a adapter[D, B]) seatBot(pl harness.Player) (B, error) {
	v, err := pl.Entrant.Bot(pl.Seed)
	if err != nil {
		var zero B
		return zero, err
	}
	if b, ok := v.(B); ok {
		return b, nil // the usual case, without building bot's error text
	}
	return a.bot(v, "the bot of strategy "+pl.Entrant.Name())
}

func typeName(v any) string {
	if v == nil {
		return "nothing"
	}
	return reflect.TypeOf(v).String()
}
