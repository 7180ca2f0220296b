package param

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

var testSpecs = Specs{
	{Name: "width", Kind: Int, Min: 1, Max: 500, Default: 100, Help: "beam width"},
	{Name: "w_holes", Kind: Float, Min: 0, Max: 10, Default: 2.5, Help: "hole penalty"},
	{Name: "lr", Kind: LogFloat, Min: 1e-4, Max: 1, Default: 0.01, Help: "rate"},
	{Name: "eval", Kind: Categorical, Choices: []string{"simple", "full"}, Default: 1, Help: "evaluation"},
}

func TestCheckAcceptsTheTestSpecs(t *testing.T) {
	if err := testSpecs.Check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Specs{
		{{Name: "x", Kind: Int, Min: 5, Max: 1, Default: 3}},
		{{Name: "x", Kind: Float, Min: 0, Max: 1, Default: 2}},
		{{Name: "x", Kind: LogFloat, Min: 0, Max: 1, Default: 0.5}},
		{{Name: "x", Kind: Categorical, Default: 0}},
		{{Name: "x", Kind: Int, Max: 2, Default: 1}, {Name: "x", Kind: Int, Max: 2, Default: 1}},
		{{Name: "", Kind: Int, Max: 2, Default: 1}},
	} {
		if err := bad.Check(); err == nil {
			t.Errorf("Check(%+v) = nil, want an error", bad)
		}
	}
}

func TestParseValidatesAndFillsDefaults(t *testing.T) {
	v, err := testSpecs.Parse("width=200,eval=simple", "lr=0.001")
	if err != nil {
		t.Fatal(err)
	}
	if v["width"] != 200 || v["eval"] != 0 || v["lr"] != 0.001 || v["w_holes"] != 2.5 {
		t.Fatalf("Parse = %v", v)
	}
	if got := testSpecs.Choice(v, "eval"); got != "simple" {
		t.Fatalf("Choice = %q", got)
	}
	if testSpecs.Int(v, "width") != 200 || testSpecs.Float(v, "w_holes") != 2.5 {
		t.Fatal("accessors disagree with the values")
	}
}

func TestBadValuesNameTheParameter(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"widht=3", `widht`},
		{"width=0", `width`},
		{"width=2.5", `width`},
		{"w_holes=11", `w_holes`},
		{"w_holes=NaN", `w_holes`},
		{"lr=abc", `lr`},
		{"eval=fancy", `fancy`},
		{"width", ""},
	} {
		_, err := testSpecs.Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = nil error", c.in)
			continue
		}
		if c.want == "" {
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q) = %v, want ErrSyntax", c.in, err)
			}
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want it to name %q", c.in, err, c.want)
		}
	}
}

func TestStringAndMapRoundTrip(t *testing.T) {
	v, err := testSpecs.Parse("width=7,w_holes=0.125,eval=simple")
	if err != nil {
		t.Fatal(err)
	}
	s := testSpecs.String(v)
	back, err := testSpecs.Parse(strings.Split(s, ",")...)
	if err != nil {
		t.Fatalf("Parse(String()) %q: %v", s, err)
	}
	if testSpecs.String(back) != s {
		t.Fatalf("round trip: %q then %q", s, testSpecs.String(back))
	}
	m := testSpecs.Map(v)
	if m["eval"] != "simple" {
		t.Fatalf("Map gives categorical %v, want its choice name", m["eval"])
	}
	fm, err := testSpecs.FromMap(m)
	if err != nil || testSpecs.String(fm) != s {
		t.Fatalf("FromMap(Map()) = %v, %v", fm, err)
	}
	if _, err := testSpecs.FromMap(map[string]any{"nope": 1}); err == nil {
		t.Fatal("FromMap with an unknown name: no error")
	}
}

