package games

import (
	"gauntlet/harness/contract"
	"gauntlet/strategies/brewbeam"
	"gauntlet/strategies/param"
)

func init() {
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "brew", Name: "brewbeam", Params: brewbeam.Params,
		Doc: "beam search over own actions with merged duplicate states, weighted evaluation and a cheap opponent model",
		New: func(v param.Values, seed uint64) (any, error) { return brewbeam.New(v, seed) },
	})
}
