package entrant

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/internal/harnesstest"
	"gauntlet/strategies/param"
)

func TestExternalDeclaredParams(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	e, err := Parse(r, "duel", "cmd:sh -c 'echo {depth:int[1,12]=6} {w:float[0,5]=1.5} {lr:log[1e-4,1e-1]=1e-3} {mode:cat[fast|safe]=safe} {name=x} {seed} {depth}'")
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
	if argv := mustArgv(t, e2, 7); argv[2] != "echo 9 1.5 0.001 fast x 7 9" {
		t.Fatalf("With: argv %q", argv)
	}
	if e2.Key() == e.Key() {
		t.Fatal("another configuration has the same key")
	}
	if _, err := e.With(param.Values{"depth": 13}); err == nil || !strings.Contains(err.Error(), `"depth": 13 is outside [1, 12]`) {
		t.Fatalf("out of range: %v", err)
	}
	// --param on top of the defaults, checked by kind.
	e3, err := Parse(r, "duel", "cmd:sh -c 'echo {depth:int[1,12]=6} {mode:cat[fast|safe]=safe}'", "depth=3,mode=fast")
	if err != nil {
		t.Fatal(err)
	}
	if argv := mustArgv(t, e3, 1); argv[2] != "echo 3 fast" {
		t.Fatalf("assigned: %q", argv)
	}
	// A stored key parses back to the same configuration.
	back, err := Parse(r, "duel", e2.Key())
	if err != nil || back.Key() != e2.Key() {
		t.Fatalf("key %q parsed back as %v, %v", e2.Key(), back, err)
	}
}

func TestExternalSpecErrors(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
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
		_, err := Parse(r, "duel", spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", spec, err, want)
		}
	}
	if _, err := Parse(r, "duel", "cmd:sh -c 'echo {d:int[1,9]=2}'", "d=10"); err == nil || !strings.Contains(err.Error(), `"d": 10 is outside [1, 9]`) {
		t.Errorf("--param out of range: %v", err)
	}
	if _, err := Parse(r, "duel", "cmd:sh -c 'echo {d:int[1,9]=2}'", "e=1"); err == nil || !strings.Contains(err.Error(), `unknown param "e"`) {
		t.Errorf("unknown --param: %v", err)
	}
	// A literal brace that opens no placeholder stays text.
	e, err := Parse(r, "duel", `cmd:sh -c 'echo {"a": 1}'`)
	if err != nil {
		t.Fatal(err)
	}
	if argv := mustArgv(t, e, 1); argv[2] != `echo {"a": 1}` {
		t.Fatalf("literal braces: %q", argv)
	}
}

func TestExternalSpecFileAndValuesFile(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.json")
	writeFile(t, spec, []byte(`{"params": [
		{"name": "depth", "kind": "int", "min": 1, "max": 12, "default": 6, "help": "search depth"},
		{"name": "w", "kind": "float", "min": 0, "max": 5, "default": 1.5},
		{"name": "mode", "kind": "cat", "choices": ["fast", "safe"], "default": "safe"}
	]}`), 0o644)
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	e, err := Parse(r, "duel", "cmd:sh -c 'cat {params@"+spec+"}; echo {depth}'", "w=2.5")
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
		writeFile(t, bad, []byte(body), 0o644)
		_, err := Parse(r, "duel", "cmd:sh -c 'cat {params@"+bad+"}'")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("spec %s: %v, want an error containing %q", body, err, want)
		}
	}
}

func TestExternalFingerprint(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "bot.sh")
	writeFile(t, bot, []byte("#!/bin/sh\necho one\n"), 0o755)
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	a, err := Parse(r, "duel", "cmd:"+bot)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse(r, "duel", "cmd:sh "+bot)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, bot, []byte("#!/bin/sh\necho two\n"), 0o755)
	a2, b2 := mustEntrant(t, r, "cmd:"+bot), mustEntrant(t, r, "cmd:sh "+bot)
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