func ExampleSpecs_Parse() {
	v, err := testSpecs.Parse("width=250,eval=simple")
	fmt.Println(testSpecs.String(v), err)
	_, err = testSpecs.Parse("width=9999")
	fmt.Println(err)
	// Output:
	// width=250,w_holes=2.5,lr=0.01,eval=simple <nil>
	// param "width": 9999 is outside [1, 500]
}

// TestIntValuesInPlainDigits: an integer value is written in digits (a bot
// reading it with int() or atoi gets the number), while the canonical key
// text keeps the form stored runs were identified by.
func TestIntValuesInPlainDigits(t *testing.T) {
	sp := Spec{Name: "n", Kind: Int, Min: -MaxInt, Max: MaxInt, Default: 0}
	for v, want := range map[float64]string{
		1e6: "1000000", 1615124: "1615124", -2.5e7: "-25000000", MaxInt: "9007199254740992", 0: "0",
	} {
		if got := sp.FormatValue(v); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", v, got, want)
		}
		back, err := sp.ParseValue(sp.FormatValue(v))
		if err != nil || back != v {
			t.Errorf("ParseValue(FormatValue(%v)) = %v, %v", v, back, err)
		}
	}
	if got := (Spec{Name: "w", Kind: Float, Min: 0, Max: 1e7}).FormatValue(1.5e6); got != "1.5e+06" {
		t.Errorf("a real value: %q, want the shortest form", got)
	}
	specs := Specs{sp}
	if got := specs.String(Values{"n": 1e6}); got != "n=1e+06" {
		t.Errorf("String = %q: the key text of a configuration changed", got)
	}
}

// TestRangesBeyondTheKindAreRefused: an int range must hold its integers
// exactly, a real range must stay finite through tuning arithmetic; the
// error names the parameter and the limit.
func TestRangesBeyondTheKindAreRefused(t *testing.T) {
	for _, c := range []struct {
		sp   Spec
		want string
	}{
		{Spec{Name: "w", Kind: Int, Min: 1, Max: 1e20, Default: 5}, `param "w": range [1, 1e+20] is beyond what an int parameter holds exactly: its bounds must lie within ±9007199254740992 (2^53)`},
		{Spec{Name: "w", Kind: Int, Min: -MaxInt - 2, Max: 0, Default: 0}, `±9007199254740992`},
		{Spec{Name: "w", Kind: Float, Min: -1e308, Max: 1e308, Default: 0}, `param "w": range [-1e+308, 1e+308] is too wide to tune: a float parameter's bounds must lie within ±1e+100`},
		{Spec{Name: "lr", Kind: LogFloat, Min: 1e-3, Max: 1e200, Default: 1}, `param "lr": range [0.001, 1e+200] is too wide to tune: a log-float parameter's bounds must lie within ±1e+100`},
		{Spec{Name: "w", Kind: Float, Min: math.Inf(-1), Max: 0, Default: 0}, `param "w"`},
		{Spec{Name: "w", Kind: Float, Min: math.NaN(), Max: 0, Default: 0}, `param "w": bad range`},
	} {
		err := Specs{c.sp}.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%+v) = %v, want %q", c.sp, err, c.want)
		}
	}
	for _, ok := range []Spec{
		{Name: "n", Kind: Int, Min: -MaxInt, Max: MaxInt, Default: 0},
		{Name: "w", Kind: Float, Min: -MaxFloat, Max: MaxFloat, Default: 0},
	} {
		if err := (Specs{ok}).Check(); err != nil {
			t.Errorf("Check(%+v) = %v, want nil", ok, err)
		}
	}
	// A value beyond 2^53 would be read rounded to another integer.
	sp := Spec{Name: "n", Kind: Int, Min: 0, Max: MaxInt, Default: 0}
	if _, err := sp.ParseValue("9007199254740993"); err == nil || !strings.Contains(err.Error(), `"n": 9007199254740993 is outside [0, 9007199254740992]`) {
		t.Errorf("ParseValue(2^53+1) = %v", err)
	}
}
