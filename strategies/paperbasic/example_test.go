package paperbasic_test

import (
	"context"
	"fmt"
	"log"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/paperbasic"
)

// A simple bot against a random one in a seeded server game.
func Example() {
	simple, err := paperbasic.NewSimple(nil, 3)
	if err != nil {
		log.Fatal(err)
	}
	random, err := paperbasic.NewRandom(nil, 4)
	if err != nil {
		log.Fatal(err)
	}
	cfg := paperio.DefaultConfig()
	res, err := paperio.PlayMatch(context.Background(), cfg, 1, []paperio.Agent{{Bot: simple}, {Bot: random}}, paperio.MatchOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("simple ranked", res.Players[0].Rank, "random ranked", res.Players[1].Rank)
	// Output: simple ranked 1 random ranked 2
}
