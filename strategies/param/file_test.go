package param

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestAssignmentsWholeNumbers: a whole number of a params file is passed
// on in digits, so that a fixed placeholder gives the bot 1000000 and not
// 1e+06; other values keep their text.
func TestAssignmentsWholeNumbers(t *testing.T) {
	got := Assignments(map[string]any{"n": 1e6, "w": 1.5e6, "x": 0.25, "mode": "fast", "on": true})
	slices.Sort(got)
	want := []string{"mode=fast", "n=1000000", "on=true", "w=1500000", "x=0.25"}
	if !slices.Equal(got, want) {
		t.Fatalf("Assignments = %q, want %q", got, want)
	}
}

// TestDecodeFileErrors: a refused file says what is wrong, with the line
// and column of a syntax error.
func TestDecodeFileErrors(t *testing.T) {
	for in, want := range map[string]string{
		"hello":              "not JSON: invalid character 'h' at line 1, column 1 (looking for beginning of value)",
		"{\n\"x\": 3":        "not JSON: unexpected end of JSON input at line 2, column 6",
		"null":               "holds null; want a JSON object",
		`{"params": 3}`:      `"params" holds a number`,
		`{"w": [1]}`:         `parameter "w" holds an array`,
		`{"a,b": 1}`:         `"a,b" is not a parameter name`,
		`{"w": "1,n=3"}`:     "a value with a comma has no '=' after it",
		`{"w": "0,"}`:        "a value has something after each comma",
		`{"best_params": 1}`: `"best_params" holds a number`,
	} {
		if _, err := DecodeFile([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeFile(%q): %v; want %q", in, err, want)
		}
	}
	m, err := DecodeFile([]byte(`{"best_params": {"n": 3, "mode": "fast"}}`))
	if err != nil || m["n"] != 3.0 || m["mode"] != "fast" {
		t.Fatalf("best_params: %v, %v", m, err)
	}
}

// fuzzSpecs stand for a strategy's parameters in FuzzDecodeFile.
var fuzzSpecs = Specs{
	{Name: "n", Kind: Int, Min: 0, Max: 100, Default: 7, Help: "an int"},
	{Name: "w", Kind: Float, Min: 0, Max: 10, Default: 1, Help: "a float"},
	{Name: "mode", Kind: Categorical, Choices: []string{"fast", "true"}, Default: 0, Help: "a choice"},
}

// FuzzDecodeFile feeds a params file through DecodeFile and on to the
// parameters as an entrant reads them (Assignments, then Specs.Parse): it
// never panics; a refused file has an error that says why; an accepted one
// sets exactly the parameters it names, each to its own value, and leaves
// the others at their defaults.
func FuzzDecodeFile(f *testing.F) {
	for _, s := range []string{`{"n": 3, "w": 2.5}`, `{"params": {"mode": "true"}}`, `{"best_params": {"n": "4"}}`,
		`{"mode": true}`, `{"w": "1,n=3"}`, `{"n=5,w": 1}`, `{" w": 0.0}`, `{"w": 1e400}`, `{"n": 1.5}`, `{"x": 1}`, `null`, `[1]`,
		`{"params": 3}`, `{"w": null}`, `{"w": {"a": 1}}`, "{\n\"n\": 3,\n}", ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeFile(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("params file %q: refused without a reason", data)
			}
			return
		}
		v, err := fuzzSpecs.Parse(Assignments(m)...)
		if err != nil {
			return // a name or value the strategy refuses: Parse's own target checks its errors
		}
		for _, sp := range fuzzSpecs {
			raw, named := m[sp.Name]
			want := sp.Default
			if named {
				x, err := sp.ParseValue(fmt.Sprint(raw))
				if err != nil {
					t.Fatalf("params file %q: %s = %v accepted, but %v", data, sp.Name, raw, err)
				}
				want = x
			}
			if v[sp.Name] != want {
				t.Fatalf("params file %q sets %s to %v, want %v", data, sp.Name, v[sp.Name], want)
			}
		}
	})
}
