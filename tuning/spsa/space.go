package spsa

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gauntlet/strategies/param"
)

// Param is one tuned parameter as a study defines it. SPSA works in its
// coordinates: the value itself, or its natural logarithm for a log-float
// parameter; c_end is in those coordinates.
type Param struct {
	Name  string  `json:"name"`
	Kind  string  `json:"kind"` // "int", "float" or "log-float"
	Min   float64 `json:"min"`  // declared range, in the parameter's units
	Max   float64 `json:"max"`
	Start float64 `json:"start"` // start value, in the parameter's units
	CEnd  float64 `json:"c_end"` // perturbation at the last iteration
	REnd  float64 `json:"r_end"` // learning rate at the last iteration
}

// log reports whether the parameter is searched on a log scale.
func (p Param) log() bool { return p.Kind == param.LogFloat.String() }

// isInt reports whether the parameter takes integer values.
func (p Param) isInt() bool { return p.Kind == param.Int.String() }

// Lo and Hi are the range in SPSA coordinates.
func (p Param) Lo() float64 { return p.coord(p.Min) }

// Hi is the top of the range in SPSA coordinates.
func (p Param) Hi() float64 { return p.coord(p.Max) }

// coord maps a value to SPSA coordinates.
func (p Param) coord(x float64) float64 {
	if p.log() {
		return math.Log(x)
	}
	return x
}

// Value maps a coordinate back to the parameter's units (unrounded),
// clamped to the declared range.
func (p Param) Value(t float64) float64 {
	if p.log() {
		t = math.Exp(t)
	}
	return min(max(t, p.Min), p.Max)
}

// Final is the value a coordinate gives as a result: Value, rounded to the
// nearest integer for an integer parameter.
func (p Param) Final(t float64) float64 {
	x := p.Value(t)
	if p.isInt() {
		x = min(max(math.Round(x), p.Min), p.Max)
	}
	return x
}

// played is the value a perturbed coordinate is played with: Value, rounded
// stochastically for an integer parameter (⌊x + u⌋, u uniform in [0, 1), as
// fishtest's worker rounds; the expected value is x).
func (p Param) played(t, u float64) float64 {
	x := p.Value(t)
	if p.isInt() {
		x = min(max(math.Floor(x+u), p.Min), p.Max)
	}
	return x
}

// Setting overrides a parameter's c_end and r_end (nil: the default).
type Setting struct {
	CEnd *float64 `json:"c_end,omitempty"`
	REnd *float64 `json:"r_end,omitempty"`
}

// AllParams is the key of Settings that applies to every tuned parameter;
// a parameter's own entry wins over it.
const AllParams = "*"

// DefaultCEnd is a parameter's default c_end: a tenth of its range in
// SPSA coordinates, at least MinIntCEnd for an integer parameter.
func DefaultCEnd(sp param.Spec) float64 {
	p := Param{Kind: sp.Kind.String(), Min: sp.Min, Max: sp.Max}
	c := (p.Hi() - p.Lo()) * DefaultCEndShare
	if sp.Kind == param.Int {
		c = max(c, MinIntCEnd)
	}
	return c
}

// Space is the tuned parameters of a target and the start values of all of
// its parameters.
type Space struct {
	Specs  param.Specs
	Params []Param      // tuned, in declaration order
	Start  param.Values // every parameter's start value
	Fixed  []string     // categorical or single-valued parameters left out of "all"
	lo, hi []float64    // range of each tuned parameter in SPSA coordinates
}

