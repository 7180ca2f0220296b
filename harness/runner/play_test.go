package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/internal/botlimit"
)

// TestGameCap: the default cap covers every bot spending all its time
// twice over, and at least DefaultGameCap, also without time limits (from
// the game's own); --game-timeout replaces it.
func TestGameCap(t *testing.T) {
	paper := contract.TimeLimits{Turn: 5 * time.Second, Total: 120 * time.Second, Margin: time.Second}
	brew := contract.TimeLimits{Turn: 50 * time.Millisecond, FirstTurn: time.Second, Margin: 10 * time.Millisecond, FirstTurnMargin: 250 * time.Millisecond, Answers: 100}
	for _, c := range []struct {
		l        contract.TimeLimits
		o        contract.PlayOptions
		external int
		want     time.Duration
	}{
		{paper, contract.PlayOptions{}, 1, contract.DefaultGameCap},
		{paper, contract.PlayOptions{}, 6, 2 * 6 * 121 * time.Second},
		{paper, contract.PlayOptions{NoTimeLimit: true}, 6, 2 * 6 * 121 * time.Second},
		{brew, contract.PlayOptions{TurnTime: 10 * time.Second}, 2, 2 * 2 * (1250*time.Millisecond + 99*(10*time.Second+10*time.Millisecond))},
		{brew, contract.PlayOptions{GameTimeout: 3 * time.Second}, 2, 3 * time.Second},
		{contract.TimeLimits{}, contract.PlayOptions{}, 1, contract.DefaultGameCap},
	} {
		if got := c.o.GameCap(c.l, c.external); got != c.want {
			t.Errorf("GameCap(%v, %+v, %d) = %v, want %v", c.l, c.o, c.external, got, c.want)
		}
	}
	for _, o := range []contract.PlayOptions{{GameTimeout: -time.Second}, {GameTimeout: time.Microsecond}, {GameTimeout: 8 * 24 * time.Hour}} {
		if err := paper.Check(o); err == nil || !strings.HasPrefix(err.Error(), "--game-timeout ") {
			t.Errorf("Check(%v): %v, want an error naming --game-timeout", o.GameTimeout, err)
		}
	}
}

// TestBotContext: a game's context carries its cap, the caps on the bots'
// processes and, on a shared machine timed by the wall clock, how it is
// shared; it ends a grace period after the cap.
func TestBotContext(t *testing.T) {
	o := contract.PlayOptions{GameTimeout: time.Hour, BotMemory: 1 << 30, BotProcs: 8, Concurrent: 1 << 20}
	ctx, cancel := botContext(context.Background(), contract.TimeLimits{Turn: time.Second}, o, 1, 2)
	defer cancel()
	l := botlimit.From(ctx)
	if l.Cap != time.Hour || l.Memory != 1<<30 || l.Procs != 8 || l.CPU || !strings.HasSuffix(l.Shared, " cores") {
		t.Fatalf("limits %+v", l)
	}
	if d, ok := ctx.Deadline(); !ok || d.Sub(l.Deadline) != capGrace {
		t.Fatalf("deadline %v, cap at %v", d, l.Deadline)
	}
	o.CPUClock = true
	ctx, cancel = botContext(context.Background(), contract.TimeLimits{Turn: time.Second}, o, 1, 2)
	defer cancel()
	if l := botlimit.From(ctx); !l.CPU || l.Shared != "" {
		t.Fatalf("CPU clock: limits %+v, want no sharing note", l)
	}
	if got := contract.SharedNote(2, 2, 2); got != "2 games of 2 players on 2 cores" {
		t.Errorf("SharedNote(2, 2, 2) = %q", got)
	}
	if got := contract.SharedNote(1, 2, 2); got != "" {
		t.Errorf("SharedNote(1, 2, 2) = %q, want none: each player has a core", got)
	}
}
