package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestUsageErrorsAreFoundWrapped(t *testing.T) {
	err := fmt.Errorf("--a-params-file: %w", Usagef("params file %s: holds null", "x.json"))
	if !IsUsage(err) || err.Error() != "--a-params-file: params file x.json: holds null" {
		t.Fatalf("wrapped usage error: %v (usage %v)", err, IsUsage(err))
	}
	if IsUsage(errors.New("plain")) || IsUsage(nil) {
		t.Fatal("a plain error is not a usage error")
	}
	if NoArgs("replay x", nil) != nil || !IsUsage(NoArgs("replay x", []string{"y"})) {
		t.Fatal("NoArgs")
	}
}

func TestParseFlagsAnywhereAndHelp(t *testing.T) {
	var errb bytes.Buffer
	io := IO{Stderr: &errb}
	fs := NewFlags(io, "game tool", "[--n N] FILE...")
	n := fs.Int("n", 1, "how many")
	var many Strings
	fs.Var(&many, "p", "repeatable")
	rest, err := Parse(fs, []string{"a", "--n", "3", "b", "-p", "x", "-p", "y", "--", "--n"})
	if err != nil || *n != 3 || !slices.Equal(rest, []string{"a", "b", "--n"}) || !slices.Equal(many, Strings{"x", "y"}) {
		t.Fatalf("rest %q n %d p %q err %v", rest, *n, many, err)
	}
	if _, err := Parse(NewFlags(io, "game tool", ""), []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	if !strings.Contains(errb.String(), "usage: gauntlet game tool") {
		t.Fatalf("help text %q", errb.String())
	}
	if _, err := Parse(NewFlags(io, "game tool", ""), []string{"a", "--bogus"}); !IsUsage(err) {
		t.Fatalf("unknown flag: %v; want a usage error", err)
	}
}

func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	if err := OutputFile("--csv", ""); err != nil {
		t.Fatal(err)
	}
	if err := OutputFile("--csv", dir+"/t.csv"); err != nil {
		t.Fatalf("a new file in an existing directory: %v", err)
	}
	for path, want := range map[string]string{
		dir:                     "is a directory",
		dir + "/none/t.csv":     "no such file",
		dir + "/none/sub/t.csv": "no such file",
	} {
		if err := OutputFile("--csv", path); !IsUsage(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a usage error with %q", path, err, want)
		}
	}
}
