package games

import (
	"gauntlet/harness/contract"
	"gauntlet/strategies/paperpaths"
	"gauntlet/strategies/param"
)

func init() {
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "paperio", Name: "paperpaths", Params: paperpaths.Params,
		Doc: "safe random loops against opponents' arrival-time maps, best captured value per tick",
		New: func(v param.Values, seed uint64) (any, error) { return paperpaths.New(v, seed) },
	})
	contract.Default.RegisterStrategy(&contract.Strategy{
		Game: "paperio", Name: "paperpaths2", Params: paperpaths.Params2,
		Doc: "paperpaths with the write-up's safe path builder, endgame close and seek fallback, at the contest's budget (the runner's clock, paths=20000 a cap; its loop order as estimator=1|2, duel_estimator in duels)",
		New: func(v param.Values, seed uint64) (any, error) { return paperpaths.New2(v, seed) },
	})
}
