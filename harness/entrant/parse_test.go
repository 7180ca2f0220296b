package entrant

import (
	"strings"
	"testing"

	"gauntlet/harness/internal/harnesstest"
)

func TestParseEntrantErrors(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	for spec, want := range map[string]string{
		"nosuch":              `unknown strategy "nosuch"`,
		"fixed:skil=3":        `unknown param "skil"`,
		"fixed:skill=11":      `param "skill": 11 is outside [0, 10]`,
		"fixed:skill=abc":     `"abc" is not a number`,
		"fixed:skill":         "want name=value",
		"cmd:./no-such-bot-x": `bot command "./no-such-bot-x" not found`,
		"cmd:sh -c {w}":       "placeholder {w} has no value",
	} {
		_, err := Parse(r, "duel", spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEntrant(%q) = %v, want error containing %q", spec, err, want)
		}
	}
	e, err := Parse(r, "duel", "cmd:sh -c 'echo {w=0.5} {seed}'", "w=0.75")
	if err != nil {
		t.Fatal(err)
	}
	argv, err := e.Argv(42)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(argv, "|"); got != "sh|-c|echo 0.75 42" {
		t.Fatalf("Argv = %q", got)
	}
	if env := e.Environ(42); env[0] != "GAUNTLET_SEED=42" || env[1] != "GAUNTLET_PARAM_W=0.75" {
		t.Fatalf("Environ = %q", env)
	}
}

func TestParseLineup(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 6})
	l, err := ParseLineup(r, "duel", "fixed:skill=2,fixed*3, fixed:skill=7")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range l {
		got = append(got, e.Label())
	}
	if strings.Join(got, " ") != "fixed:skill=2 fixed fixed fixed fixed:skill=7" {
		t.Fatalf("lineup = %v", got)
	}
}
