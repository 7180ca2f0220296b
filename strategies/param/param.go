// Package param declares the tunable parameters of a strategy and parses,
// validates and formats their values.
//
// A strategy publishes a Specs list; everything that configures it (the CLI's
// --param k=v, a best-params JSON file, a tuning trial) goes through the same
// checks, so an unknown name or an out-of-range value is an error naming the
// parameter and never a silent default.
package param

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a parameter's values.
type Kind int

const (
	// Int takes integer values in [Min, Max].
	Int Kind = iota
	// Float takes real values in [Min, Max], searched on a linear scale.
	Float
	// LogFloat takes real values in [Min, Max] (Min > 0), searched on a log scale.
	LogFloat
	// Categorical takes one of Choices; its value is the index of the choice.
	Categorical
)

var kindNames = [...]string{"int", "float", "log-float", "categorical"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Spec declares one parameter.
type Spec struct {
	Name    string
	Kind    Kind
	Min     float64  // smallest value (Int, Float, LogFloat)
	Max     float64  // largest value (Int, Float, LogFloat)
	Choices []string // the values of a Categorical parameter
	Default float64  // default value; for Categorical, the index of the default choice
	Help    string   // one-line meaning
	// Clock marks a wall-clock budget (milliseconds): at any value but 0
	// the strategy's play depends on the machine's speed, so a game played
	// again need not repeat.
	Clock bool
}

// Specs is the ordered list of a strategy's parameters.
type Specs []Spec

// Values maps parameter names to values. A Categorical value is the index of
// the choice. Values produced by Specs methods hold every declared parameter.
type Values map[string]float64

// Lookup returns the spec called name.
func (s Specs) Lookup(name string) (Spec, bool) {
	for _, sp := range s {
		if sp.Name == name {
			return sp, true
		}
	}
	return Spec{}, false
}

// Names lists the parameter names in declaration order.
func (s Specs) Names() []string {
	out := make([]string, len(s))
	for i, sp := range s {
		out[i] = sp.Name
	}
	return out
}

// Check reports a malformed declaration (used by registries and tests).
func (s Specs) Check() error {
	seen := map[string]bool{}
	for _, sp := range s {
		if sp.Name == "" || strings.ContainsAny(sp.Name, "=, \t:") {
			return fmt.Errorf("param %q: bad name", sp.Name)
		}
		if seen[sp.Name] {
			return fmt.Errorf("param %q: declared twice", sp.Name)
		}
		seen[sp.Name] = true
		switch sp.Kind {
		case Int, Float, LogFloat:
			if err := sp.CheckRange(); err != nil {
				return err
			}
		case Categorical:
			if len(sp.Choices) == 0 {
				return fmt.Errorf("param %q: categorical without choices", sp.Name)
			}
		default:
			return fmt.Errorf("param %q: unknown kind %d", sp.Name, sp.Kind)
		}
		if err := sp.check(sp.Default); err != nil {
			return fmt.Errorf("default: %w", err)
		}
	}
	return nil
}

// MaxInt is the largest magnitude of an Int parameter's bounds: 2^53,
// beyond which a float64 (the type of Values) no longer holds every
// integer, so a value would reach a strategy or a bot rounded.
const MaxInt = 1 << 53

// MaxFloat is the largest magnitude of a Float or LogFloat parameter's
// bounds. Tuning works with the range's width and its square (SPSA's gains,
// CMA-ES's covariance, TPE's kernels): bounds within 1e100 keep all of that
// finite.
const MaxFloat = 1e100

// CheckRange reports a numeric parameter's range that its kind cannot
// hold: bounds that are not numbers, in the wrong order, beyond MaxInt
// (Int, which also needs integral bounds) or MaxFloat (Float, LogFloat,
// which also needs Min > 0). The error names the parameter and the limit.
func (sp Spec) CheckRange() error {
	if !(sp.Min <= sp.Max) {
		return fmt.Errorf("param %q: bad range [%v, %v]", sp.Name, sp.Min, sp.Max)
	}
	switch sp.Kind {
	case Int:
		if !(sp.Min >= -MaxInt && sp.Max <= MaxInt) {
			return fmt.Errorf("param %q: range [%s, %s] is beyond what an int parameter holds exactly: its bounds must lie within ±%d (2^53)", sp.Name, fnum(sp.Min), fnum(sp.Max), int64(MaxInt))
		}
		if sp.Min != math.Trunc(sp.Min) || sp.Max != math.Trunc(sp.Max) {
			return fmt.Errorf("param %q: int range must be integral", sp.Name)
		}
	case Float, LogFloat:
		if !(sp.Min >= -MaxFloat && sp.Max <= MaxFloat) {
			return fmt.Errorf("param %q: range [%s, %s] is too wide to tune: a %s parameter's bounds must lie within ±%s", sp.Name, fnum(sp.Min), fnum(sp.Max), sp.Kind, fnum(MaxFloat))
		}
		if sp.Kind == LogFloat && sp.Min <= 0 {
			return fmt.Errorf("param %q: log-float needs min > 0", sp.Name)
		}
	}
	return nil
}

// check validates one value against the spec.
func (sp Spec) check(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("param %q: value %v is not a finite number", sp.Name, v)
	}
	switch sp.Kind {
	case Int:
		if v != math.Trunc(v) {
			return fmt.Errorf("param %q: %v is not an integer", sp.Name, v)
		}
		fallthrough
	case Float, LogFloat:
		if v < sp.Min || v > sp.Max {
			return fmt.Errorf("param %q: %s is outside [%s, %s]", sp.Name, fnum(v), fnum(sp.Min), fnum(sp.Max))
		}
	case Categorical:
		if v != math.Trunc(v) || v < 0 || int(v) >= len(sp.Choices) {
			return fmt.Errorf("param %q: choice index %v out of range (choices %s)", sp.Name, v, strings.Join(sp.Choices, "|"))
		}
	}
	return nil
}

