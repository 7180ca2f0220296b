package stats

import (
	"math"
	"strings"
	"testing"
)

// Student's sleep data (R's datasets::sleep): extra hours of sleep of ten
// patients under two drugs. R prints
//
//	t.test(extra[group == 1], extra[group == 2], paired = TRUE)
//	95 percent confidence interval: -2.4598858 -0.7001142
//	mean of the differences: -1.58
//
//	t.test(extra[group == 1])
//	95 percent confidence interval: -0.5297804  2.0297804
//	mean of x: 0.75
var (
	sleep1 = []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	sleep2 = []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
)

func TestPairedMeanCI95Sleep(t *testing.T) {
	e, err := PairedMeanCI95(sleep1, sleep2)
	if err != nil {
		t.Fatal(err)
	}
	if !near(e.Value, -1.58, 1e-12) || math.Abs(e.Lo+2.4598858) > 5e-8 || math.Abs(e.Hi+0.7001142) > 5e-8 || e.Note != "" {
		t.Errorf("paired: %+v, R: -1.58 [-2.4598858, -0.7001142]", e)
	}
	e = MeanCI95(sleep1)
	if !near(e.Value, 0.75, 1e-12) || math.Abs(e.Lo+0.5297804) > 5e-8 || math.Abs(e.Hi-2.0297804) > 5e-8 {
		t.Errorf("one sample: %+v, R: 0.75 [-0.5297804, 2.0297804]", e)
	}
	if _, err := PairedMeanCI95(sleep1, sleep2[:3]); err == nil {
		t.Error("paired samples of different lengths accepted")
	}
}

func TestMeanCIEdges(t *testing.T) {
	if e := MeanCI95(nil); e.Value != 0 || e.Lo != 0 || e.Hi != 0 || e.Note == "" {
		t.Errorf("empty: %+v", e)
	}
	if e := MeanCI95([]float64{4}); e.Value != 4 || e.Lo != 4 || e.Hi != 4 || e.Note == "" {
		t.Errorf("one value: %+v", e)
	}
	if e := MeanCI95([]float64{2, 2, 2}); e.Value != 2 || e.Lo != 2 || e.Hi != 2 || !strings.Contains(e.Note, "zero variance") {
		t.Errorf("constant: %+v", e)
	}
	if e := MeanCI95([]float64{1, math.Inf(1)}); e.Note == "" || math.IsInf(e.Value, 0) {
		t.Errorf("infinite value: %+v", e)
	}
	if _, err := MeanCI([]float64{1, 2}, 1); err == nil {
		t.Error("level 1 accepted")
	}
	// Two values 0 and 2: mean 1, s = √2, half-width t₀.₉₇₅,₁·√2/√2 = 12.7062.
	e, err := MeanCI([]float64{0, 2}, 0.95)
	if err != nil || math.Abs(e.Hi-1-12.7062047) > 1e-6 {
		t.Errorf("n = 2: %+v, %v", e, err)
	}
	// Wider level, wider interval.
	e90, err := MeanCI(sleep1, 0.90)
	if err != nil {
		t.Fatal(err)
	}
	e99, err := MeanCI(sleep1, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	if !(e90.HalfWidth() < MeanCI95(sleep1).HalfWidth() && MeanCI95(sleep1).HalfWidth() < e99.HalfWidth()) {
		t.Error("interval widths not ordered by level")
	}
}
