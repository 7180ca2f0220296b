package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/internal/testbot"
	"gauntlet/internal/testjson"
	"gauntlet/tuning"
)

// externalGreedy is a brew bot run as an external command: the gauntlet
// binary serving the built-in greedy strategy over the CodinGame protocol
// (gauntlet bot), with two of its weights declared as typed placeholders.
func externalGreedy() string {
	return "cmd:" + bin + " bot brew greedy --param dist_weight={dw:float[0,5]=1.5} --param price_weight={pw:float[0,5]=1}"
}

// TestTuneExternalBot: a study of an external bot's declared parameters
// completes its trials, shows the bot's answer times, and its best
// configuration round-trips through --best-json into eval.
func TestTuneExternalBot(t *testing.T) {
	dir := t.TempDir()
	best := filepath.Join(dir, "best.json")
	out, stderr, code := gauntlet(t, dir, "tune", "--game", "brew", "--strategy", externalGreedy(), "--opponents", "greedy",
		"--cases", "seeds:4", "--trials", "4", "--seed", "3", "--storage", "sqlite:"+filepath.Join(dir, "t.db"),
		"--best-json", best, "--quiet")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "trials: 4 complete") || !strings.Contains(out, "first answer") {
		t.Fatalf("tune output:\n%s", out)
	}
	var bf struct {
		Strategy string         `json:"strategy"`
		Params   map[string]any `json:"params"`
	}
	data, err := os.ReadFile(best)
	if err != nil || json.Unmarshal(data, &bf) != nil || bf.Strategy != externalGreedy() || bf.Params["dw"] == nil || bf.Params["pw"] == nil {
		t.Fatalf("--best-json: %s (%v)", data, err)
	}
	js, stderr, code := gauntlet(t, dir, "eval", "--game", "brew", "--strategy", externalGreedy(), "--params-file", best,
		"--opponents", "greedy", "--cases", "seeds:2", "--storage", "none", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("eval --params-file: exit %d: %s", code, stderr)
	}
	var s results.EvalSummary
	if err := json.Unmarshal([]byte(js), &s); err != nil || s.Games != 2 {
		t.Fatalf("eval: %v: %s", err, js)
	}
	for _, k := range []string{"dw", "pw"} {
		if want := k + "=" + strings.TrimSpace(string(testjson.Marshal(t, bf.Params[k]))); !strings.Contains(s.Strategy, want) {
			t.Errorf("eval ran %s, not the best configuration (%s)", s.Strategy, want)
		}
	}
}

