package workflow

import (
	"context"
	"fmt"
	"strings"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
)

// GamesWith lists the names of the registered games for which has is true.
func GamesWith(has func(contract.Game) bool) []string {
	var out []string
	for _, g := range contract.Default.Games() {
		if has(g) {
			out = append(out, g.Info().Name)
		}
	}
	return out
}

// AbilityGame returns the game named name as an A (one of the optional
// interfaces a game may offer), or a usage error naming the games that
// have the ability (what).
func AbilityGame[A any](name, what string) (A, error) {
	var zero A
	g, err := contract.Default.Game(name)
	if err != nil {
		return zero, cli.Usagef("%v", err)
	}
	a, ok := g.(A)
	if !ok {
		have := GamesWith(func(g contract.Game) bool { _, ok := g.(A); return ok })
		return zero, cli.Usagef("game %s has no %s (games with one: %s)", name, what, strings.Join(have, ", "))
	}
	return a, nil
}

// ServeBot serves built-in strategy spec of game over the game's own
// protocol on io: the strategy as an external bot of the game.
func ServeBot(ctx context.Context, io cli.IO, game, spec string, assign []string, seed uint64) error {
	srv, err := AbilityGame[contract.BotServer](game, "bot protocol here")
	if err != nil {
		return err
	}
	ent, err := entrant.Parse(contract.Default, game, spec, assign...)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if ent.IsExternal() {
		return cli.Usagef("%s is an external command; give a built-in strategy", spec)
	}
	b, err := ent.Bot(seed)
	if err != nil {
		return err
	}
	if err := srv.ServeBot(ctx, io, b); err != nil {
		return fmt.Errorf("bot %s %s: %w", game, ent.Label(), err)
	}
	return nil
}
