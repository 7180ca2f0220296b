package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"gauntlet/harness/cli"
)

func TestFlagsAnywhere(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		rest  []string
		seeds bool
		ph    string
	}{
		{[]string{"a.json", "b.json"}, []string{"a.json", "b.json"}, false, "power"},
		{[]string{"--seeds", "a.json"}, []string{"a.json"}, true, "power"},
		{[]string{"a.json", "--seeds", "b.json", "--phrases", "none"}, []string{"a.json", "b.json"}, true, "none"},
		{[]string{"a.json", "--phrases=custom", "--", "--seeds"}, []string{"a.json", "--seeds"}, false, "custom"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		seeds := fs.Bool("seeds", false, "")
		ph := fs.String("phrases", "power", "")
		rest, err := parseFlags(fs, tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !slices.Equal(rest, tc.rest) || *seeds != tc.seeds || *ph != tc.ph {
			t.Errorf("%q: rest %q seeds %v phrases %q, want %q %v %q", tc.args, rest, *seeds, *ph, tc.rest, tc.seeds, tc.ph)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parseFlags(fs, []string{"a.json", "--nope"}); err == nil {
		t.Fatal("an unknown flag after a positional argument was accepted")
	}
}

// A flag that takes one value given twice is a usage error naming it; a
// repeatable one collects its values.
func TestFlagGivenTwice(t *testing.T) {
	for _, args := range [][]string{
		{"--opponents", "a", "--opponents", "b"},
		{"--opponents=a", "x", "--opponents=a"},
		{"--json", "--json"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("opponents", "", "")
		fs.Bool("json", false, "")
		_, err := parseFlags(fs, args)
		name := strings.TrimLeft(strings.SplitN(args[0], "=", 2)[0], "-")
		if !cli.IsUsage(err) || !strings.Contains(fmt.Sprint(err), "--"+name+" given twice") {
			t.Errorf("%q: error %v, want a usage error for --%s given twice", args, err, name)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var params multiFlag
	fs.Var(&params, "param", "")
	opp := fs.String("opponents", "", "")
	if _, err := parseFlags(fs, []string{"--param", "a=1", "--param", "b=2", "--opponents", "x"}); err != nil || !slices.Equal(params, multiFlag{"a=1", "b=2"}) || *opp != "x" {
		t.Errorf("repeatable --param: %q (%v)", params, err)
	}
	// The flags are put back: Lookup sees the values that were set.
	if v := fs.Lookup("opponents").Value.String(); v != "x" {
		t.Errorf("after the parse: %q", v)
	}
}