// TestExternalIntsInDigits: an integer parameter reaches the bot (argv,
// environment, values file) in plain digits, whatever its size.
func TestExternalIntsInDigits(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	e, err := Parse(r, "duel", "cmd:sh -c 'echo {n:int[1000,5000000]=1000000}' x {m:int[0,9007199254740992]=9007199254740991}")
	if err != nil {
		t.Fatal(err)
	}
	argv, err := e.Argv(1)
	if err != nil {
		t.Fatal(err)
	}
	if argv[2] != "echo 1000000" || argv[4] != "9007199254740991" {
		t.Errorf("argv %q, want the integers in digits", argv)
	}
	if env := e.Environ(1); !slices.Contains(env, "GAUNTLET_PARAM_N=1000000") || !slices.Contains(env, "GAUNTLET_PARAM_M=9007199254740991") {
		t.Errorf("environment %q", env)
	}
	e2, err := Parse(r, "duel", "cmd:sh -c 'echo {n:int[1000,5000000]=1000000}'", "n=1615124")
	if err != nil {
		t.Fatal(err)
	}
	if argv := mustArgv(t, e2, 1); argv[2] != "echo 1615124" {
		t.Errorf("--param n=1615124: argv %q", argv)
	}
	if !strings.Contains(e2.Label(), "n=1615124") {
		t.Errorf("label %s", e2.Label())
	}
	back, err := Parse(r, "duel", e2.Key())
	if err != nil || back.Key() != e2.Key() {
		t.Errorf("key %s parsed back as %v, %v", e2.Key(), back, err)
	}
}

// TestExternalRangesBeyondTheKind: a range its kind cannot hold is refused
// before any game, naming the parameter and the limit.
func TestExternalRangesBeyondTheKind(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	for spec, want := range map[string]string{
		"cmd:sh -c 'echo {w:int[1,99999999999999999999]=5}'": `param "w": range [1, 1e+20] is beyond what an int parameter holds exactly: its bounds must lie within ±9007199254740992 (2^53)`,
		"cmd:sh -c 'echo {w:float[-1e308,1e308]=0}'":         `param "w": range [-1e+308, 1e+308] is too wide to tune: a float parameter's bounds must lie within ±1e+100`,
		"cmd:sh -c 'echo {w:log[1e-9,1e300]=1}'":             `param "w": range [1e-09, 1e+300] is too wide to tune`,
	} {
		if _, err := Parse(r, "duel", spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", spec, err, want)
		}
	}
	spec := filepath.Join(t.TempDir(), "spec.json")
	writeFile(t, spec, []byte(`[{"name": "big", "kind": "int", "min": 0, "max": 1e19, "default": 1}]`), 0o644)
	if _, err := Parse(r, "duel", "cmd:sh -c 'cat {params@"+spec+"}'"); err == nil || !strings.Contains(err.Error(), `param "big": range [0, 1e+19] is beyond`) {
		t.Errorf("spec file: %v", err)
	}
	if _, err := Parse(r, "duel", "cmd:sh -c 'echo {n:int[0,9007199254740992]=1}'", "n=9007199254740993"); err == nil || !strings.Contains(err.Error(), `"n": 9007199254740993 is outside`) {
		t.Errorf("--param beyond 2^53: %v", err)
	}
}

// TestJoinCommandRoundTrip: a joined command splits back into its words,
// and a command of plain words is written as it was typed.
func TestJoinCommandRoundTrip(t *testing.T) {
	for _, words := range [][]string{
		{"sh", "-c", `echo argc=$# >&2; exit 3`, "x", "a b", "{w:float[0,1]=0.5}"},
		{"./bot", "--tag", "it's", "", `back\slash`, `"dq"`, "tab\there", "nl\nhere", "''"},
		{"./bot", "--depth", "{d:int[1,9]=5}"},
	} {
		line := JoinCommand(words)
		back, err := SplitCommand(line)
		if err != nil || !slices.Equal(back, words) {
			t.Errorf("JoinCommand(%q) = %s, splits back as %q, %v", words, line, back, err)
		}
	}
	if got := JoinCommand([]string{"./bot", "--depth", "{d:int[1,9]=5}", "--w=1"}); got != "./bot --depth {d:int[1,9]=5} --w=1" {
		t.Errorf("plain words: %s", got)
	}
}

