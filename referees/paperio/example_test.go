package paperio_test

import (
	"fmt"
	"log"

	"gauntlet/referees/paperio"
)

// A search plays ahead on a copy of the state; the original is untouched.
func ExampleState_Advance() {
	s, err := paperio.NewState(paperio.DefaultRules(), 2)
	if err != nil {
		log.Fatal(err)
	}
	sim := *s // an independent copy
	for t := 0; t < 12; t++ {
		sim.Advance(&paperio.Commands{paperio.Up, paperio.Down})
	}
	p := sim.Player(1)
	fmt.Println(p.X, p.Y, p.Dir, p.NLines, s.Player(1).Y)
	// Output: 285 495 up 1 435
}

// The canonical hash of the conformance traces.
func ExampleState_Hash() {
	s, err := paperio.NewState(paperio.DefaultRules(), 1)
	if err != nil {
		log.Fatal(err)
	}
	_, h := s.Hash(nil)
	fmt.Println(h)
	// Output: d33aa3d84998c011
}
