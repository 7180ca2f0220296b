package tuning_test

import (
	"fmt"

	"gauntlet/strategies/param"
	"gauntlet/tuning"
)

// A strategy's declared parameters become Goptuna distributions; --space
// picks the searched ones, the others keep their base values.
func ExampleNewSpace() {
	specs := param.Specs{
		{Name: "depth", Kind: param.Int, Min: 1, Max: 8, Default: 3, Help: "search depth"},
		{Name: "c", Kind: param.LogFloat, Min: 0.01, Max: 10, Default: 1.4, Help: "exploration"},
		{Name: "eval", Kind: param.Categorical, Choices: []string{"fast", "full"}, Default: 1, Help: "evaluation"},
	}
	sp, err := tuning.NewSpace(specs, tuning.SplitNames("depth, eval"), param.Values{"c": 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range sp.Tuned {
		s, _ := specs.Lookup(n)
		fmt.Printf("%s: %T\n", n, tuning.Distribution(s))
	}
	fmt.Println("base c:", sp.Base["c"])
	_, err = tuning.NewSpace(specs, []string{"width"}, nil)
	fmt.Println(err)
	// Output:
	// depth: goptuna.IntUniformDistribution
	// eval: goptuna.CategoricalDistribution
	// base c: 2
	// --space: unknown param "width" (known: depth, c, eval)
}
