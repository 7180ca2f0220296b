package lint

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers declares the module's packages from the bottom up: a package may
// import packages of lower layers, and of its own layer only within its
// own family (the same first path element, or the same harness/X), never
// one above. An entry is a package path relative to the module ("games"),
// or a tree of them ("referees/..."); the longest entry that matches places
// a package. A package no entry places fails the test: a new package is
// placed here, which says where it stands.
var layers = [][]string{
	// Foundations: no game, no run, no store.
	{"internal/..."},
	{"strategies/param", "harness/stats", "harness/cli", "reports/table"},
	// The games' rules, exact ports, and the bots that play them.
	{"referees/..."},
	{"strategies/..."},
	// The harness, by concept: what a game and the harness agree on, the
	// store, who plays, running a plan, what a run's games add up to.
	{"harness/contract"},
	{"harness/store"},
	{"harness/entrant"},
	{"harness/runner"},
	{"harness/results", "harness/internal/..."},
	// Users of the harness, side by side: the games' wiring, the tuners,
	// the league.
	{"games/...", "tuning/...", "league"},
	// What each command does, between its flags and its answer.
	{"workflow"},
	// Tables, plots, pages and the terminal answers of every command.
	{"reports"},
	// The live dashboard over a store, built on the reports' pages.
	{"dashboard"},
	// The command and the tests through it.
	{"cmd/...", "e2e", "examples/..."},
}

// family is what same-layer imports must share: "harness/runner" for the
// harness's packages, else the first path element ("tuning").
func family(pkg string) string {
	parts := strings.Split(pkg, "/")
	if parts[0] == "harness" && len(parts) > 1 {
		return "harness/" + parts[1]
	}
	return parts[0]
}

// layerOf returns the layer of pkg (a path relative to the module), or -1.
func layerOf(pkg string) int {
	best, layer := -1, -1
	for i, entries := range layers {
		for _, e := range entries {
			tree, isTree := strings.CutSuffix(e, "/...")
			if e == pkg || isTree && (pkg == tree || strings.HasPrefix(pkg, tree+"/")) {
				if len(e) > best {
					best, layer = len(e), i
				}
			}
		}
	}
	return layer
}

// modulePath reads the module path from go.mod.
func modulePath(t *testing.T, root string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(sc.Text(), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}

// packageImports maps every package of the module (relative path) to the
// module packages its non-test files import.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	root := filepath.Join("..", "..")
	mod := modulePath(t, root)
	fset := token.NewFileSet()
	out := map[string][]string{}
	for _, file := range goFiles(t) {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		rel, err := filepath.Rel(root, filepath.Dir(file))
		if err != nil {
			t.Fatal(err)
		}
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, im := range f.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if dep, ok := strings.CutPrefix(p, mod+"/"); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
	}
	return out
}

// layerViolations lists the imports of imports that break the layering.
func layerViolations(imports map[string][]string) []string {
	var bad []string
	for pkg, deps := range imports {
		if pkg == "." {
			continue // the module root holds no package of ours
		}
		l := layerOf(pkg)
		if l < 0 {
			bad = append(bad, fmt.Sprintf("package %s is in no layer: add it to layers in internal/lint/layers_test.go", pkg))
			continue
		}
		for _, dep := range deps {
			d := layerOf(dep)
			switch {
			case d < 0:
				continue // reported as a package of its own
			case d > l:
				bad = append(bad, fmt.Sprintf("%s (layer %d) imports %s, which is above it (layer %d)", pkg, l, dep, d))
			case d == l && family(dep) != family(pkg):
				bad = append(bad, fmt.Sprintf("%s imports %s, beside it in layer %d: packages of one layer import only their own family", pkg, dep, l))
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// TestLayering: no package imports one above it in the declared layers.
func TestLayering(t *testing.T) {
	imports := packageImports(t)
	for _, want := range []string{"harness/contract", "harness/runner", "games", "cmd/gauntlet"} {
		if _, ok := imports[want]; !ok {
			t.Fatalf("package %s not found: the walk missed the module's packages", want)
		}
	}
	for _, v := range layerViolations(imports) {
		t.Error(v)
	}
}

// TestLayeringCatchesAnArrowUp: the check itself finds an import that
// points up, one between siblings of a layer, and an unplaced package.
func TestLayeringCatchesAnArrowUp(t *testing.T) {
	got := layerViolations(map[string][]string{
		"games":          {"league", "harness/contract"},
		"workflow":       {"reports"},
		"harness/store":  {"harness/runner"},
		"harness/runner": {"harness/store", "harness/contract"},
		"tuning/spsa":    {"tuning"},
		"scratch":        nil,
		"cmd/x":          {"games", "tuning"},
	})
	want := []string{
		"games imports league, beside it in layer 9: packages of one layer import only their own family",
		"harness/store (layer 5) imports harness/runner, which is above it (layer 7)",
		"package scratch is in no layer: add it to layers in internal/lint/layers_test.go",
		"workflow (layer 10) imports reports, which is above it (layer 11)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// maxLines bounds a Go file outside referees/ (whose files follow the
// original referees' code for conformance) and generated files: a longer
// one holds more than one concept.
const maxLines = 800

// TestFileSize: no hand-written Go file outside referees/ is longer than
// maxLines lines.
func TestFileSize(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, file := range goFiles(t) {
		rel, err := filepath.Rel(root, file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(filepath.ToSlash(rel), "referees/") {
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if strings.Contains(text, "\n// Code generated ") || strings.HasPrefix(text, "// Code generated ") {
			continue
		}
		if n := strings.Count(text, "\n"); n > maxLines {
			t.Errorf("%s has %d lines (at most %d outside referees/): cut it along its concepts", rel, n, maxLines)
		}
	}
}
