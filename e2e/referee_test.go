package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
)

// refData is the absolute path of the relay package's test referees and
// bots: relayed.py (a race to a target the seed sets, each bot stepping
// its argument, at most 3, every round), race.sh (the same race in the
// shell, with its crash seeds but none of its other faults), play.sh (a
// play command ranking the bots by the number they print) and bot.sh.
func refData(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"python3", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	dir, err := filepath.Abs("../referees/relay/testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// raceGame is the --game value of the relayed race; raceBot a bot of it.
func raceGame(td string) string { return "referee:python3 '" + td + "/relayed.py'" }
func raceBot(td, args string) string {
	return "cmd:sh '" + td + "/bot.sh' " + args
}

// shRace is the same race refereed by race.sh, for the tests that play many
// games: a Python referee's start costs a few hundred milliseconds of CPU
// on a loaded machine, most of such a game's cost.
func shRace(td string) string { return "referee:sh '" + td + "/race.sh'" }

func evalJSON(t *testing.T, dir, out string) results.EvalSummary {
	t.Helper()
	var s results.EvalSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("eval --json: %v:\n%s", err, out)
	}
	return s
}

// eval of a relayed referee: the faster bot wins every race, a game's turns
// are its rounds, and a rerun gives the same summary.
func TestRefereeEvalRerunIsIdentical(t *testing.T) {
	t.Parallel()
	td := refData(t)
	dir := t.TempDir()
	args := []string{"eval", "--game", raceGame(td), "--strategy", raceBot(td, "3"), "--opponents", raceBot(td, "1"),
		"--cases", "seeds:4", "--storage", "none", "--no-time-limit", "--quiet", "--json"}
	var runs []results.EvalSummary
	for range 2 {
		out, stderr, code := gauntlet(t, dir, args...)
		if code != 0 {
			t.Fatalf("eval: exit %d: %s", code, stderr)
		}
		runs = append(runs, evalJSON(t, dir, out))
	}
	s := runs[0]
	if s.Games != 4 || s.FirstRate == nil || *s.FirstRate != 1 || len(s.RefereeErrors) != 0 {
		t.Fatalf("summary %+v: want 4 games won", s)
	}
	// Seed 1's race is 6 steps: 2 rounds of 3.
	if s.Cases[0].Case != "seed:1" || s.Cases[0].Turns != 2 {
		t.Errorf("case %+v: want seed:1 in 2 turns", s.Cases[0])
	}
	if !reflect.DeepEqual(runs[0].Cases, runs[1].Cases) || runs[0].Mean != runs[1].Mean {
		t.Errorf("a rerun differs:\n%+v\n%+v", runs[0].Cases, runs[1].Cases)
	}
	// The game's title says its referee once.
	out, stderr, code := gauntlet(t, dir, "list", "--game", raceGame(td))
	want := `game referee — relayed referee "python3 '` + td + `/relayed.py'"` + "\n"
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("list: exit %d: %s%s\nwant it to start with %s", code, out, stderr, want)
	}
}

