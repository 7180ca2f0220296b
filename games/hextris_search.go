package games

import (
	"gauntlet/harness/contract"
	"gauntlet/strategies/hexsearch"
	"gauntlet/strategies/param"
)

func init() {
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "hextris", Name: "hexgreedy", Params: hexsearch.GreedyParams,
		Doc: "best lock placement of each unit by weighted board features, phrases of power typed on the way",
		New: func(v param.Values, seed uint64) (any, error) { return hexsearch.NewGreedy(v, seed) },
	})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "hextris", Name: "hexlookahead", Params: hexsearch.LookaheadParams,
		Doc: "beam search over the next units of the known source, phrases of power typed on the way",
		New: func(v param.Values, seed uint64) (any, error) { return hexsearch.NewLookahead(v, seed) },
	})
}
