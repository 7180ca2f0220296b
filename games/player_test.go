package games

import (
	"context"
	"strings"
	"testing"

	"gauntlet/harness/contract"
)

// A game gets its players ready-made: a built-in bot of another game's bot
// type is refused with an error naming the game and the player, and a game
// whose referee runs built-in bots only refuses an external player before
// any process starts.
func TestPlayersComeReadyMade(t *testing.T) {
	g, err := contract.Default.Game("towers")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := g.Cases("smoke")
	if err != nil {
		t.Fatal(err)
	}
	ext := contract.Player{Name: "cmd:./bot", Command: contract.Command{Argv: []string{"./no-such-bot"}}}
	_, err = g.Play(context.Background(), cases[0], []contract.Player{ext}, contract.PlayOptions{})
	if err == nil || !strings.Contains(err.Error(), "towers: entrant cmd:./bot: external bots are not supported") {
		t.Fatalf("towers with an external player: %v", err)
	}
	brewBot, err := mustEntrant(t, "brew").Player(1, "brewbot")
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Play(context.Background(), cases[0], []contract.Player{brewBot}, contract.PlayOptions{})
	if err == nil || !strings.Contains(err.Error(), "towers: the bot of brewbot is") {
		t.Fatalf("towers with a brew bot: %v", err)
	}
}
