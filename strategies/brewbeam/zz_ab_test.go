package brewbeam

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"

	"gauntlet/referees/brew"
	"gauntlet/strategies/brewbasic"
)

var abA = flag.String("abA", "", "params A")
var abB = flag.String("abB", "greedy", "params B or greedy")
var abN = flag.Int("abN", 50, "seeds")
var abS = flag.Int("abS", 1000, "first seed")

func mk(spec string, seed uint64) brew.Bot {
	if spec == "greedy" {
		g, _ := brewbasic.NewGreedy(nil, seed)
		return g
	}
	var v map[string]float64
	if spec != "" {
		vv, err := Params.Parse(spec)
		if err != nil {
			panic(err)
		}
		v = vv
	}
	b, err := New(v, seed)
	if err != nil {
		panic(err)
	}
	return b
}

func TestABTmp(t *testing.T) {
	var mu sync.Mutex
	var res tally
	pairs := [5]int{}
	var wg sync.WaitGroup
	seeds := make(chan int64)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				pair := 0.0
				var loc tally
				for seat := 0; seat < 2; seat++ {
					var ag [2]brew.Agent
					ag[seat] = brew.Agent{Bot: mk(*abA, uint64(seed))}
					ag[1-seat] = brew.Agent{Bot: mk(*abB, uint64(seed))}
					r, _ := brew.PlayMatch(context.Background(), seed, 3, ag, brew.MatchOptions{NoTimeLimit: true})
					loc.add(r.Scores[seat], r.Scores[1-seat])
					switch {
					case r.Scores[seat] > r.Scores[1-seat]:
						pair += 1
					case r.Scores[seat] == r.Scores[1-seat]:
						pair += 0.5
					}
				}
				mu.Lock()
				res.win += loc.win
				res.draw += loc.draw
				res.loss += loc.loss
				pairs[int(pair*2)]++
				mu.Unlock()
			}
		}()
	}
	for s := *abS; s < *abS+*abN; s++ {
		seeds <- int64(s)
	}
	close(seeds)
	wg.Wait()
	fmt.Printf("A=%q B=%q: W/D/L %d/%d/%d score %.3f pentanomial %v\n", *abA, *abB, res.win, res.draw, res.loss, res.score(), pairs)
}
