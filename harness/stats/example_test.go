package stats_test

import (
	"fmt"

	"gauntlet/harness/stats"
)

func ExampleElo() {
	// A 75% score is worth 400·log10(3) Elo; a perfect score is clamped.
	fmt.Printf("%.2f\n", stats.Elo(0.75))
	fmt.Printf("%.2f\n", stats.Elo(1))
	// Output:
	// 190.85
	// 1199.83
}

func ExampleWDL_Elo() {
	games := stats.WDL{W: 30, D: 20, L: 10}
	e := games.Elo()
	fmt.Printf("score %.3f, Elo %.1f ± %.1f\n", games.Score(), e.Value, e.HalfWidth())
	won := stats.WDL{W: 10}.Elo()
	fmt.Printf("%.1f [%.1f, %.1f] %s\n", won.Value, won.Lo, won.Hi, won.Note)
	// Output:
	// score 0.667, Elo 120.4 ± 75.3
	// 1199.8 [858.8, 1199.8] all games won: Elo unbounded above, figures from the regularized sample; interval clamped to ±1199.8 Elo
}

func ExamplePentanomial_Elo() {
	// A fishtest run (Stockfish commit 69a01b88f): fishtest printed
	// "Elo: 4.69 ± 1.4 (95%) LOS: 100.0%" and "nElo: 9.38 ± 2.8 (95%)".
	p := stats.Pentanomial{154, 6440, 16053, 7148, 205}
	e, n := p.Elo(), p.NElo()
	fmt.Printf("Elo: %.2f ± %.1f (95%%) LOS: %.1f%%\n", e.Value, e.HalfWidth(), 100*p.LOS())
	fmt.Printf("nElo: %.2f ± %.1f (95%%)\n", n.Value, n.HalfWidth())
	// Output:
	// Elo: 4.69 ± 1.4 (95%) LOS: 100.0%
	// nElo: 9.38 ± 2.8 (95%)
}

func ExampleLOS() {
	// 60 wins and 40 losses (draws do not count): Φ(20/√100) = Φ(2).
	fmt.Printf("%.4f\n", stats.LOS(60, 40))
	fmt.Printf("%.1f\n", stats.LOS(0, 0))
	// Output:
	// 0.9772
	// 0.5
}

func ExampleSPRT_Status() {
	// fishtest's default test: normalized Elo bounds [0, 2], α = β = 0.05.
	// The pentanomial of tests/view/6a6dac3ac054e285ae029b30, whose page
	// shows "LLR: 2.95 (-2.94,2.94) <0.00,2.00>".
	test, err := stats.NewSPRT(0, 2, 0.05, 0.05, stats.Normalized)
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := test.Status(stats.Pentanomial{20, 1334, 3810, 1569, 35})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("LLR: %.2f (%.2f,%.2f) %s\n", st.LLR, st.Lower, st.Upper, st.Verdict)
	// Output:
	// LLR: 2.95 (-2.94,2.94) H1
}

func ExampleWilcoxonSignedRank() {
	// Darwin's corn plants, from the scipy.stats.wilcoxon documentation:
	// differences in height, cross- minus self-fertilized.
	d := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	r, err := stats.WilcoxonSignedRank(d, stats.TwoSided)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("W+ = %v, W- = %v, p = %.6f (exact %v)\n", r.WPlus, r.WMinus, r.P, r.Exact)
	r, err = stats.WilcoxonSignedRank(d, stats.Greater)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("greater: p = %.6f\n", r.P)
	// Output:
	// W+ = 96, W- = 24, p = 0.041260 (exact true)
	// greater: p = 0.020630
}

func ExamplePairedWorse() {
	// Per-case scores of the best configuration so far and of a trial on
	// the same ten cases (higher is better). The differences tie, so the
	// normal approximation is used: W+ = 2.5 (the four |d| = 1 share rank
	// 2.5), E = 27.5, Var = 96.25 − (60 + 120)/48 = 92.5,
	// z = (2.5 − 27.5 + 0.5)/√92.5 = −2.547, p = Φ(z).
	best := []float64{10, 12, 9, 14, 11, 13, 10, 15, 12, 11}
	trial := []float64{8, 11, 7, 13, 9, 12, 11, 12, 10, 9}
	scratch := make([]float64, stats.WilcoxonScratchLen(len(best)))
	p := stats.PairedWorse(trial, best, scratch)
	fmt.Printf("p = %.4f, prune: %v\n", p, p < 0.05)
	// Output:
	// p = 0.0054, prune: true
}

func ExampleMeanCI95() {
	// Student's sleep data, group 1; R's t.test gives
	// 0.75 [-0.5297804, 2.0297804].
	e := stats.MeanCI95([]float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0})
	fmt.Printf("%.2f [%.7f, %.7f]\n", e.Value, e.Lo, e.Hi)
	// Output:
	// 0.75 [-0.5297804, 2.0297804]
}
