// Package lint holds source checks that go vet does not make: no global
// random generator anywhere (every random draw must come from a seeded
// source so that runs are reproducible), gofmt-clean files, no
// goroutines in the packages tested without the race detector, import
// groups that keep the standard library apart, no package
// importing one above it in the declared layers (layers_test.go), no SQL
// statement outside the database layer and one liveness check for every
// worker (sql_test.go), and no hand-written file over 800 lines outside
// referees/.
package lint

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// seededOK are the math/rand/v2 functions that do not touch the global
// generator.
var seededOK = map[string]bool{"New": true, "NewPCG": true, "NewChaCha8": true, "NewZipf": true}

func goFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d Go files under %s", len(files), root)
	}
	return files
}

func TestNoGlobalRand(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]string{} // local name → import path
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != "math/rand" && p != "math/rand/v2" {
				continue
			}
			if p == "math/rand" {
				t.Errorf("%s: imports math/rand (use a seeded math/rand/v2 source)", fset.Position(imp.Pos()))
			}
			name := filepath.Base(p)
			if p == "math/rand/v2" {
				name = "rand"
			}
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = p
		}
		if len(names) == 0 {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			if p, ok := names[id.Name]; ok && !seededOK[sel.Sel.Name] {
				t.Errorf("%s: %s.%s draws from the global generator of %s; use a seeded *rand.Rand", fset.Position(call.Pos()), id.Name, sel.Sel.Name, p)
			}
			return true
		})
	}
}

func TestGofmt(t *testing.T) {
	for _, path := range goFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if string(out) != string(src) {
			t.Errorf("%s is not gofmt-formatted (run gofmt -w)", path)
		}
	}
}

// importGroups says what is wrong with the import groups of f (the
// blank-line-separated runs of its import block), "" if nothing: the
// standard library apart from everything else, as goimports leaves a file
// it writes.
func importGroups(fset *token.FileSet, f *ast.File) string {
	line := -1
	var std, other bool
	for _, imp := range f.Imports {
		l := fset.Position(imp.Pos()).Line
		if l > line+1 { // a new group
			std, other = false, false
		}
		line = l
		p, _ := strconv.Unquote(imp.Path.Value)
		if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") || p == "gauntlet" || strings.HasPrefix(p, "gauntlet/") {
			other = true
		} else {
			std = true
		}
		if std && other {
			return fmt.Sprintf("%s: the import %q shares a group with imports from outside the standard library: a blank line between the two", fset.Position(imp.Pos()), p)
		}
	}
	return ""
}

func TestImportGroups(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if msg := importGroups(fset, f); msg != "" {
			t.Error(msg)
		}
	}
}

func TestImportGroupsCatchesAMixedGroup(t *testing.T) {
	for src, want := range map[string]bool{
		"package p\nimport (\n\t\"fmt\"\n\t\"gauntlet/harness/store\"\n\t\"time\"\n)\n":          true,
		"package p\nimport (\n\t\"fmt\"\n\n\t\"gonum.org/v1/plot\"\n\t\"gauntlet/reports\"\n)\n": false,
		"package p\nimport (\n\t\"fmt\"\n\t\"gonum.org/v1/plot\"\n)\n":                           true,
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if got := importGroups(fset, f) != ""; got != want {
			t.Errorf("%q: flagged %v, want %v", src, got, want)
		}
	}
}

// plainDirs are tested without the race detector (the Makefile's
// PLAIN_PKGS): single-threaded code, which the detector slows tenfold and
// where it finds nothing. Their non-test files start no goroutines; a
// package that does belongs in RACE_PKGS.
var plainDirs = []string{"strategies", "referees"}

// racedDirs are under plainDirs but tested with the race detector.
var racedDirs = []string{filepath.Join("referees", "internal")}

func TestNoGoroutinesInPlainPackages(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	for _, path := range goFiles(t) {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(rel, "_test.go") || !underAny(rel, plainDirs) || underAny(rel, racedDirs) {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s: starts a goroutine in a package tested without the race detector (Makefile PLAIN_PKGS); test it under RACE_PKGS", fset.Position(g.Pos()))
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("checked only %d files under %v", checked, plainDirs)
	}
}

func underAny(rel string, dirs []string) bool {
	for _, d := range dirs {
		if rel == d || strings.HasPrefix(rel, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
