package hexsearch

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"gauntlet/referees/hextris"
)

func TestZZBoard(t *testing.T) {
	id, err := strconv.Atoi(os.Getenv("HEXSEARCH_BOARD"))
	if err != nil {
		t.Skip()
	}
	p := official(t, id)
	ps := phraseSet(t, "power")
	s := mustGreedy(t, os.Getenv("HEXSEARCH_PARAMS"))
	sol, _ := s.Solve(context.Background(), p, p.SourceSeeds[0], ps)
	r := hextris.Play(p, p.SourceSeeds[0], ps, sol)
	for i, row := range r.Board {
		if i%2 == 1 {
			fmt.Print(" ")
		}
		fmt.Println(row)
	}
	fmt.Println(r.UnitsLocked, r.EndState, r.MoveScore)
}

func TestZZSol(t *testing.T) {
	id, err := strconv.Atoi(os.Getenv("HEXSEARCH_SOL"))
	if err != nil {
		t.Skip()
	}
	p := official(t, id)
	ps := phraseSet(t, "power")
	s := mustGreedy(t, os.Getenv("HEXSEARCH_PARAMS"))
	sol, _ := s.Solve(context.Background(), p, p.SourceSeeds[0], ps)
	fmt.Println(sol[:min(len(sol), 1500)])
}

func init() {
	if os.Getenv("HEXSEARCH_NODOWN") != "" {
		prefixDown = false
	}
}

func TestZZWaste(t *testing.T) {
	id, err := strconv.Atoi(os.Getenv("HEXSEARCH_WASTE"))
	if err != nil {
		t.Skip()
	}
	p := official(t, id)
	ps := phraseSet(t, "power")
	s := mustGreedy(t, os.Getenv("HEXSEARCH_PARAMS"))
	sol, _ := s.Solve(context.Background(), p, p.SourceSeeds[0], ps)
	// mark characters covered by phrase occurrences
	cov := make([]bool, len(sol))
	for _, ph := range ps.Phrases() {
		for i := 0; i+len(ph) <= len(sol); i++ {
			if sol[i:i+len(ph)] == ph {
				for j := i; j < i+len(ph); j++ {
					cov[j] = true
				}
			}
		}
	}
	var downIn, downOut, sideOut int
	for i, ch := range sol {
		c, _, _ := hextris.DecodeChar(ch)
		down := c == hextris.MoveSW || c == hextris.MoveSE
		switch {
		case down && cov[i]:
			downIn++
		case down:
			downOut++
		case !cov[i]:
			sideOut++
		}
	}
	fmt.Println("downs in phrases", downIn, "downs outside", downOut, "sideways outside", sideOut)
	mid := len(sol) / 2
	fmt.Println(sol[mid : mid+1000])
}

func TestZZMissing(t *testing.T) {
	if os.Getenv("HEXSEARCH_MISSING") == "" {
		t.Skip()
	}
	ps := phraseSet(t, "power")
	for id := range 25 {
		p := official(t, id)
		s := mustGreedy(t)
		sol, _ := s.Solve(context.Background(), p, p.SourceSeeds[0], ps)
		var miss []string
		for _, ph := range ps.Phrases() {
			if !strings.Contains(sol, ph) {
				miss = append(miss, ph)
			}
		}
		fmt.Println(id, p.Width, p.Height, miss)
	}
}