// ab with an SPRT stops early with the right verdict both ways.
func TestRefereeABSPRT(t *testing.T) {
	t.Parallel()
	td := refData(t)
	dir := t.TempDir()
	for _, tc := range []struct{ a, b, want string }{{"3", "2", "H1"}, {"2", "3", "H0"}} {
		out, stderr, code := gauntlet(t, dir, "ab", "--game", shRace(td), "--a", raceBot(td, tc.a), "--b", raceBot(td, tc.b),
			"--cases", "seeds:200", "--sprt", "0,200", "--storage", "none", "--no-time-limit", "--quiet", "--json")
		if code != 0 {
			t.Fatalf("ab: exit %d: %s", code, stderr)
		}
		var s struct {
			Games   int    `json:"games"`
			SPRT    string `json:"sprt"`
			Stopped bool   `json:"stopped_early"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("ab --json: %v:\n%s", err, out)
		}
		if s.SPRT != tc.want || !s.Stopped || s.Games >= 100 {
			t.Errorf("bot %s against %s: SPRT %q after %d games (stopped early %v), want %s early", tc.a, tc.b, s.SPRT, s.Games, s.Stopped, tc.want)
		}
	}
}

// playedResumed reads "run ID: N played, M resumed" from eval's output.
func playedResumed(t *testing.T, out string) (int, int) {
	t.Helper()
	m := regexp.MustCompile(`run \S+: (\d+) played, (\d+) resumed`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no counts in eval's output:\n%.2000s", out)
	}
	played, _ := strconv.Atoi(m[1])
	resumed, _ := strconv.Atoi(m[2])
	return played, resumed
}

// storedGames counts the stored games of run, and their distinct keys. A
// store not there yet, without its tables yet or locked by the run reads
// as no games: callers poll until a count, or want one above zero.
func storedGames(t *testing.T, db, run string) (rows, distinct int) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+db)
	if err != nil {
		return 0, 0
	}
	defer st.Close()
	_ = st.DB().QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = ?`, run).Scan(&rows, &distinct)
	return rows, distinct
}

// An eval of a referee game killed with -9 mid-run is finished by the same
// command: every game stored once, the counts adding up.
func TestRefereeEvalKilledResumes(t *testing.T) {
	t.Parallel()
	td := refData(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	const n = 100
	args := []string{"eval", "--game", shRace(td), "--strategy", raceBot(td, "3"), "--opponents", raceBot(td, "2"),
		"--cases", "seeds:" + strconv.Itoa(n), "--jobs", "2", "--storage", "sqlite:" + db, "--run", "race", "--no-time-limit", "--quiet"}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for r, _ := storedGames(t, db, "race"); r < 3 && time.Now().Before(deadline); r, _ = storedGames(t, db, "race") {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait() // killed: its status says so
	before, _ := storedGames(t, db, "race")
	if before == 0 || before >= n {
		t.Fatalf("%d games stored before the kill; want some but not all", before)
	}
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	played, resumed := playedResumed(t, out)
	rows, distinct := storedGames(t, db, "race")
	if rows != n || distinct != n || resumed != before || played != n-before {
		t.Fatalf("after the kill at %d games: %d rows, %d distinct, %d played, %d resumed; want %d games, %d played", before, rows, distinct, played, resumed, n, n-before)
	}
}

// A referee that crashes in some games: eval reports the referee's errors
// and stores the other games; the rerun, with the referee mended, plays
// only those games and says it retries them.
func TestRefereeCrashesAreRetried(t *testing.T) {
	t.Parallel()
	td := refData(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"eval", "--game", shRace(td), "--strategy", raceBot(td, "3"), "--opponents", raceBot(td, "2"),
		"--cases", "seeds:6", "--storage", "sqlite:" + db, "--run", "crashy", "--no-time-limit", "--quiet"}
	cmd := exec.Command(bin, append(args, "--json")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REFEREE_CRASH_SEEDS=2,5")
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("eval: %v: %s", err, errb.String())
	}
	s := evalJSON(t, dir, string(out))
	if s.Games != 4 || len(s.RefereeErrors) != 2 {
		t.Fatalf("%d games, referee errors %+v; want 4 and 2", s.Games, s.RefereeErrors)
	}
	for i, want := range []string{"seed:2", "seed:5"} {
		f := s.RefereeErrors[i]
		if f.CaseID != want || !strings.Contains(f.Reason, "ended before ###End (exit status 5)") || !strings.Contains(f.Stderr, "no game for seed") {
			t.Errorf("referee error %+v, want %s's crash with its stderr", f, want)
		}
	}
	if rows, _ := storedGames(t, db, "crashy"); rows != 4 {
		t.Fatalf("%d games stored, want 4", rows)
	}
	text, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	if played, resumed := playedResumed(t, text); played != 2 || resumed != 4 {
		t.Errorf("rerun: %d played, %d resumed; want 2 and 4", played, resumed)
	}
	if !strings.Contains(stderr, "retrying 2 games whose referee failed; first in seed:2") || strings.Contains(text, "referee errors:") {
		t.Errorf("rerun output:\n%s\n%s", text, stderr)
	}
	if rows, distinct := storedGames(t, db, "crashy"); rows != 6 || distinct != 6 {
		t.Errorf("after the rerun %d rows, %d distinct; want 6", rows, distinct)
	}
}

// A game file of 2 to 4 players, and a play command in psyleague's form,
// through eval.
func TestRefereeGameFiles(t *testing.T) {
	td := refData(t)
	dir := t.TempDir()
	race := filepath.Join(dir, "race.json")
	play := filepath.Join(dir, "pick.json")
	files := map[string]string{
		race: `{"name": "race", "title": "A race", "referee": "python3 '` + td + `/relayed.py'", "min_players": 2, "max_players": 4, "cases": "seeds:3"}`,
		play: `{"name": "pick", "protocol": "play", "referee": "sh '` + td + `/play.sh'", "players": 3}`,
	}
	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code := gauntlet(t, dir, "eval", "--game", race, "--strategy", raceBot(td, "3"), "--opponent", raceBot(td, "1"),
		"--opponent", raceBot(td, "2"), "--opponent", raceBot(td, "2"), "--storage", "none", "--no-time-limit", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("eval of a game file: exit %d: %s", code, stderr)
	}
	s := evalJSON(t, dir, out)
	if s.Games != 3 || s.CaseSet != "seeds:3" {
		t.Fatalf("%d games of %q, want the file's 3", s.Games, s.CaseSet)
	}
	// Seed 1: a race of 6. The bot of 3 arrives first, those of 2 next
	// (tied), the bot of 1 last: 4 players score 3, 0, 2, 2.
	if c := s.Cases[0]; c.Score != 3 || c.Rank != 1 || !reflect.DeepEqual(c.OpponentScores, []float64{0, 2, 2}) {
		t.Errorf("seed:1 %+v", c)
	}
	out, stderr, code = gauntlet(t, dir, "eval", "--game", play, "--strategy", raceBot(td, "5"), "--opponent", raceBot(td, "2"),
		"--opponent", raceBot(td, "7"), "--cases", "seeds:2", "--storage", "none", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("eval of a play command: exit %d: %s", code, stderr)
	}
	s = evalJSON(t, dir, out)
	// play.sh ranks by the number printed: 7 first, 5 second, 2 last.
	if s.Games != 2 || s.Cases[0].Rank != 2 || s.Cases[0].Score != 1 || !reflect.DeepEqual(s.Cases[0].OpponentScores, []float64{0, 2}) {
		t.Errorf("play: %+v", s.Cases)
	}
	if seed, ok := s.Cases[1].Detail["test.seed"]; !ok || seed != float64(2) {
		t.Errorf("play: case detail %v, want the play command's test.seed 2", s.Cases[1].Detail)
	}
}

// copyBot copies the race's bot into dir as name, a file the test may
// change.
func copyBot(t *testing.T, td, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(td, "bot.sh"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tune of a bot of a relayed referee against a cmd: opponent: the best step
// found beats the default one; the study records its game's source (list,
// report), and a changed opponent bot is another study, or a mismatch under
// the old study's name.
func TestRefereeTune(t *testing.T) {
	t.Parallel()
	td := refData(t)
	dir := t.TempDir()
	opp := "cmd:sh '" + copyBot(t, td, dir, "opp.sh") + "' 2"
	db := "sqlite:" + filepath.Join(dir, "t.db")
	args := []string{"tune", "--game", shRace(td), "--strategy", raceBot(td, "{k:int[1,3]=1}"), "--opponents", opp,
		"--cases", "seeds:3", "--sampler", "random", "--seed", "1", "--storage", db, "--no-time-limit", "--quiet", "--json"}
	out, stderr, code := gauntlet(t, dir, append(args, "--trials", "5")...)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	var s struct {
		Study        string         `json:"study"`
		Source       string         `json:"source"`
		BestValue    *float64       `json:"best_value"`
		DefaultValue *float64       `json:"default_value"`
		BestParams   map[string]any `json:"best_params"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("tune --json: %v:\n%s", err, out)
	}
	// Stepping 1 loses every race to the opponent's 2; 3 wins or ties.
	if s.BestValue == nil || s.DefaultValue == nil || *s.BestValue <= *s.DefaultValue || s.BestParams["k"].(float64) < 2 {
		t.Fatalf("best %v (%v), default %v: want a better step than 1\n%s", s.BestValue, s.BestParams, s.DefaultValue, out)
	}
	if s.Source != shRace(td) {
		t.Errorf("source %q, want %q", s.Source, shRace(td))
	}
	out, stderr, code = gauntlet(t, dir, "tune", "--list", "--storage", db)
	if code != 0 || !strings.Contains(out, "race.sh") {
		t.Errorf("tune --list: exit %d, want the game's source:\n%s%s", code, out, stderr)
	}
	if _, stderr, code := gauntlet(t, dir, "report", "--study", s.Study, "--storage", db, "--out", filepath.Join(dir, "rep")); code != 0 {
		t.Errorf("report --study: exit %d: %s", code, stderr)
	}
	// The opponent's files change: the same flags are another study ...
	f, err := os.OpenFile(filepath.Join(dir, "opp.sh"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# rebuilt\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = gauntlet(t, dir, append(args, "--trials", "1", "--no-base-trial")...)
	if code != 0 || !strings.Contains(out, `"study"`) || strings.Contains(out, s.Study) {
		t.Errorf("tune against a changed opponent: exit %d, want a new study (not %s):\n%s%s", code, s.Study, out, stderr)
	}
	// ... and under the old study's name a mismatch.
	_, stderr, code = gauntlet(t, dir, append(args, "--trials", "6", "--study", s.Study)...)
	if code == 0 || !strings.Contains(stderr, "pick another --study name") || !strings.Contains(stderr, "opponent_bots") {
		t.Errorf("the old study against a changed opponent: exit %d: %s", code, stderr)
	}
}

// spsa of a bot of a relayed referee: θ+ plays θ− and the step grows, the
// bigger step winning the races; the study lists with its game's source.
func TestRefereeSPSA(t *testing.T) {
	t.Parallel()
	td := refData(t)
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "s.db")
	out, stderr, code := gauntlet(t, dir, "spsa", "--game", shRace(td), "--strategy", raceBot(td, "{k:int[1,3]=1}"),
		"--games", "20", "--jobs", "1", "--storage", db, "--no-time-limit", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("spsa: exit %d: %s", code, stderr)
	}
	var s struct {
		Source  string `json:"source"`
		Applied int    `json:"applied"`
		Wins    int    `json:"wins"`
		Losses  int    `json:"losses"`
		Params  []struct {
			Name  string  `json:"name"`
			Moved float64 `json:"moved"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("spsa --json: %v:\n%s", err, out)
	}
	if s.Applied != 10 || s.Source != shRace(td) || len(s.Params) != 1 || !(s.Params[0].Moved > 0) {
		t.Fatalf("spsa: %+v, want 10 iterations moving k up\n%s", s, out)
	}
	out, stderr, code = gauntlet(t, dir, "spsa", "--list", "--storage", db)
	if code != 0 || !strings.Contains(out, "race.sh") {
		t.Errorf("spsa --list: exit %d, want the game's source:\n%s%s", code, out, stderr)
	}
}
