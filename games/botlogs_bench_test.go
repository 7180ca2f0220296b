package games

import (
	"context"
	"path/filepath"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/internal/botlog"
)

// BenchmarkChattyBot plays one brew game (68 rounds) of an external bot
// that writes to stderr every turn against greedy, with its stderr
// captured by each --bot-logs policy: none reads it as before (the last
// few KiB kept for a crash's message), errors and all keep it by turn
// (all of a game's logs are kept alike; storing them is the collector's).
func BenchmarkChattyBot(b *testing.B) {
	bot, err := filepath.Abs(filepath.Join("..", "referees", "brew", "testdata", "bots", "chatty.sh"))
	if err != nil {
		b.Fatal(err)
	}
	g, err := contract.Default.Game("brew")
	if err != nil {
		b.Fatal(err)
	}
	ext, err := entrant.Parse(contract.Default, "brew", "cmd:"+bot)
	if err != nil {
		b.Fatal(err)
	}
	opp, err := entrant.Parse(contract.Default, "brew", "greedy")
	if err != nil {
		b.Fatal(err)
	}
	plan, err := runner.EvalPlan(g, "seed:1", ext, []*entrant.Entrant{opp}, "")
	if err != nil {
		b.Fatal(err)
	}
	for _, policy := range []botlog.Policy{botlog.None, botlog.Errors} {
		b.Run(policy.String(), func(b *testing.B) {
			opt := contract.PlayOptions{NoTimeLimit: true, BotLogs: policy}
			b.ReportAllocs()
			for b.Loop() {
				out, _, err := runner.PlayMatch(context.Background(), plan, &plan.Matches[0], opt)
				if err != nil {
					b.Fatal(err)
				}
				if out.Turns < 50 || (policy != botlog.None) != (out.Logs != nil) {
					b.Fatalf("%d turns, logs %v", out.Turns, out.Logs != nil)
				}
			}
		})
	}
}
