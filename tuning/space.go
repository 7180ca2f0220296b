package tuning

import (
	"fmt"
	"math"
	"strings"

	"github.com/c-bata/goptuna"

	"gauntlet/strategies/param"
)

// Space is a study's search space: the strategy's declared parameters, the
// names that are searched, and the base values of every parameter (the
// defaults with the user's --param overrides). Parameters outside the search
// keep their base values; the base values of all of them are also the
// "default" configuration the best trial is compared with.
type Space struct {
	Specs param.Specs
	Tuned []string     // searched parameters, in declaration order
	Base  param.Values // every parameter's value outside the search
}

// SplitNames reads a comma-separated list of parameter names ("a, b,c");
// empty items are dropped.
func SplitNames(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// NewSpace checks the names against the declaration and builds the space.
// No names means every declared parameter. base must be valid values of
// specs (missing ones take their defaults).
func NewSpace(specs param.Specs, names []string, base param.Values) (*Space, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("the strategy declares no parameters: nothing to tune")
	}
	b, err := specs.Validate(base)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		if _, ok := specs.Lookup(n); !ok {
			return nil, fmt.Errorf("--space: unknown param %q (known: %s)", n, strings.Join(specs.Names(), ", "))
		}
		if want[n] {
			return nil, fmt.Errorf("--space: param %q listed twice", n)
		}
		want[n] = true
	}
	sp := &Space{Specs: specs, Base: b}
	for _, s := range specs {
		if len(names) == 0 || want[s.Name] {
			sp.Tuned = append(sp.Tuned, s.Name)
		}
	}
	return sp, nil
}

// Distribution returns the Goptuna distribution of a declared parameter:
// int → IntUniformDistribution, float → UniformDistribution, log-float →
// LogUniformDistribution, categorical → CategoricalDistribution (whose
// internal value is the choice index, as in param.Values).
func Distribution(s param.Spec) any {
	switch s.Kind {
	case param.Int:
		return goptuna.IntUniformDistribution{Low: int(s.Min), High: int(s.Max)}
	case param.LogFloat:
		return goptuna.LogUniformDistribution{Low: s.Min, High: s.Max}
	case param.Categorical:
		return goptuna.CategoricalDistribution{Choices: append([]string(nil), s.Choices...)}
	}
	return goptuna.UniformDistribution{Low: s.Min, High: s.Max}
}

// Distributions maps every searched parameter to its distribution (the
// study's defined search space).
func (sp *Space) Distributions() map[string]any {
	out := make(map[string]any, len(sp.Tuned))
	for _, n := range sp.Tuned {
		s, _ := sp.Specs.Lookup(n)
		out[n] = Distribution(s)
	}
	return out
}

// Suggest asks the trial for every searched parameter, in declaration order,
// and returns the complete values (base values for the others), validated.
func (sp *Space) Suggest(t *goptuna.Trial) (param.Values, error) {
	v := make(param.Values, len(sp.Base))
	for k, x := range sp.Base {
		v[k] = x
	}
	for _, n := range sp.Tuned {
		s, _ := sp.Specs.Lookup(n)
		var x float64
		var err error
		switch s.Kind {
		case param.Int:
			var i int
			i, err = t.SuggestInt(n, int(s.Min), int(s.Max))
			x = float64(i)
		case param.Float:
			x, err = t.SuggestFloat(n, s.Min, s.Max)
		case param.LogFloat:
			x, err = t.SuggestLogFloat(n, s.Min, s.Max)
		case param.Categorical:
			var c string
			c, err = t.SuggestCategorical(n, s.Choices)
			if err == nil {
				x, err = s.ParseValue(c)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("suggesting %s: %w", n, err)
		}
		v[n] = x
	}
	return sp.Specs.Validate(v)
}

// Internal returns the searched parameters of v in Goptuna's internal
// representation (for Study.EnqueueTrial).
func (sp *Space) Internal(v param.Values) map[string]float64 {
	out := make(map[string]float64, len(sp.Tuned))
	for _, n := range sp.Tuned {
		x, ok := v[n]
		if !ok {
			x = sp.Base[n]
		}
		out[n] = x
	}
	return out
}

// FromInternal rebuilds complete values from a trial's internal parameters
// (base values for the parameters it lacks).
func (sp *Space) FromInternal(internal map[string]float64) (param.Values, error) {
	v := make(param.Values, len(sp.Base))
	for k, x := range sp.Base {
		v[k] = x
	}
	for _, n := range sp.Tuned {
		if x, ok := internal[n]; ok {
			s, _ := sp.Specs.Lookup(n)
			if s.Kind == param.Int || s.Kind == param.Categorical {
				x = math.Round(x)
			}
			v[n] = x
		}
	}
	return sp.Specs.Validate(v)
}