// TestTuneExternalBotKilledResumes: kill -9 of a study of an external bot
// in the middle of a trial; the same command finishes the study with every
// trial and the lost one re-run with its parameters.
func TestTuneExternalBotKilledResumes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"tune", "--game", "brew", "--strategy", externalGreedy(), "--opponents", "greedy", "--cases", "seeds:4",
		"--trials", "3", "--seed", "1", "--sampler", "random", "--storage", "sqlite:" + db, "--study", "killext",
		"--heartbeat", "200ms", "--jobs", "1", "--chunk", "1", "--json",
		// Limits a loaded machine cannot miss: this test is about the kill.
		"--first-turn-time", "10s", "--turn-time", "2s"}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for {
		rec, err := tuning.LoadStudy(ctx, "sqlite:"+db, "killext")
		done, playing := 0, false
		if err == nil {
			for _, tr := range rec.Trials {
				done += boolInt(tr.State == tuning.StateComplete)
				playing = playing || tr.State == tuning.StateRunning && len(tr.Scores) > 0
			}
		}
		if done >= 1 && playing {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the worker never got into its second trial")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("restart: exit %d: %s", code, stderr)
	}
	var s tuning.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Complete != 3 || s.Lost != 1 || len(s.Trials) != 4 {
		t.Fatalf("after restart: %d complete, %d lost, %d trials; want 3, 1, 4", s.Complete, s.Lost, len(s.Trials))
	}
	// The re-run of the lost trial keeps the cases that trial finished
	// (two games each: seats swapped) and plays only the others.
	reused := 0
	for _, tr := range s.Trials {
		if tr.State != tuning.StateComplete {
			continue
		}
		reused += tr.Reused
		if tr.Conduct == nil || tr.Conduct.Games+2*tr.Reused != 8 || tr.Conduct.Forfeits != 0 {
			t.Errorf("trial %d: conduct %+v with %d cases kept, want 8 games in all and no forfeit", tr.Number, tr.Conduct, tr.Reused)
		}
	}
	if reused == 0 {
		t.Error("the re-run of the killed trial kept none of the cases it had finished")
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTuneExternalBadSpecs: spec errors are refused before any game, with
// exit status 2 and a message naming them.
func TestTuneExternalBadSpecs(t *testing.T) {
	dir := t.TempDir()
	for strategy, want := range map[string]string{
		"cmd:sh -c 'echo {w:int[9,0]=8}'":                "low 9 is above high 0",
		"cmd:sh -c 'echo {w:int[0,9]=10}'":               `"w": 10 is outside [0, 9]`,
		"cmd:sh -c 'echo {w:gauss[0,9]=1}'":              `unknown kind "gauss"`,
		"cmd:sh -c 'echo {w:int[0,9]=1} {w:int[0,5]=2}'": `parameter "w" declared twice`,
		"cmd:sh -c 'echo {w=1'":                          "is not closed",
		"cmd:sh -c 'echo {w=1}'":                         "declares no parameter to tune",
	} {
		_, stderr, code := gauntlet(t, dir, "tune", "--game", "brew", "--strategy", strategy, "--opponents", "greedy",
			"--cases", "seeds:2", "--trials", "2", "--storage", "none")
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming %q", strategy, code, stderr, want)
		}
	}
}

// TestSPSAExternalBot: SPSA tunes an external command's declared
// parameters like a built-in strategy's, its --best-json read back by eval.
func TestSPSAExternalBot(t *testing.T) {
	dir := t.TempDir()
	best := filepath.Join(dir, "best.json")
	out, stderr, code := gauntlet(t, dir, "spsa", "--game", "brew", "--strategy", externalGreedy(), "--games", "20",
		"--storage", "sqlite:"+filepath.Join(dir, "s.db"), "--best-json", best, "--quiet", "--jobs", "1")
	if code != 0 {
		t.Fatalf("spsa: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "iterations: 10 of 10 applied") {
		t.Fatalf("spsa output:\n%s", out)
	}
	if _, stderr, code := gauntlet(t, dir, "eval", "--game", "brew", "--strategy", externalGreedy(), "--params-file", best,
		"--cases", "seeds:1", "--storage", "none", "--quiet"); code != 0 {
		t.Fatalf("eval --params-file of the SPSA result: exit %d: %s", code, stderr)
	}
	if _, stderr, code := gauntlet(t, dir, "spsa", "--game", "brew", "--strategy", "cmd:sh -c 'echo {w=1}'", "--games", "4", "--storage", "none"); code != 2 || !strings.Contains(stderr, "declares no parameter to tune") {
		t.Fatalf("spsa of a command without parameters: exit %d: %s", code, stderr)
	}
}

// TestParamsShowsDeclaredSpace: gauntlet params lists an external entrant's
// declared parameters with kinds, ranges and defaults, and refuses a bad
// declaration.
func TestParamsShowsDeclaredSpace(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := gauntlet(t, dir, "params", "--game", "brew", "--json", "cmd:sh -c 'echo {depth:int[1,12]=6} {mode:cat[fast|safe]=safe} {x=3}'")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p struct {
		Params []struct {
			Name, Kind string
			Min, Max   *float64
			Choices    []string
			Default    any
		}
		Fixed map[string]string
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil || len(p.Params) != 2 || p.Params[0].Kind != "int" || *p.Params[0].Max != 12 ||
		p.Params[1].Kind != "categorical" || p.Params[1].Default != "safe" || p.Fixed["x"] != "3" {
		t.Fatalf("params --json: %v: %s", err, out)
	}
	if _, stderr, code := gauntlet(t, dir, "params", "--game", "brew", "cmd:sh -c 'echo {depth:int[12,1]=6}'"); code != 2 || !strings.Contains(stderr, "low 12 is above high 1") {
		t.Fatalf("bad declaration: exit %d: %s", code, stderr)
	}
}

// TestTuneExternalQuotedArgumentsAndInts: tune runs the command eval runs:
// arguments with spaces and quotes reach the bot as they were written, and
// an integer parameter reaches it in digits (argv and environment) at
// every size. The bot exits, forfeiting every game, when either is not so.
func TestTuneExternalQuotedArgumentsAndInts(t *testing.T) {
	dir := t.TempDir()
	script := `[ "$1" = "a b" ] && [ "$2" = "it's" ] || { echo "argv: $*" >&2; exit 3; }
case "$3.$GAUNTLET_PARAM_N" in *[!0-9.]*) echo "n: $3" >&2; exit 4;; esac
exec "$0" ` + testbot.Arg + ` brew-budget 0 0`
	args := append(testbot.Command("x")[:1], "a b", "it's", "{n:int[1000,5000000]=1000000}", "{w:float[0,1]=0.5}")
	strategy := "cmd:" + entrant.JoinCommand(append([]string{"sh", "-c", script}, args...))
	db := "sqlite:" + filepath.Join(dir, "t.db")
	out, stderr, code := gauntlet(t, dir, "tune", "--game", "brew", "--strategy", strategy, "--opponents", "greedy",
		"--cases", "seeds:2", "--trials", "3", "--seed", "1", "--storage", db, "--no-time-limit", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	var s tuning.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if s.Complete != 3 {
		t.Fatalf("%d of 3 trials complete: %s\n%s", s.Complete, out, stderr)
	}
	for _, tr := range s.Trials {
		if tr.Conduct == nil || tr.Conduct.Forfeits != 0 {
			t.Errorf("trial %d (%v): conduct %+v, want no forfeit", tr.Number, tr.Params, tr.Conduct)
		}
	}
	// The same command again resumes the study: its files read the same.
	if _, stderr, code := gauntlet(t, dir, "tune", "--game", "brew", "--strategy", strategy, "--opponents", "greedy",
		"--cases", "seeds:2", "--trials", "3", "--seed", "1", "--storage", db, "--no-time-limit", "--quiet"); code != 0 {
		t.Fatalf("tune again: exit %d: %s", code, stderr)
	}
}

// TestTuneAndSPSALeaveEachPlayerACore: tune and spsa of an external bot
// timed on the wall clock play, by default, no more games at once than
// leave each player a core, as eval and ab do, and say so.
func TestTuneAndSPSALeaveEachPlayerACore(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one core: every default already leaves each player a core")
	}
	dir := t.TempDir()
	const said = "so that each player has a core"
	_, stderr, code := gauntlet(t, dir, "tune", "--game", "brew", "--strategy", externalGreedy(), "--opponents", "greedy",
		"--cases", "seeds:1", "--trials", "1", "--storage", "sqlite:"+filepath.Join(dir, "t.db"),
		"--first-turn-time", "10s", "--turn-time", "2s")
	if code != 0 || !strings.Contains(stderr, said) {
		t.Errorf("tune: exit %d, stderr lacks %q:\n%s", code, said, stderr)
	}
	_, stderr, code = gauntlet(t, dir, "spsa", "--game", "brew", "--strategy", externalGreedy(),
		"--cases", "seeds:1", "--games", "2", "--storage", "sqlite:"+filepath.Join(dir, "s.db"),
		"--first-turn-time", "10s", "--turn-time", "2s")
	if code != 0 || !strings.Contains(stderr, said) {
		t.Errorf("spsa: exit %d, stderr lacks %q:\n%s", code, said, stderr)
	}
}