// NewSpace builds the tuned space: names lists parameters, or is empty or
// ["all"] for every numeric parameter with a range (categorical ones are
// then kept at their start values and listed in Fixed). A categorical or
// unknown name is an error naming it. start holds the start values
// (validated; missing ones take their defaults); settings override c_end and
// r_end by parameter name or AllParams.
func NewSpace(specs param.Specs, names []string, start param.Values, settings map[string]Setting) (*Space, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("the strategy declares no parameters: nothing to tune")
	}
	st, err := specs.Validate(start)
	if err != nil {
		return nil, err
	}
	all := len(names) == 0 || (len(names) == 1 && names[0] == "all")
	want := map[string]bool{}
	if !all {
		for _, n := range names {
			sp, ok := specs.Lookup(n)
			switch {
			case strings.Contains(n, "="):
				return nil, fmt.Errorf("--space: %q: SPSA moves each parameter within its declared range and takes names only (a narrowed range, NAME=LO:HI, is tune's); its steps are set with c_end and r_end", n)
			case n == "all":
				return nil, fmt.Errorf("--space: \"all\" cannot be combined with parameter names")
			case !ok:
				return nil, fmt.Errorf("--space: unknown param %q (known: %s)", n, strings.Join(specs.Names(), ", "))
			case want[n]:
				return nil, fmt.Errorf("--space: param %q listed twice", n)
			case sp.Kind == param.Categorical:
				return nil, fmt.Errorf("--space: param %q is categorical (%s): SPSA perturbs numbers only; leave it out (it keeps its start value %s)",
					n, strings.Join(sp.Choices, "|"), sp.FormatValue(st[n]))
			case sp.Min == sp.Max:
				return nil, fmt.Errorf("--space: param %q has a single value (%s): nothing to tune", n, sp.FormatValue(sp.Min))
			}
			want[n] = true
		}
	}
	for k, s := range settings {
		if k != AllParams {
			if _, ok := specs.Lookup(k); !ok {
				return nil, fmt.Errorf("c_end/r_end setting: unknown param %q (known: %s)", k, strings.Join(specs.Names(), ", "))
			}
			if !all && !want[k] {
				return nil, fmt.Errorf("c_end/r_end setting: param %q is not tuned (--space)", k)
			}
		}
		if s.CEnd != nil && !(*s.CEnd > 0 && !math.IsInf(*s.CEnd, 0)) {
			return nil, fmt.Errorf("c_end of %s: %v: want a finite number > 0", settingName(k), *s.CEnd)
		}
		if s.REnd != nil && !(*s.REnd >= 0 && !math.IsInf(*s.REnd, 0)) {
			return nil, fmt.Errorf("r_end of %s: %v: want a finite number >= 0", settingName(k), *s.REnd)
		}
	}
	sp := &Space{Specs: specs, Start: st}
	for _, s := range specs {
		numeric := s.Kind != param.Categorical && s.Min < s.Max
		if all && !numeric {
			sp.Fixed = append(sp.Fixed, s.Name)
			continue
		}
		if !all && !want[s.Name] {
			continue
		}
		p := Param{Name: s.Name, Kind: s.Kind.String(), Min: s.Min, Max: s.Max, Start: st[s.Name],
			CEnd: DefaultCEnd(s), REnd: DefaultREnd}
		for _, key := range []string{AllParams, s.Name} {
			if set, ok := settings[key]; ok {
				if set.CEnd != nil {
					p.CEnd = *set.CEnd
				}
				if set.REnd != nil {
					p.REnd = *set.REnd
				}
			}
		}
		sp.Params = append(sp.Params, p)
	}
	if len(sp.Params) == 0 {
		return nil, fmt.Errorf("--space: the strategy has no numeric parameter to tune (%s are categorical or single-valued)", strings.Join(sp.Fixed, ", "))
	}
	sp.init()
	return sp, nil
}

func settingName(k string) string {
	if k == AllParams {
		return "every parameter"
	}
	return "param " + k
}

func (sp *Space) init() {
	sp.lo = make([]float64, len(sp.Params))
	sp.hi = make([]float64, len(sp.Params))
	for i, p := range sp.Params {
		sp.lo[i], sp.hi[i] = p.Lo(), p.Hi()
	}
}

// Theta0 is the start point in SPSA coordinates.
func (sp *Space) Theta0() []float64 {
	t := make([]float64, len(sp.Params))
	for i, p := range sp.Params {
		t[i] = min(max(p.coord(p.Start), sp.lo[i]), sp.hi[i])
	}
	return t
}

// clamp moves t into the range of coordinate i.
func (sp *Space) clamp(i int, t float64) float64 { return min(max(t, sp.lo[i]), sp.hi[i]) }

// Values returns every parameter's value at θ: the start values with the
// tuned ones set to their final (rounded) values.
func (sp *Space) Values(theta []float64) param.Values {
	v := make(param.Values, len(sp.Start))
	for k, x := range sp.Start {
		v[k] = x
	}
	for i, p := range sp.Params {
		v[p.Name] = p.Final(theta[i])
	}
	return v
}

// draw is iteration k's randomness: Δ and the rounding draws of θ+ and θ−.
type draw struct {
	flips       []float64 // ±1 per tuned parameter
	uPlus, uMin []float64 // uniform [0, 1) per tuned parameter
}

// drawFor returns iteration k's draws from the generator seeded with the
// study seed and k. Every parameter gets both rounding draws, integer or
// not, so that the stream does not depend on the kinds.
func (sp *Space) drawFor(seed uint64, k int) draw {
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	n := len(sp.Params)
	d := draw{flips: make([]float64, n), uPlus: make([]float64, n), uMin: make([]float64, n)}
	for i := range n {
		d.flips[i] = 1
		if r.IntN(2) == 0 {
			d.flips[i] = -1
		}
	}
	for i := range n {
		d.uPlus[i] = r.Float64()
		d.uMin[i] = r.Float64()
	}
	return d
}

// perturbed returns the values θ+ (sign +1) or θ− (sign −1) plays with at
// perturbations ck.
func (sp *Space) perturbed(theta, ck []float64, d draw, sign float64) param.Values {
	v := make(param.Values, len(sp.Start))
	for k, x := range sp.Start {
		v[k] = x
	}
	u := d.uPlus
	if sign < 0 {
		u = d.uMin
	}
	for i, p := range sp.Params {
		v[p.Name] = p.played(sp.clamp(i, theta[i]+sign*ck[i]*d.flips[i]), u[i])
	}
	return v
}

// flipString writes Δ as "+-+..." for the store.
func flipString(flips []float64) string {
	b := make([]byte, len(flips))
	for i, f := range flips {
		b[i] = '+'
		if f < 0 {
			b[i] = '-'
		}
	}
	return string(b)
}
