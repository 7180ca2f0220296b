package spsa

import (
	"math"
	"strings"
	"testing"

	"gauntlet/strategies/param"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// The gains of N = 1000 iterations (A = 100, α = 0.602, γ = 0.101) for a
// parameter with c_end = 2 and r_end = 0.002, computed by hand (Python,
// double precision) from fishtest's definitions:
//
//	c = c_end·N^γ, a = r_end·c_end²·(A+N)^α, c_k = c/k^γ, a_k = a/(A+k)^α,
//	R_k = a_k/c_k², update = R_k·c_k·result·flip.
func TestScheduleHandComputed(t *testing.T) {
	s, err := NewSchedule(1000, DefaultARatio, DefaultAlpha, DefaultGamma)
	if err != nil {
		t.Fatal(err)
	}
	if s.A != 100 {
		t.Fatalf("A = %v, want 100", s.A)
	}
	g := s.Gains(2, 0.002)
	if !near(g.C, 4.018185625217456) || !near(g.A, 0.5420113530837676) {
		t.Fatalf("gains %+v, want c 4.018185625217456, a 0.5420113530837676", g)
	}
	for _, c := range []struct {
		k              int
		ck, ak, r, upd float64 // upd: result -2, flip +1
	}{
		{1, 4.018185625217456, 0.033682701492112714, 0.0020861566909309405, -0.01676512965489984},
		{10, 3.1844174541023405, 0.0319955799808878, 0.0031552225393986968, -0.02009509145207664},
		{500, 2.145033233635885, 0.011522887736535824, 0.00250433994257136, -0.010743784810274703},
		{1000, 2, 0.008, 0.002, -0.008},
	} {
		ck, ak, r, upd := s.C(g, c.k), s.Step(g, c.k), s.R(g, c.k), s.Update(g, c.k, -2, 1)
		if !near(ck, c.ck) || !near(ak, c.ak) || !near(r, c.r) || !near(upd, c.upd) {
			t.Errorf("k=%d: c_k %v a_k %v R_k %v update %v; want %v %v %v %v", c.k, ck, ak, r, upd, c.ck, c.ak, c.r, c.upd)
		}
		if !near(upd, r*ck*-2) {
			t.Errorf("k=%d: update %v is not R_k·c_k·result %v", c.k, upd, r*ck*-2)
		}
	}
	// A is truncated as fishtest's int(A_ratio·games/2).
	if s, err := NewSchedule(15, 0.1, DefaultAlpha, DefaultGamma); err != nil || s.A != 1 {
		t.Errorf("A of 15 iterations = %v (%v), want 1", s.A, err)
	}
	for _, bad := range [][4]float64{{0, 0.1, 0.6, 0.1}, {10, -1, 0.6, 0.1}, {10, 0.1, 0, 0.1}, {10, 0.1, 0.6, math.NaN()}} {
		if _, err := NewSchedule(int(bad[0]), bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("NewSchedule%v: no error", bad)
		}
	}
}

func TestDefaultCEnd(t *testing.T) {
	for _, c := range []struct {
		sp   param.Spec
		want float64
	}{
		{param.Spec{Kind: param.Float, Min: 0, Max: 5}, 0.5},
		{param.Spec{Kind: param.Int, Min: 0, Max: 50}, 5},
		{param.Spec{Kind: param.Int, Min: 0, Max: 3}, MinIntCEnd}, // 0.3 would be rounded away
		{param.Spec{Kind: param.LogFloat, Min: 0.01, Max: 100}, math.Log(1e4) / 10},
	} {
		if got := DefaultCEnd(c.sp); !near(got, c.want) {
			t.Errorf("%v: c_end %v, want %v", c.sp, got, c.want)
		}
	}
}

var toySpecs = param.Specs{
	{Name: "x", Kind: param.Float, Min: 0, Max: 10, Default: 2},
	{Name: "k", Kind: param.Int, Min: 0, Max: 20, Default: 2},
	{Name: "lr", Kind: param.LogFloat, Min: 0.01, Max: 100, Default: 0.05},
	{Name: "mode", Kind: param.Categorical, Choices: []string{"a", "b"}, Default: 0},
	{Name: "one", Kind: param.Int, Min: 3, Max: 3, Default: 3},
}

func TestSpaceChoosesNumericParams(t *testing.T) {
	two := 0.5
	sp, err := NewSpace(toySpecs, []string{"all"}, param.Values{"x": 4}, map[string]Setting{AllParams: {REnd: &two}, "k": {CEnd: &two}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range sp.Params {
		names = append(names, p.Name)
		if p.REnd != 0.5 {
			t.Errorf("%s: r_end %v, want 0.5 from the setting for every parameter", p.Name, p.REnd)
		}
	}
	if strings.Join(names, ",") != "x,k,lr" || strings.Join(sp.Fixed, ",") != "mode,one" {
		t.Fatalf("tuned %v fixed %v; want x,k,lr and mode,one", names, sp.Fixed)
	}
	if sp.Params[1].CEnd != 0.5 || sp.Params[0].CEnd != 1 || sp.Params[0].Start != 4 {
		t.Fatalf("params %+v", sp.Params)
	}
	th := sp.Theta0()
	if th[0] != 4 || th[1] != 2 || !near(th[2], math.Log(0.05)) {
		t.Fatalf("theta0 %v", th)
	}
	// Values rounds the integer parameter and maps lr back from its logarithm.
	v := sp.Values([]float64{4.5, 7.6, 0})
	if v["x"] != 4.5 || v["k"] != 8 || !near(v["lr"], 1) || v["mode"] != 0 || v["one"] != 3 {
		t.Fatalf("values %v", v)
	}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"mode"}, `param "mode" is categorical (a|b)`},
		{[]string{"one"}, `param "one" has a single value`},
		{[]string{"x", "nope"}, `unknown param "nope" (known: x, k, lr, mode, one)`},
		{[]string{"x", "x"}, `listed twice`},
		{[]string{"x", "all"}, `"all" cannot be combined`},
		{[]string{"x=1:2"}, `takes names only (a narrowed range, NAME=LO:HI, is tune's)`},
	} {
		if _, err := NewSpace(toySpecs, c.names, nil, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("space %v: error %v, want %q", c.names, err, c.want)
		}
	}
	neg := -1.0
	if _, err := NewSpace(toySpecs, []string{"x"}, nil, map[string]Setting{"x": {CEnd: &neg}}); err == nil || !strings.Contains(err.Error(), "c_end of param x") {
		t.Errorf("negative c_end: %v", err)
	}
	if _, err := NewSpace(toySpecs, []string{"x"}, nil, map[string]Setting{"k": {CEnd: &two}}); err == nil || !strings.Contains(err.Error(), `param "k" is not tuned`) {
		t.Errorf("setting of an untuned param: %v", err)
	}
}

