package hextris

import (
	"context"
	"fmt"
	"log"
	"strings"
)

// Play scores a solution exactly as the organisers' referee: "Ei!" types
// the phrase "ei!" once (2·3 points per occurrence plus the 300-point bonus)
// and locks nothing; an error zeroes the game's score.
func ExamplePlay() {
	p, err := Official(1)
	if err != nil {
		log.Fatal(err)
	}
	power, err := OfficialPhrases("power")
	if err != nil {
		log.Fatal(err)
	}
	r := Play(p, p.SourceSeeds[0], power, "Ei!")
	fmt.Println(r.Score, r.MoveScore, r.PowerScore, r.Error == "", r.MovesExecuted)
	bad := Play(p, p.SourceSeeds[0], power, "ei!x")
	fmt.Println(bad.Score, bad.Error)
	// Output:
	// 306 0 306 true 3
	// 0 repeated-position
}

// RunExternal plugs a contest-style solver into the referee.
func ExampleRunExternal() {
	p, err := Official(21)
	if err != nil {
		log.Fatal(err)
	}
	// A solver that always answers "ei!" for problem 21, seed 0.
	solver := []string{"sh", "-c", `echo '[{"problemId":21,"seed":0,"solution":"ei!"}]'`, "solver"}
	res, err := RunExternal(context.Background(), solver, ExternalOptions{}, p, 0)
	fmt.Println(strings.ToUpper(res.Solution), err)
	// Output:
	// EI! <nil>
}
