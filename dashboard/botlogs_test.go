package dashboard

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/internal/botlog"
)

// TestBotLogsServed: a stored game's bots' logs are served as plain text,
// turn by turn, their escapes escaped; its replay page links them; a game
// that keeps none is not found.
func TestBotLogsServed(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "logs.db")
	bot, err := filepath.Abs(filepath.Join("..", "referees", "brew", "testdata", "bots", "chatty.sh"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := contract.Default.Game("brew")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := entrant.Parse(contract.Default, "brew", "cmd:"+bot)
	if err != nil {
		t.Fatal(err)
	}
	opp, err := entrant.Parse(contract.Default, "brew", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.EvalPlan(g, "seed:1", ext, []*entrant.Entrant{opp}, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	rn := &runner.Runner{Store: st, Jobs: 1, Options: contract.PlayOptions{NoTimeLimit: true, BotLogs: botlog.All}}
	if _, err := rn.Run(ctx, plan, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, ts := open(t, url)
	id := plan.Run.ID
	resp, err := http.Get(ts.URL + "/logs/" + id + "/seed:1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("content type %q, nosniff %q", ct, resp.Header.Get("X-Content-Type-Options"))
	}
	text := get(t, ts, "/logs/"+id+"/seed:1", 200)
	for _, want := range []string{"=== seat 0: ", "(kept: all; at most 65536 bytes a game)", "--- input 3 ---\nturn 3 thinking\n", `\x1b[2J<b>bold</b>`} {
		if !strings.Contains(text, want) {
			t.Errorf("the logs lack %q:\n%.600s", want, text)
		}
	}
	if strings.Contains(text, "\x1b") {
		t.Error("the logs hold a raw terminal escape")
	}
	if page := get(t, ts, "/replay/"+id+"/seed:1", 200); !strings.Contains(page, `"logs_url":"/logs/`+id+`/seed:1"`) || !strings.Contains(page, "turn 3 thinking") {
		t.Error("the replay page does not show the logs or link them")
	}
	get(t, ts, "/logs/"+id+"/nope", 404)
}