// TestExternalKeyKeepsArgumentBoundaries: commands that differ only in
// quoting are different entrants, each key parses back to its own
// command, and a command of plain words keeps the key it always had.
func TestExternalKeyKeepsArgumentBoundaries(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	quoted, err := Parse(r, "duel", `cmd:sh -c "echo argc=\$# >&2; exit 3" x "a b" {w:float[0,1]=0.5}`)
	if err != nil {
		t.Fatal(err)
	}
	split, err := Parse(r, "duel", `cmd:sh -c "echo argc=\$# >&2; exit 3" x a b {w:float[0,1]=0.5}`)
	if err != nil {
		t.Fatal(err)
	}
	if quoted.Key() == split.Key() || quoted.Label() == split.Label() {
		t.Fatalf("x \"a b\" and x a b have one key: %s", quoted.Key())
	}
	for _, e := range []*Entrant{quoted, split} {
		back, err := Parse(r, "duel", e.Key())
		if err != nil || !slices.Equal(back.Template, e.Template) || back.Key() != e.Key() || back.Fingerprint != e.Fingerprint {
			t.Errorf("key %s parsed back as %+v, %v", e.Key(), back, err)
		}
	}
	// A fixed value with a space stays one word of the key.
	fixed, err := Parse(r, "duel", "cmd:sh -c 'echo {tag}'", "tag=it's here")
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(r, "duel", fixed.Key())
	if err != nil || back.Key() != fixed.Key() || back.Ext["tag"] != "it's here" {
		t.Errorf("key %s parsed back as %+v, %v", fixed.Key(), back, err)
	}
	// Stored runs of plain commands keep their keys.
	dir := t.TempDir()
	bot := filepath.Join(dir, "bot")
	writeFile(t, bot, []byte("#!/bin/sh\n"), 0o755)
	plain, err := Parse(r, "duel", "cmd:"+bot+" --depth {d:int[1,9]=5} --mode {mode=fast}")
	if err != nil {
		t.Fatal(err)
	}
	if want := "cmd:" + bot + " --depth {d:int[1,9]=5} --mode {mode=fast} [d=5,mode=fast]"; plain.Key() != want {
		t.Errorf("key %s, want %s", plain.Key(), want)
	}
}

// TestExternalReparseKeepsFingerprint: what tune stores of a command (its
// words joined) reads back as the same command with the same files.
func TestExternalReparseKeepsFingerprint(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "bot.py", []byte("print(1)\n"), 0o644)
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	for _, spec := range []string{
		`cmd:sh -c "exec python3 bot.py"`,
		`cmd:sh -c "echo argc=\$# >&2; exit 3" x "a b" {w:float[0,1]=0.5}`,
		`cmd:sh -c 'echo {w:int[0,9]=1}' --tag "it's"`,
	} {
		e, err := Parse(r, "duel", spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		back, err := Parse(r, "duel", "cmd:"+JoinCommand(e.Template))
		if err != nil || !slices.Equal(back.Template, e.Template) || back.Fingerprint != e.Fingerprint {
			t.Errorf("%s: joined and parsed again: %+v, %v", spec, back, err)
		}
	}
}

// TestExternalFingerprintSkipsWrittenFiles: a file the bot writes into is
// not part of its fingerprint; the executable, an interpreter's script,
// the spec file and the files named with {@FILE} are.
func TestExternalFingerprintSkipsWrittenFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("bot.sh", "#!/bin/sh\necho x >> \"$1\"\n")
	write("bot.py", "print(1)\n")
	write("plays.log", "")
	write("weights.bin", "w1")
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	specs := []string{
		"cmd:./bot.sh plays.log",
		"cmd:sh bot.py plays.log",
		"cmd:sh -c 'cat plays.log' plays.log",
		"cmd:./bot.sh --weights {@weights.bin} plays.log",
	}
	fp := func() []string {
		t.Helper()
		var out []string
		for _, s := range specs {
			e, err := Parse(r, "duel", s)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			out = append(out, e.Fingerprint)
		}
		return out
	}
	before := fp()
	write("plays.log", "game 1\ngame 2\n")
	if after := fp(); !slices.Equal(before, after) {
		t.Errorf("the log the bot writes changed the fingerprints: %q → %q", before, after)
	}
	write("bot.py", "print(2)\n")
	write("weights.bin", "w2")
	after := fp()
	for i, changed := range []bool{false, true, false, true} {
		if (before[i] != after[i]) != changed {
			t.Errorf("%s: fingerprint %s → %s after the script and {@weights.bin} changed; want changed=%v", specs[i], before[i], after[i], changed)
		}
	}
	if argv, err := mustEntrant(t, r, specs[3]).Argv(1); err != nil || argv[2] != "weights.bin" {
		t.Errorf("{@weights.bin} expands to %q, %v", argv, err)
	}
	for spec, want := range map[string]string{
		"cmd:./bot.sh {@missing.bin}": "placeholder {@missing.bin}: no such file",
		"cmd:./bot.sh {@.}":           "placeholder {@.}: not a regular file",
		"cmd:./bot.sh {@}":            "no file after @",
	} {
		if _, err := Parse(r, "duel", spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
}

// TestPlaceholderNames: anything that opens a placeholder and has no valid
// name is an error naming it; {{ writes a literal brace, and a brace
// followed by a space, a quote or } is text.
func TestPlaceholderNames(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	for spec, want := range map[string]string{
		"cmd:sh -c 'echo {../x:int[1,2]=1}'":     `placeholder {../x:int[1,2]=1}: bad name "../x"`,
		"cmd:sh -c 'echo {my-depth:int[1,2]=1}'": `placeholder {my-depth:int[1,2]=1}: bad name "my-depth"`,
		"cmd:sh -c 'echo {1x}'":                  `placeholder {1x}: bad name "1x"`,
		"cmd:sh -c 'echo {-}'":                   `placeholder {-}: bad name "-"`,
		"cmd:sh -c 'echo {.x'":                   "placeholder {.x is not closed",
	} {
		_, err := Parse(r, "duel", spec)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "{{") {
			t.Errorf("%s: %v, want an error containing %q and saying how to write a literal brace", spec, err, want)
		}
	}
	e, err := Parse(r, "duel", `cmd:sh -c 'echo {{../x:int[1,2]=1} {} { } {"a": {"b": 1}} a{{2,3}{n=4}'`)
	if err != nil {
		t.Fatal(err)
	}
	if argv := mustArgv(t, e, 1); argv[2] != `echo {../x:int[1,2]=1} {} { } {"a": {"b": 1}} a{2,3}4` {
		t.Errorf("literal braces: %q", argv[2])
	}
}

