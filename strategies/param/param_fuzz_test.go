package param

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// FuzzParse feeds Parse --param text: it never panics; what it accepts is
// in range and comes back the same through String; what it refuses is an
// error that quotes a name or an item of the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"width=200,eval=simple", "lr=0.001", " w_holes = 2.5 ", "eval=full,,width=1",
		"width=0", "width=1.5", "eval=3", "nope=1", "width", "=1", "width=nan", "lr=1e-9", "width=0x10", "w_holes=+Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := testSpecs.Parse(text)
		if err != nil {
			if !quotesInput(err.Error(), text) {
				t.Fatalf("Parse(%q): error %q quotes nothing of the input", text, err)
			}
			return
		}
		if _, err := testSpecs.Validate(v); err != nil {
			t.Fatalf("Parse(%q) accepted %v, which Validate refuses: %v", text, v, err)
		}
		canon := testSpecs.String(v)
		back, err := testSpecs.Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %v, but its String %q does not parse: %v", text, v, canon, err)
		}
		if testSpecs.String(back) != canon {
			t.Fatalf("Parse(%q): String %q reads back as %q", text, canon, testSpecs.String(back))
		}
		for _, sp := range testSpecs {
			if back[sp.Name] != v[sp.Name] {
				t.Fatalf("Parse(%q): %s = %v reads back as %v", text, sp.Name, v[sp.Name], back[sp.Name])
			}
		}
	})
}

// FuzzFromMap feeds FromMap the JSON object of a params file: it never
// panics; what it accepts is in range and comes back the same through Map;
// what it refuses is an error that quotes the parameter's name.
func FuzzFromMap(f *testing.F) {
	for _, s := range []string{`{"width": 200, "eval": "simple"}`, `{"lr": "0.001"}`, `{"width": 1.5}`,
		`{"eval": 1}`, `{"nope": 1}`, `{"width": true}`, `{"w_holes": null}`, `{"width": [1]}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			return
		}
		v, err := testSpecs.FromMap(m)
		if err != nil {
			if !quotesKey(err.Error(), m) {
				t.Fatalf("FromMap(%s): error %q quotes nothing of the input", data, err)
			}
			return
		}
		if _, err := testSpecs.Validate(v); err != nil {
			t.Fatalf("FromMap(%s) accepted %v, which Validate refuses: %v", data, v, err)
		}
		out, err := json.Marshal(testSpecs.Map(v))
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		again, err := testSpecs.FromMap(back)
		if err != nil {
			t.Fatalf("FromMap(%s) = %v, but its Map %s does not read back: %v", data, v, out, err)
		}
		if testSpecs.String(again) != testSpecs.String(v) {
			t.Fatalf("FromMap(%s) = %s, read back as %s", data, testSpecs.String(v), testSpecs.String(again))
		}
	})
}

// quotesKey reports whether msg holds a Go-quoted key of m.
func quotesKey(msg string, m map[string]any) bool {
	for k := range m {
		if strings.Contains(msg, strconv.Quote(k)) {
			return true
		}
	}
	return false
}

// quotesInput reports whether msg holds a Go-quoted string, not empty,
// that occurs in input: the name or item the error is about.
func quotesInput(msg, input string) bool {
	for i := 0; i < len(msg); i++ {
		if msg[i] != '"' {
			continue
		}
		q, err := strconv.QuotedPrefix(msg[i:])
		if err != nil {
			continue
		}
		if s, _ := strconv.Unquote(q); s != "" && strings.Contains(input, s) {
			return true
		}
		i += len(q) - 1
	}
	return false
}
