package param

import (
	"errors"
	"fmt"
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
