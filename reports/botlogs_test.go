package reports_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	_ "gauntlet/games" // registers brew
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/internal/botlog"
	"gauntlet/reports"
	"gauntlet/workflow"
)

// chattyBot is a brew bot that writes to stderr every turn ("turn N
// thinking", hostile text in turn 1, [PDATA] lines) and waits; with crash
// > 0 it crashes in that turn.
func chattyBot(t *testing.T, crash int) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "referees", "brew", "testdata", "bots", "chatty.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("cmd:%s %d", p, crash)
}

// noRaw fails when text holds a raw escape or unescaped markup of the
// chatty bot's.
func noRaw(t *testing.T, where, text string) {
	t.Helper()
	if strings.ContainsAny(text, "\x1b\x07") {
		t.Errorf("%s holds a raw terminal escape", where)
	}
}

func brewOptions(storage string, policy botlog.Policy) workflow.Options {
	o := workflow.NewOptions()
	o.Game, o.Storage, o.Quiet, o.NoTimeLimit, o.Jobs, o.JobsSet, o.BotLogs = "brew", storage, true, true, 1, true, policy
	return o
}

// TestPlayShowsBotLogs: play prints each external bot's stderr after the
// game, input by input and escaped, and its PDATA values; with
// --bot-logs none it captures nothing.
func TestPlayShowsBotLogs(t *testing.T) {
	ctx := context.Background()
	res, err := workflow.Play(ctx, workflow.PlayRequest{Options: brewOptions("none", botlog.Errors), Case: "seed:1", Lineup: "greedy," + chattyBot(t, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := reports.WritePlay(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"stderr of seat 1 (cmd:", "--- input 1 ---\n", "turn 1 thinking\n", `\x1b[2J<b>bold</b>`, "--- input 7 ---\nturn 7 thinking\n", "pdata.s1.version: 3\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("play output lacks %q:\n%s", want, out)
		}
	}
	noRaw(t, "play output", out)
	if len(res.Logs) != 1 || res.Logs[0].Seat != 1 {
		t.Fatalf("logs %+v, want seat 1's", res.Logs)
	}

	res, err = workflow.Play(ctx, workflow.PlayRequest{Options: brewOptions("none", botlog.None), Case: "seed:1", Lineup: "greedy," + chattyBot(t, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Logs) != 0 || res.Outcome.Detail["pdata.s1.version"] != nil {
		t.Errorf("--bot-logs none: logs %v, detail %v", res.Logs, res.Outcome.Detail)
	}
}

// TestStoredBotLogs: an eval with --bot-logs all stores every game's log
// of the external seat, turn by turn; its PDATA values are the games'
// pdata.KEY details and eval's per-case columns; the viewer's page shows
// the lines by frame, escaped.
func TestStoredBotLogs(t *testing.T) {
	ctx := context.Background()
	storage := "sqlite:" + filepath.Join(t.TempDir(), "g.db")
	req := workflow.EvalRequest{Options: brewOptions(storage, botlog.All), Cases: "seeds:2", Lineup: "greedy", NoOptimum: true}
	req.Entrant.Strategy = chattyBot(t, 0)
	res, err := workflow.Eval(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenReadOnly(ctx, storage)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run := res.Plan.Run.ID
	for _, m := range res.Plan.Matches {
		logs, err := st.BotLogs(ctx, run, m.Key)
		if err != nil {
			t.Fatal(err)
		}
		if len(logs) != 1 || logs[0].Seat != 0 || logs[0].Why != store.KeptAll {
			t.Fatalf("game %s: logs %+v, want seat 0's, kept for all", m.Key, logs)
		}
		turns := logs[0].Record.Turns
		if len(turns) < 10 {
			t.Fatalf("game %s: %d turns", m.Key, len(turns))
		}
		for k := 2; k < len(turns); k++ {
			if want := []string{fmt.Sprintf("turn %d thinking", k), fmt.Sprintf("[PDATA] turns = %d", k)}; strings.Join(turns[k], "|") != strings.Join(want, "|") {
				t.Errorf("game %s turn %d: %q, want %q", m.Key, k, turns[k], want)
			}
		}
		noRaw(t, "a stored log", strings.Join(turns[1], "\n"))
	}
	games, err := st.Games(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	for key, g := range games {
		if g.Outcome.Detail["pdata.version"] != 3.0 || g.Outcome.Detail["pdata.turns"] != float64(g.Outcome.Turns) {
			t.Errorf("game %s (%d turns): detail %v, want pdata.version 3 and pdata.turns", key, g.Outcome.Turns, g.Outcome.Detail)
		}
	}
	table := reports.EvalCaseTable(res.Game, res.Summary, false)
	if !strings.Contains(strings.Join(table.Header, " "), "pdata.turns pdata.version") {
		t.Errorf("eval's case table has no pdata columns: %q", table.Header)
	}

	key := res.Plan.Matches[0].Key
	r, v, err := results.WatchStored(ctx, st, contract.Default, run, key)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Logs) != 1 || r.Logs[0].Frames == nil || r.Logs[0].Frames[3] != 2 || r.Logs[0].Turns[3][0] != "turn 3 thinking" {
		t.Fatalf("replay logs %+v", r.Logs)
	}
	var page bytes.Buffer
	if err := reports.WriteReplay(&page, r, v.Renderer()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `"turn 3 thinking"`) || !strings.Contains(page.String(), `id="logs"`) || strings.Contains(page.String(), "<b>bold") {
		t.Error("the viewer page lacks the bot's lines, or holds its markup raw")
	}
	noRaw(t, "the viewer page", page.String())
}

// TestBotLogPolicies: --bot-logs none stores no log; errors keeps a game
// with a forfeit as such, and the others as the run's latest games.
func TestBotLogPolicies(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		policy botlog.Policy
		crash  int
		why    string // "": no log
	}{{botlog.None, 3, ""}, {botlog.Errors, 3, store.KeptForfeit}, {botlog.Errors, 0, store.KeptRecent}} {
		storage := "sqlite:" + filepath.Join(t.TempDir(), "g.db")
		req := workflow.EvalRequest{Options: brewOptions(storage, c.policy), Cases: "seeds:2", Lineup: "greedy", NoOptimum: true}
		req.Entrant.Strategy = chattyBot(t, c.crash)
		res, err := workflow.Eval(ctx, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.OpenReadOnly(ctx, storage)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Plan.Matches {
			logs, err := st.BotLogs(ctx, res.Plan.Run.ID, m.Key)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.why == "" && len(logs) != 0:
				t.Errorf("%v: game %s keeps logs %+v", c.policy, m.Key, logs)
			case c.why != "" && (len(logs) != 1 || logs[0].Why != c.why):
				t.Errorf("%v, crash %d: game %s keeps %+v, want one kept as %s", c.policy, c.crash, m.Key, logs, c.why)
			case c.crash > 0 && c.why != "" && !strings.Contains(logs[0].Record.Text(), "dying in turn 3"):
				t.Errorf("the crash's log lacks its last line: %s", logs[0].Record.Text())
			}
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestViewShowsBotLogs: view of a game played anew puts the external
// bot's stderr in the replay, turn by turn with the frames.
func TestViewShowsBotLogs(t *testing.T) {
	req := workflow.ViewRequest{Options: brewOptions("none", botlog.Errors), Case: "seed:1", Lineup: "greedy"}
	req.Entrant.Strategy = chattyBot(t, 0)
	r, _, err := workflow.View(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Logs) != 1 || r.Logs[0].Seat != 0 || len(r.Logs[0].Turns) < 5 || r.Logs[0].Turns[4][0] != "turn 4 thinking" || r.Logs[0].Frames[4] != 3 {
		t.Fatalf("replay logs %+v", r.Logs)
	}
}
