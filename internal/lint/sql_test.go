package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// databaseLayer are the packages that hold the module's SQL: the store of
// runs, tuning studies and SPSA studies, and the dialect, locks and lease
// protocol beneath it. No other package writes a statement.
var databaseLayer = []string{"harness/store", "internal/sqldb"}

// sqlStart matches a string that begins, after optional white space, with
// an SQL statement's keyword followed by white space.
var sqlStart = regexp.MustCompile(`(?i)^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA)\s`)

// sqlLiterals returns the positions of the string literals of a Go source
// that begin with an SQL statement.
func sqlLiterals(fset *token.FileSet, f *ast.File) []token.Position {
	var out []token.Position
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && sqlStart.MatchString(s) {
			out = append(out, fset.Position(lit.Pos()))
		}
		return true
	})
	return out
}

// importsTesting reports whether a file imports package testing: test
// support (harness/internal/harnesstest), which may read a store as tests
// do.
func importsTesting(f *ast.File) bool {
	return slices.ContainsFunc(f.Imports, func(imp *ast.ImportSpec) bool { return imp.Path.Value == `"testing"` })
}

// TestSQLOnlyInTheDatabaseLayer fails for an SQL statement in a non-test
// Go file outside the database layer's packages.
func TestSQLOnlyInTheDatabaseLayer(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(rel, "_test.go") || slices.Contains(databaseLayer, filepath.ToSlash(filepath.Dir(rel))) {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if importsTesting(f) {
			continue
		}
		for _, p := range sqlLiterals(fset, f) {
			t.Errorf("%s: an SQL statement outside the database layer (%s): give the store a method for it", p, strings.Join(databaseLayer, ", "))
		}
	}
}

// The check finds statements however they are quoted and spaced, and only
// statements.
func TestSQLLintCatchesAStatement(t *testing.T) {
	src := "package p\n" +
		"var a = `\n\t\tselect x FROM t`\n" +
		"var b = \"INSERT INTO t VALUES (1)\"\n" +
		"var c = `  DELETE FROM t`\n" +
		"var d = \"selected: %d\"\n" +
		"var e = \"update\"\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range sqlLiterals(fset, f) {
		lines = append(lines, p.Line)
	}
	if want := []int{2, 4, 5}; !slices.Equal(lines, want) {
		t.Fatalf("statements found on lines %v, want %v", lines, want)
	}
}

// livenessUsers are the files whose workers decide that another worker's
// piece of work may be taken: the run store's blocks, the SPSA blocks, the
// tuning trials and the league's blocks.
var livenessUsers = []string{"harness/store/blocks.go", "harness/store/spsa.go", "tuning/lease.go", "harness/store/league.go"}

// TestOneLiveness: every worker judges another's liveness by sqldb.Free,
// and nothing outside internal/sqldb calls another of its checks (tuning
// once called sqldb.Gone itself while the others called sqldb.Free).
func TestOneLiveness(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "internal/sqldb/") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		free := false
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "sqldb" {
				switch sel.Sel.Name {
				case "Free":
					free = true
				case "Gone":
					t.Errorf("%s: sqldb.Gone: judge a worker's liveness by sqldb.Free, as every worker does", fset.Position(sel.Pos()))
				}
			}
			return true
		})
		if slices.Contains(livenessUsers, rel) && !free {
			t.Errorf("%s takes over other workers' work without sqldb.Free", rel)
		}
	}
}
