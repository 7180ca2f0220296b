package main

import (
	"encoding/json"
	"strings"
	"testing"

	"gauntlet/reports"
)

// list shows each game's time limits on external bots as the game declares
// them (the --turn-time help points there), and its header names the
// players once.
func TestListShowsTimeLimits(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := gauntlet(t, dir, "list", "--game", "brew")
	if code != 0 {
		t.Fatalf("list --game brew: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"game brew — CodinGame Fall Challenge 2020: Witches' Brew (2 players, final-league rules)\n  2 players; scores: higher is better\n",
		"time limits for external bots: 50 ms a later answer + 30 ms margin, 1,000 ms the first answer + 750 ms margin",
		"--first-turn-time sets the first answer's",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list --game brew lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "2 players") != 2 {
		t.Errorf("list --game brew repeats the players in its header:\n%s", out)
	}
	out, _, code = gauntlet(t, dir, "list", "--game", "paperio")
	if code != 0 || !strings.Contains(out, "5,000 ms an answer + 1,000 ms margin, 120,000 ms all answers of a game") ||
		!strings.Contains(out, "--first-turn-time does not apply: Paper.io's runner had no first-turn limit") {
		t.Errorf("list --game paperio:\n%s", out)
	}
	js, _, code := gauntlet(t, dir, "list", "--game", "brew", "--json")
	var games []reports.GameListing
	if code != 0 || json.Unmarshal([]byte(js), &games) != nil || len(games) != 1 {
		t.Fatalf("list --json: exit %d\n%s", code, js)
	}
	if l := games[0].TimeLimits; l.TurnMS != 50 || l.FirstTurnMS != 1000 || l.MarginMS != 30 || l.Measured == "" {
		t.Errorf("list --json brew time limits %+v", l)
	}
	_, help, _ := gauntlet(t, dir, "eval", "--help")
	if !strings.Contains(help, "'gauntlet list --game G' shows each game's limits") {
		t.Errorf("--turn-time help does not point at list's limits:\n%s", help)
	}
}