// Stochastic rounding: an integer θ± of 7.25 plays 7 three times in four
// and 8 once, so its mean is 7.25; a float is played as it is; values stay
// in range.
func TestStochasticRounding(t *testing.T) {
	sp, err := NewSpace(toySpecs, []string{"x", "k"}, param.Values{"k": 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ck := []float64{0.5, 0.25}
	theta := []float64{9.9, 7}
	const n = 40000
	sum, eights := 0.0, 0
	for k := 1; k <= n; k++ {
		d := sp.drawFor(42, k)
		v := sp.perturbed(theta, ck, d, 1)
		if x := v["x"]; x < 0 || x > 10 || (d.flips[0] > 0 && x != 10) || (d.flips[0] < 0 && !near(x, 9.4)) {
			t.Fatalf("iteration %d: x = %v with flip %v", k, x, d.flips[0])
		}
		kv := v["k"]
		if kv != math.Trunc(kv) {
			t.Fatalf("k = %v is not an integer", kv)
		}
		if d.flips[1] > 0 {
			sum += kv - 7.25
			if kv == 8 {
				eights++
			}
		} else {
			sum += kv - 6.75
		}
	}
	if math.Abs(sum/n) > 0.01 {
		t.Errorf("mean rounding error %v, want about 0", sum/n)
	}
	if eights < n/2/4*9/10 || eights > n/2/4*11/10 {
		t.Errorf("7.25 rounded up %d times in about %d, want about a quarter", eights, n/2)
	}
	// Same seed and iteration, same draws.
	a, b := sp.drawFor(5, 17), sp.drawFor(5, 17)
	if flipString(a.flips) != flipString(b.flips) || a.uPlus[0] != b.uPlus[0] || a.uMin[1] != b.uMin[1] {
		t.Fatal("draws differ for the same seed and iteration")
	}
}
