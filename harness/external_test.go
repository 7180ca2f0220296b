package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/strategies/param"
)

func TestExternalDeclaredParams(t *testing.T) {
	r := duelRegistry(&duel{seats: 2})
	e, err := r.ParseEntrant("duel", "cmd:sh -c 'echo {depth:int[1,12]=6} {w:float[0,5]=1.5} {lr:log[1e-4,1e-1]=1e-3} {mode:cat[fast|safe]=safe} {name=x} {seed} {depth}'")
	if err != nil {
		t.Fatal(err)
	}
	specs := e.Specs()
	if got := strings.Join(specs.Names(), ","); got != "depth,w,lr,mode" {
		t.Fatalf("declared %s", got)
	}
	want := []param.Kind{param.Int, param.Float, param.LogFloat, param.Categorical}
	for i, sp := range specs {
		if sp.Kind != want[i] {
			t.Errorf("%s: kind %v, want %v", sp.Name, sp.Kind, want[i])
		}
	}
	argv, err := e.Argv(7)
	if err != nil {
		t.Fatal(err)
	}
	if argv[2] != "echo 6 1.5 0.001 safe x 7 6" {
		t.Fatalf("argv %q", argv)
	}
	e2, err := e.With(param.Values{"depth": 9, "mode": 0})
	if err != nil {
		t.Fatal(err)
	}
	if argv, _ := e2.Argv(7); argv[2] != "echo 9 1.5 0.001 fast x 7 9" {
		t.Fatalf("With: argv %q", argv)
	}
	if e2.Key() == e.Key() {
		t.Fatal("another configuration has the same key")
	}
	if _, err := e.With(param.Values{"depth": 13}); err == nil || !strings.Contains(err.Error(), `"depth": 13 is outside [1, 12]`) {
		t.Fatalf("out of range: %v", err)
	}
	// --param on top of the defaults, checked by kind.
	e3, err := r.ParseEntrant("duel", "cmd:sh -c 'echo {depth:int[1,12]=6} {mode:cat[fast|safe]=safe}'", "depth=3,mode=fast")
	if err != nil {
		t.Fatal(err)
	}
	if argv, _ := e3.Argv(1); argv[2] != "echo 3 fast" {
		t.Fatalf("assigned: %q", argv)
	}
	// A stored key parses back to the same configuration.
	back, err := r.ParseEntrant("duel", e2.Key())
	if err != nil || back.Key() != e2.Key() {
		t.Fatalf("key %q parsed back as %v, %v", e2.Key(), back, err)
	}
}

func TestExternalSpecErrors(t *testing.T) {
	r := duelRegistry(&duel{seats: 2})
	for spec, want := range map[string]string{
		"cmd:sh -c 'echo {depth:int[12,1]=6}'":           "low 12 is above high 1",
		"cmd:sh -c 'echo {depth:int[1,12]=13}'":          `"depth": 13 is outside [1, 12]`,
		"cmd:sh -c 'echo {depth:int[1,12]=2.5}'":         `2.5 is not an integer`,
		"cmd:sh -c 'echo {depth:foo[1,12]=6}'":           `unknown kind "foo"`,
		"cmd:sh -c 'echo {d:int[1,2]=1} {d:int[1,3]=2}'": `parameter "d" declared twice`,
		"cmd:sh -c 'echo {depth=3'":                      "placeholder {depth=3 is not closed",
		"cmd:sh -c 'echo {depth:int[1,12]}'":             `parameter "depth": no default`,
		"cmd:sh -c 'echo {m:cat[a||b]=a}'":               "an empty choice",
		"cmd:sh -c 'echo {lr:log[0,1]=0.5}'":             "log-float needs min > 0",
		"cmd:sh -c 'echo {w:float[0,x]=1}'":              `high "x" is not a number`,
		"cmd:sh -c 'echo {seed=3}'":                      "{seed} is given by gauntlet",
		"cmd:sh -c 'echo {d:int[1,5]=2} {d=3}'":          "its default is declared with it",
		"cmd:sh -c 'echo {params@/no/such/spec.json}'":   "spec file: open /no/such/spec.json",
		"cmd:sh -c 'echo {d:int[1,9]=2}' --param-typo":   "",
	} {
		if want == "" {
			continue
		}
		_, err := r.ParseEntrant("duel", spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", spec, err, want)
		}
	}
	if _, err := r.ParseEntrant("duel", "cmd:sh -c 'echo {d:int[1,9]=2}'", "d=10"); err == nil || !strings.Contains(err.Error(), `"d": 10 is outside [1, 9]`) {
		t.Errorf("--param out of range: %v", err)
	}
	if _, err := r.ParseEntrant("duel", "cmd:sh -c 'echo {d:int[1,9]=2}'", "e=1"); err == nil || !strings.Contains(err.Error(), `unknown param "e"`) {
		t.Errorf("unknown --param: %v", err)
	}
	// A literal brace that opens no placeholder stays text.
	e, err := r.ParseEntrant("duel", `cmd:sh -c 'echo {"a": 1}'`)
	if err != nil {
		t.Fatal(err)
	}
	if argv, _ := e.Argv(1); argv[2] != `echo {"a": 1}` {
		t.Fatalf("literal braces: %q", argv)
	}
}