// ParseValue reads a value written as text (a number, or a choice name).
func (sp Spec) ParseValue(text string) (float64, error) {
	text = strings.TrimSpace(text)
	if sp.Kind == Categorical {
		for i, c := range sp.Choices {
			if c == text {
				return float64(i), nil
			}
		}
		return 0, fmt.Errorf("param %q: %q is not one of %s", sp.Name, text, strings.Join(sp.Choices, "|"))
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, fmt.Errorf("param %q: %q is not a number", sp.Name, text)
	}
	if n, err := strconv.ParseInt(text, 10, 64); sp.Kind == Int && err == nil && (n > MaxInt || n < -MaxInt) {
		// Read as a float64 it would be rounded to another integer.
		return 0, fmt.Errorf("param %q: %s is outside [%s, %s]", sp.Name, text, sp.FormatValue(sp.Min), sp.FormatValue(sp.Max))
	}
	if err := sp.check(v); err != nil {
		return 0, err
	}
	return v, nil
}

// FormatValue writes a value as ParseValue reads it: a choice's name, an
// integer value in plain digits (1000000, never 1e+06), a real value in
// the shortest form that reads back the same.
func (sp Spec) FormatValue(v float64) string {
	switch sp.Kind {
	case Categorical:
		i := int(v)
		if i >= 0 && i < len(sp.Choices) {
			return sp.Choices[i]
		}
	case Int:
		if v == math.Trunc(v) && math.Abs(v) <= MaxInt {
			return strconv.FormatInt(int64(v), 10)
		}
	}
	return fnum(v)
}

// keyValue writes a value in the canonical text of a configuration
// (String): as FormatValue, except that numbers of every kind keep the
// shortest %g form (1e+06) they were always keyed by, so that a stored
// run's entrants keep their keys.
func (sp Spec) keyValue(v float64) string {
	if sp.Kind == Categorical {
		return sp.FormatValue(v)
	}
	return fnum(v)
}

func fnum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Defaults returns every parameter at its default value.
func (s Specs) Defaults() Values {
	v := make(Values, len(s))
	for _, sp := range s {
		v[sp.Name] = sp.Default
	}
	return v
}

// Validate checks that v names only declared parameters, each in range, and
// fills the missing ones with their defaults (returning a new map).
func (s Specs) Validate(v Values) (Values, error) {
	out := s.Defaults()
	for name, x := range v {
		sp, ok := s.Lookup(name)
		if !ok {
			return nil, s.unknown(name)
		}
		if err := sp.check(x); err != nil {
			return nil, err
		}
		out[name] = x
	}
	return out, nil
}

