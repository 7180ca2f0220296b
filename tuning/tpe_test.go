package tuning

import (
	"math"
	"testing"

	"github.com/c-bata/goptuna"
)

// runGoptuna optimises objective for n trials with sampler on Goptuna's
// in-memory storage and returns the trials in order.
func runGoptuna(t *testing.T, sampler goptuna.Sampler, n int, objective goptuna.FuncObjective) []goptuna.FrozenTrial {
	t.Helper()
	study, err := goptuna.CreateStudy("tpe-test", goptuna.StudyOptionSampler(sampler),
		goptuna.StudyOptionDirection(goptuna.StudyDirectionMaximize), goptuna.StudyOptionLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := study.Optimize(objective, n); err != nil {
		t.Fatal(err)
	}
	trials, err := study.GetTrials()
	if err != nil {
		t.Fatal(err)
	}
	return trials
}

// bowl is a 2-D objective with its maximum 0 at (0.7, -2).
func bowl(tr goptuna.Trial) (float64, error) {
	x, err := tr.SuggestFloat("x", 0, 1)
	if err != nil {
		return 0, err
	}
	y, err := tr.SuggestFloat("y", -5, 5)
	if err != nil {
		return 0, err
	}
	return -((x-0.7)*(x-0.7)*25 + (y+2)*(y+2)), nil
}

func TestTPEReproducibleBySeed(t *testing.T) {
	a := runGoptuna(t, &TPESampler{Seed: 7}, 25, bowl)
	b := runGoptuna(t, &TPESampler{Seed: 7}, 25, bowl)
	c := runGoptuna(t, &TPESampler{Seed: 8}, 25, bowl)
	same := true
	for i := range a {
		if a[i].Params["x"] != b[i].Params["x"] || a[i].Params["y"] != b[i].Params["y"] {
			t.Fatalf("trial %d: seed 7 gave %v and then %v", i, a[i].Params, b[i].Params)
		}
		same = same && a[i].Params["x"] == c[i].Params["x"]
	}
	if same {
		t.Fatal("seeds 7 and 8 drew the same parameters")
	}
}

// late returns the mean distance from the optimum of the last k trials'
// draws of one parameter, over several seeds.
func late(t *testing.T, newSampler func(seed uint64) goptuna.Sampler, n, k int, objective goptuna.FuncObjective, name string, best float64, log bool) float64 {
	t.Helper()
	var sum float64
	seeds := []uint64{1, 2, 3, 4, 5}
	for _, seed := range seeds {
		trials := runGoptuna(t, newSampler(seed), n, objective)
		for _, tr := range trials[n-k:] {
			v := tr.Params[name]
			x, ok := v.(float64)
			if !ok {
				if i, isInt := v.(int); isInt {
					x = float64(i)
				}
			}
			if log {
				sum += math.Abs(math.Log10(x) - math.Log10(best))
			} else {
				sum += math.Abs(x - best)
			}
		}
	}
	return sum / float64(len(seeds)*k)
}

func TestTPEConcentratesFasterThanRandom(t *testing.T) {
	tpe := func(seed uint64) goptuna.Sampler { return &TPESampler{Seed: seed} }
	random := func(seed uint64) goptuna.Sampler { return &RandomSampler{Seed: seed} }
	oneD := func(tr goptuna.Trial) (float64, error) {
		x, err := tr.SuggestFloat("x", 0, 1)
		return -(x - 0.7) * (x - 0.7), err
	}
	for _, c := range []struct {
		name string
		obj  goptuna.FuncObjective
		p    string
		best float64
		log  bool
	}{
		{"1-D", oneD, "x", 0.7, false},
		{"2-D x", bowl, "x", 0.7, false},
		{"2-D y", bowl, "y", -2, false},
		{"int", func(tr goptuna.Trial) (float64, error) {
			k, err := tr.SuggestInt("k", 0, 40)
			return -math.Abs(float64(k) - 31), err
		}, "k", 31, false},
		{"log", func(tr goptuna.Trial) (float64, error) {
			lr, err := tr.SuggestLogFloat("lr", 1e-6, 1)
			return -math.Abs(math.Log10(lr) + 3), err
		}, "lr", 1e-3, true},
	} {
		dt, dr := late(t, tpe, 50, 20, c.obj, c.p, c.best, c.log), late(t, random, 50, 20, c.obj, c.p, c.best, c.log)
		t.Logf("%s: mean distance from the optimum of the last 20 of 50 draws: TPE %.3g, random %.3g", c.name, dt, dr)
		if !(dt < 0.7*dr) {
			t.Errorf("%s: TPE's late draws are not concentrated near the optimum (TPE %.3g, random %.3g)", c.name, dt, dr)
		}
	}
}

func TestTPECategorical(t *testing.T) {
	obj := func(tr goptuna.Trial) (float64, error) {
		c, err := tr.SuggestCategorical("c", []string{"a", "b", "c", "d", "e"})
		if c == "d" {
			return 1, err
		}
		return 0, err
	}
	hits := 0
	for seed := uint64(1); seed <= 5; seed++ {
		for _, tr := range runGoptuna(t, &TPESampler{Seed: seed}, 40, obj)[25:] {
			if tr.Params["c"] == "d" {
				hits++
			}
		}
	}
	// A random draw picks "d" one time in five: 15 of 75.
	if hits < 30 {
		t.Fatalf("TPE drew the best choice %d times in its last 75 draws (random: about 15)", hits)
	}
}
