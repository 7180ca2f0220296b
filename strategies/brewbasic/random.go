// Package brewbasic holds the baseline bots of the brew game (Witches'
// Brew): random, a seeded random legal player, and greedy, a one-ply
// heuristic. They are the reference opponents a stronger strategy must beat.
package brewbasic

import (
	"math/rand/v2"

	"gauntlet/referees/brew"
	"gauntlet/strategies/param"
)

// RandomParams are the parameters of the random bot.
var RandomParams = param.Specs{
	{Name: "learn_prob", Kind: param.Float, Min: 0, Max: 1, Default: 0.1,
		Help: "chance of picking among the LEARN actions when any is legal"},
	{Name: "brew_prob", Kind: param.Float, Min: 0, Max: 1, Default: 0,
		Help: "chance of brewing at once when a BREW is legal"},
}

// Random plays a uniformly random legal action (with tunable shares for
// LEARN and BREW). It never mutates the state it is shown.
type Random struct {
	rng       *rand.Rand
	learnProb float64
	brewProb  float64
	buf       []brew.Action
}

var _ brew.Bot = (*Random)(nil)

// seedSource derives the bot's generator from its seed.
func seedSource(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// NewRandom builds a random bot from parameter values (missing ones take
// their defaults; unknown or out-of-range ones are an error) and a seed.
// legalCap is the starting capacity of a bot's buffer of legal actions,
// grown by State.Legal when a turn has more. A bot is built for every game:
// with brew.MaxLegal's capacity (about 1,000 actions, 12 KB) the two bots'
// buffers were most of a 40 µs game's allocation and a tenth of its time
// (clearing them and collecting them); a turn rarely has more than 40.
const legalCap = 64

func NewRandom(v param.Values, seed uint64) (*Random, error) {
	v, err := RandomParams.Validate(v)
	if err != nil {
		return nil, err
	}
	return &Random{
		rng:       seedSource(seed),
		learnProb: RandomParams.Float(v, "learn_prob"),
		brewProb:  RandomParams.Float(v, "brew_prob"),
		buf:       make([]brew.Action, 0, legalCap),
	}, nil
}

// Act picks a random legal action for seat me.
func (b *Random) Act(s *brew.State, me int) brew.Action {
	legal := s.Legal(me, b.buf[:0])
	b.buf = legal
	var nLearn, nBrew int
	for _, a := range legal {
		switch a.Kind {
		case brew.Learn:
			nLearn++
		case brew.Brew:
			nBrew++
		}
	}
	if nBrew > 0 && b.brewProb > 0 && b.rng.Float64() < b.brewProb {
		return nth(legal, brew.Brew, b.rng.IntN(nBrew))
	}
	if nLearn > 0 && b.rng.Float64() < b.learnProb {
		return nth(legal, brew.Learn, b.rng.IntN(nLearn))
	}
	others := len(legal) - nLearn
	if others == 0 {
		return brew.WaitAction()
	}
	k := b.rng.IntN(others)
	for _, a := range legal {
		if a.Kind == brew.Learn {
			continue
		}
		if k == 0 {
			return a
		}
		k--
	}
	return brew.WaitAction()
}

// nth returns the k-th action of the given kind in list.
func nth(list []brew.Action, kind brew.Kind, k int) brew.Action {
	for _, a := range list {
		if a.Kind == kind {
			if k == 0 {
				return a
			}
			k--
		}
	}
	return brew.WaitAction()
}