func (s Specs) unknown(name string) error {
	if len(s) == 0 {
		return fmt.Errorf("unknown param %q (this strategy has no parameters)", name)
	}
	return fmt.Errorf("unknown param %q (known: %s)", name, strings.Join(s.Names(), ", "))
}

// ErrSyntax is wrapped by errors about a malformed k=v assignment.
var ErrSyntax = errors.New("want name=value")

// Parse applies assignments "name=value" (each item may itself be a
// comma-separated list) on top of the defaults.
func (s Specs) Parse(assignments ...string) (Values, error) {
	v := s.Defaults()
	for _, a := range assignments {
		for _, item := range strings.Split(a, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			name, text, ok := strings.Cut(item, "=")
			name = strings.TrimSpace(name)
			if !ok || name == "" {
				return nil, fmt.Errorf("param %q: %w", item, ErrSyntax)
			}
			sp, found := s.Lookup(name)
			if !found {
				return nil, s.unknown(name)
			}
			x, err := sp.ParseValue(text)
			if err != nil {
				return nil, err
			}
			v[name] = x
		}
	}
	return v, nil
}

// String formats v as "a=1,b=0.5,mode=fast" in declaration order; it is the
// canonical text used to identify a configuration (numbers in the shortest
// %g form, 1e+06 for a million: see keyValue).
func (s Specs) String(v Values) string {
	var b strings.Builder
	for i, sp := range s {
		x, ok := v[sp.Name]
		if !ok {
			x = sp.Default
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(sp.Name)
		b.WriteByte('=')
		b.WriteString(sp.keyValue(x))
	}
	return b.String()
}

// Map returns v as a JSON-friendly map: numbers for numeric parameters (ints
// as integers), choice names for categorical ones.
func (s Specs) Map(v Values) map[string]any {
	out := make(map[string]any, len(s))
	for _, sp := range s {
		x, ok := v[sp.Name]
		if !ok {
			x = sp.Default
		}
		switch sp.Kind {
		case Categorical:
			out[sp.Name] = sp.FormatValue(x)
		case Int:
			out[sp.Name] = int64(x)
		default:
			out[sp.Name] = x
		}
	}
	return out
}

// FromMap reads values from a decoded JSON object (as Map writes it; numbers
// may also be given as strings), on top of the defaults.
func (s Specs) FromMap(m map[string]any) (Values, error) {
	v := s.Defaults()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, name := range keys {
		sp, ok := s.Lookup(name)
		if !ok {
			return nil, s.unknown(name)
		}
		var x float64
		var err error
		switch raw := m[name].(type) {
		case string:
			x, err = sp.ParseValue(raw)
		case float64:
			if sp.Kind == Categorical {
				err = fmt.Errorf("param %q: want one of %s, got a number", name, strings.Join(sp.Choices, "|"))
			} else {
				x, err = raw, sp.check(raw)
			}
		case json.Number:
			x, err = sp.ParseValue(raw.String())
		case int:
			x, err = float64(raw), sp.check(float64(raw))
		case int64:
			x, err = float64(raw), sp.check(float64(raw))
		default:
			err = fmt.Errorf("param %q: unsupported value %v", name, raw)
		}
		if err != nil {
			return nil, err
		}
		v[name] = x
	}
	return v, nil
}

// Int returns an integer parameter's value (the default when absent).
func (s Specs) Int(v Values, name string) int { return int(s.get(v, name)) }

// Float returns a numeric parameter's value (the default when absent).
func (s Specs) Float(v Values, name string) float64 { return s.get(v, name) }

// Choice returns a categorical parameter's choice name.
func (s Specs) Choice(v Values, name string) string {
	sp, ok := s.Lookup(name)
	if !ok {
		panic("param: undeclared parameter " + name)
	}
	return sp.FormatValue(s.get(v, name))
}

func (s Specs) get(v Values, name string) float64 {
	if x, ok := v[name]; ok {
		return x
	}
	sp, ok := s.Lookup(name)
	if !ok {
		panic("param: undeclared parameter " + name)
	}
	return sp.Default
}
