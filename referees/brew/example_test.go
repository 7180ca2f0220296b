package brew_test

import (
	"fmt"
	"log"
	"strings"

	"gauntlet/referees/brew"
)

// A bot's output line is parsed as the referee parses it: ASCII-only case
// folding, a CAST count that must be digits, and an unparseable line is a
// disqualification.
func ExampleParseCommand() {
	for _, line := range []string{"cast 79 2 heat up", "CAST 79 -1", "BREW 00042", "BREW42"} {
		a, err := brew.ParseCommand(line, 3)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s (times %d)\n", a, a.Times)
	}
	// Output:
	// CAST 79 2 (times 2)
	// CAST 79 (times 1)
	// BREW 42 (times 0)
	// unparseable line "BREW42"
}

// A search copies the state by value and plays its own line on the copy.
func ExampleState_StepOne() {
	s, err := brew.New(0, 3)
	if err != nil {
		log.Fatal(err)
	}
	sim := s // a full, independent copy
	sim.StepOne(0, brew.CastAction(78, 1))
	fmt.Println("copy:", sim.P[0].Inv, "round", sim.Round)
	fmt.Println("original:", s.P[0].Inv, "round", s.Round)
	// Output:
	// copy: [5 0 0 0] round 1
	// original: [3 0 0 0] round 0
}

// The first turn's input of seed 0 for player 0 (the first lines).
func ExampleState_AppendInput() {
	s, err := brew.New(0, 3)
	if err != nil {
		log.Fatal(err)
	}
	text := string(s.AppendInput(nil, 0))
	lines := strings.Split(text, "\n")
	fmt.Println(strings.Join(lines[:3], "\n"))
	// Output:
	// 19
	// 42 BREW -2 -2 0 0 9 3 4 0 0
	// 43 BREW -3 -2 0 0 8 1 4 0 0
}