// TestExternalValuesWithCommas: a fixed value or a choice with a comma is
// one value, given with --param and read back from the entrant's key (as
// tune reads its stored fixed values).
func TestExternalValuesWithCommas(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	e, err := Parse(r, "duel", "cmd:sh -c 'echo {tag} {m:cat[a,b|c]=c} {d=x,y}'", "tag=1,2,m=a,b")
	if err != nil {
		t.Fatal(err)
	}
	if argv := mustArgv(t, e, 1); argv[2] != "echo 1,2 a,b x,y" {
		t.Fatalf("argv %q", argv)
	}
	back, err := Parse(r, "duel", e.Key())
	if err != nil || back.Key() != e.Key() {
		t.Fatalf("key %s parsed back as %v, %v", e.Key(), back, err)
	}
	if _, err := Parse(r, "duel", "cmd:sh -c 'echo {tag}'", "1,2"); err == nil || !errors.Is(err, param.ErrSyntax) {
		t.Errorf("an assignment without a name: %v", err)
	}
}

// TestFilesMoved: an external entrant notices its script touched or
// rewritten since it was parsed (a cheap stat), and parsing it again tells
// the two apart by the fingerprint; a built-in strategy has no files.
func TestFilesMoved(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("bot.py", []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	e, err := Parse(r, "duel", "cmd:python3 bot.py")
	if err != nil {
		t.Fatal(err)
	}
	if e.FilesMoved() {
		t.Fatal("FilesMoved right after Parse")
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes("bot.py", later, later); err != nil {
		t.Fatal(err)
	}
	if !e.FilesMoved() {
		t.Fatal("script touched: FilesMoved false")
	}
	same, err := Parse(r, "duel", e.Key())
	if err != nil || same.Fingerprint != e.Fingerprint || same.FilesMoved() {
		t.Fatalf("touched, parsed again: fingerprint %q (was %q), moved %v, %v", same.Fingerprint, e.Fingerprint, same.FilesMoved(), err)
	}
	if err := os.WriteFile("bot.py", []byte("print(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !same.FilesMoved() {
		t.Fatal("script rewritten: FilesMoved false")
	}
	if other, err := Parse(r, "duel", e.Key()); err != nil || other.Fingerprint == e.Fingerprint {
		t.Fatalf("rewritten, parsed again: fingerprint %q, the old one %q, %v", other.Fingerprint, e.Fingerprint, err)
	}
	if err := os.Remove("bot.py"); err != nil {
		t.Fatal(err)
	}
	if !e.FilesMoved() {
		t.Fatal("script gone: FilesMoved false")
	}
	if b, err := Parse(r, "duel", "fixed"); err != nil || b.FilesMoved() {
		t.Fatalf("a built-in strategy: FilesMoved true or %v", err)
	}
}
