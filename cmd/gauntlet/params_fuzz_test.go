package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/cli"
	"gauntlet/strategies/param"
)

// fuzzSpecs stand for a strategy's parameters in FuzzParamsFile.
var fuzzSpecs = param.Specs{
	{Name: "n", Kind: param.Int, Min: 0, Max: 100, Default: 7, Help: "an int"},
	{Name: "w", Kind: param.Float, Min: 0, Max: 10, Default: 1, Help: "a float"},
	{Name: "mode", Kind: param.Categorical, Choices: []string{"fast", "true"}, Default: 0, Help: "a choice"},
}

// FuzzParamsFile feeds a --params-file through readParamsFile and on to
// the parameters as an entrant reads them (paramAssignments, then
// Specs.Parse): it never panics; a refused file is a usage error naming
// the file; an accepted one sets exactly the parameters it names, each to
// its own value, and leaves the others at their defaults.
func FuzzParamsFile(f *testing.F) {
	for _, s := range []string{`{"n": 3, "w": 2.5}`, `{"params": {"mode": "true"}}`, `{"best_params": {"n": "4"}}`,
		`{"mode": true}`, `{"w": "1,n=3"}`, `{"n=5,w": 1}`, `{" w": 0.0}`, `{"w": 1e400}`, `{"n": 1.5}`, `{"x": 1}`, `null`, `[1]`,
		`{"params": 3}`, `{"w": null}`, `{"w": {"a": 1}}`, "{\n\"n\": 3,\n}", ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "p.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := readParamsFile(path)
		if err != nil {
			if !cli.IsUsage(err) || !strings.Contains(err.Error(), path) {
				t.Fatalf("params file %q: error %q is not a usage error naming the file", data, err)
			}
			return
		}
		v, err := fuzzSpecs.Parse(paramAssignments(m)...)
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
