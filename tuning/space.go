package tuning

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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
	// Specs are the declared parameters, with the searched ranges narrowed
	// where Ranges says so.
	Specs param.Specs
	Tuned []string     // searched parameters, in declaration order
	Base  param.Values // every parameter's value outside the search
	// Ranges are the searched ranges narrowed from the declared ones
	// (NAME=LO:HI items), by name; nil when none is.
	Ranges map[string][2]float64
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

// NewSpace checks the items against the declaration and builds the space.
// An item is a parameter's name, or NAME=LO:HI to draw it from [LO, HI]
// only: a range within the declared one, holding the base value, of a
// numeric parameter (whole numbers for an integer one). No items means
// every declared parameter over its declared range. base must be valid
// values of specs (missing ones take their defaults).
func NewSpace(specs param.Specs, items []string, base param.Values) (*Space, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("the strategy declares no parameters: nothing to tune")
	}
	b, err := specs.Validate(base)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	narrowed := slices.Clone(specs)
	var ranges map[string][2]float64
	for _, item := range items {
		n, rng, hasRange := strings.Cut(item, "=")
		s, ok := specs.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("--space: unknown param %q (known: %s)", n, strings.Join(specs.Names(), ", "))
		}
		if want[n] {
			return nil, fmt.Errorf("--space: param %q listed twice", n)
		}
		want[n] = true
		if !hasRange {
			continue
		}
		lo, hi, err := parseRange(s, rng, b[n])
		if err != nil {
			return nil, fmt.Errorf("--space: %s: %w", item, err)
		}
		if ranges == nil {
			ranges = map[string][2]float64{}
		}
		ranges[n] = [2]float64{lo, hi}
		i := slices.IndexFunc(narrowed, func(x param.Spec) bool { return x.Name == n })
		narrowed[i].Min, narrowed[i].Max = lo, hi
	}
	sp := &Space{Specs: narrowed, Base: b, Ranges: ranges}
	for _, s := range specs {
		if len(items) == 0 || want[s.Name] {
			sp.Tuned = append(sp.Tuned, s.Name)
		}
	}
	return sp, nil
}

// parseRange reads the LO:HI of a narrowed search range of s, whose base
// value is base.
func parseRange(s param.Spec, rng string, base float64) (lo, hi float64, err error) {
	if s.Kind == param.Categorical {
		return 0, 0, fmt.Errorf("a categorical parameter (%s) takes no range", strings.Join(s.Choices, "|"))
	}
	l, h, ok := strings.Cut(rng, ":")
	if !ok {
		return 0, 0, fmt.Errorf("want NAME=LO:HI, e.g. %s=%s:%s", s.Name, s.FormatValue(s.Min), s.FormatValue(s.Max))
	}
	if lo, err = s.ParseValue(l); err != nil {
		return 0, 0, err
	}
	if hi, err = s.ParseValue(h); err != nil {
		return 0, 0, err
	}
	switch {
	case lo >= hi:
		return 0, 0, fmt.Errorf("the low end %s is not below the high end %s", s.FormatValue(lo), s.FormatValue(hi))
	case base < lo || base > hi:
		return 0, 0, fmt.Errorf("the base value %s lies outside the range (set it inside with --param %s=...)", s.FormatValue(base), s.Name)
	}
	return lo, hi, nil
}

// Items returns the searched parameters as NewSpace takes them: a name, or
// NAME=LO:HI where the range is narrowed.
func (sp *Space) Items() []string {
	return SpaceItems(sp.Tuned, sp.Ranges)
}

// SpaceItems joins searched names and their narrowed ranges into the items
// NewSpace takes.
func SpaceItems(names []string, ranges map[string][2]float64) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if r, ok := ranges[n]; ok {
			out[i] = n + "=" + strconv.FormatFloat(r[0], 'g', -1, 64) + ":" + strconv.FormatFloat(r[1], 'g', -1, 64)
		}
	}
	return out
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
