package reports_test

import (
	"fmt"
	"os"

	"gauntlet/reports"
)

// The importance of a parameter is the share of the variance of the value
// that its bins explain. Here the value is 10·x; y is a permutation of the
// trials that happens to explain some variance by chance (its bins hold the
// values {0, 50}, {40, 30} and {20, 10}: η² = 400/1750).
func ExampleParamImportance() {
	s := &reports.Study{Name: "demo", Params: []string{"x", "y"}}
	for i := 0; i < 6; i++ {
		x, y := float64(i), float64((i*5)%6)
		s.Trials = append(s.Trials, reports.Trial{Number: i, State: reports.TrialComplete,
			Value: 10 * x, Params: map[string]float64{"x": x, "y": y}})
	}
	imp, why := reports.ParamImportance(s)
	if why != "" {
		fmt.Println(why)
		return
	}
	for _, im := range imp {
		fmt.Printf("%s: %d bins, eta2 %.3f, share %.3f\n", im.Param, im.Bins, im.Eta2, im.Share)
	}
	// Output:
	// x: 3 bins, eta2 0.914, share 0.800
	// y: 3 bins, eta2 0.229, share 0.200
}

func ExampleTable_WriteMarkdown() {
	t := &reports.Table{Title: "scores", Header: []string{"case", "score"},
		Rows: [][]string{{"p0/s0", reports.Num(1200)}, {"p1/s0", reports.Num(310.5)}}}
	t.NumericRight()
	t.Footer = []string{"mean", reports.PlusMinus(755.25, 300, 1210.5)}
	t.WriteMarkdown(os.Stdout)
	// Output:
	// ### scores
	//
	// | case     |         score |
	// |:---------|--------------:|
	// | p0/s0    |          1200 |
	// | p1/s0    |        310.50 |
	// | **mean** | **755 ± 455** |
}
