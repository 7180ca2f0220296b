package paperbasic_test

import (
	"context"
	"fmt"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/paperbasic"
)

// A simple bot against a random one in a seeded server game.
func Example() {
	simple, _ := paperbasic.NewSimple(nil, 3)
	random, _ := paperbasic.NewRandom(nil, 4)
	cfg := paperio.DefaultConfig()
	res, err := paperio.PlayMatch(context.Background(), cfg, 1, []paperio.Agent{{Bot: simple}, {Bot: random}}, paperio.MatchOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("simple ranked", res.Players[0].Rank, "random ranked", res.Players[1].Rank)
	// Output: simple ranked 1 random ranked 2
}