func TestExternalSpecFileAndValuesFile(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.json")
	os.WriteFile(spec, []byte(`{"params": [
		{"name": "depth", "kind": "int", "min": 1, "max": 12, "default": 6, "help": "search depth"},
		{"name": "w", "kind": "float", "min": 0, "max": 5, "default": 1.5},
		{"name": "mode", "kind": "cat", "choices": ["fast", "safe"], "default": "safe"}
	]}`), 0o644)
	r := duelRegistry(&duel{seats: 2})
	e, err := r.ParseEntrant("duel", "cmd:sh -c 'cat {params@"+spec+"}; echo {depth}'", "w=2.5")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.Specs().Names(), ","); got != "depth,w,mode" {
		t.Fatalf("declared %s", got)
	}
	argv, err := e.Argv(3)
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(argv[2], "cat "), "; echo 6")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("values file %q: %v", path, err)
	}
	var vals map[string]any
	if err := json.Unmarshal(data, &vals); err != nil || vals["depth"] != 6.0 || vals["w"] != 2.5 || vals["mode"] != "safe" {
		t.Fatalf("values file: %s (%v)", data, err)
	}
	if err := RemoveParamsFiles(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("values file left behind: %v", err)
	}
	for body, want := range map[string]string{
		`[{"name": "d", "kind": "int", "min": 5, "max": 1, "default": 3}]`:                                                                 "low 5 is above high 1",
		`[{"name": "d", "kind": "int", "min": 1, "max": 5, "default": 7}]`:                                                                 `"d": 7 is outside [1, 5]`,
		`[{"name": "d", "kind": "gauss", "min": 1, "max": 5, "default": 2}]`:                                                               `unknown kind "gauss"`,
		`[{"name": "d", "kind": "int", "min": 1, "max": 5, "default": 2}, {"name": "d", "kind": "int", "min": 1, "max": 5, "default": 2}]`: `"d": declared twice`,
		`[{"name": "d", "kind": "int", "min": 1, "max": 5}]`:                                                                               "no default",
		`hello`: "not JSON",
		`[]`:    "declares no parameter",
	} {
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(body), 0o644)
		_, err := r.ParseEntrant("duel", "cmd:sh -c 'cat {params@"+bad+"}'")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("spec %s: %v, want an error containing %q", body, err, want)
		}
	}
}

func TestExternalFingerprint(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "bot.sh")
	os.WriteFile(bot, []byte("#!/bin/sh\necho one\n"), 0o755)
	r := duelRegistry(&duel{seats: 2})
	a, err := r.ParseEntrant("duel", "cmd:"+bot)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.ParseEntrant("duel", "cmd:sh "+bot)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bot, []byte("#!/bin/sh\necho two\n"), 0o755)
	a2, _ := r.ParseEntrant("duel", "cmd:"+bot)
	b2, _ := r.ParseEntrant("duel", "cmd:sh "+bot)
	if a.Fingerprint == "" || a.Fingerprint == a2.Fingerprint {
		t.Errorf("executable rebuilt: fingerprint %q → %q", a.Fingerprint, a2.Fingerprint)
	}
	if b.Fingerprint == b2.Fingerprint {
		t.Errorf("script given to an interpreter changed: fingerprint %q → %q", b.Fingerprint, b2.Fingerprint)
	}
	if a.Key() != a2.Key() {
		t.Error("the key (the configuration) changed with the file")
	}
}
