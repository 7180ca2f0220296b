package main

import (
	"flag"
	"io"
	"slices"
	"testing"
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
