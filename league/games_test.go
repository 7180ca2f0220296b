package league_test

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/league"
)

// waitBot is a brew bot in sh that answers WAIT every turn.
const waitBot = `#!/bin/sh
while read -r n; do
	i=0
	while [ "$i" -lt $((n + 2)) ]; do read -r l; i=$((i + 1)); done
	echo WAIT
done
`

// unitsOf reads league name's stored games: the version IDs of each unit.
func unitsOf(t *testing.T, st *league.Store, name string) map[int64][]league.Game {
	t.Helper()
	out := map[int64][]league.Game{}
	if _, err := st.GamesSince(context.Background(), name, 0, func(_ league.Block, games []league.Game) error {
		for _, g := range games {
			out[g.Unit] = append(out[g.Unit], g)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestChangedBotIsANewVersion: a cmd: bot whose script changes between two
// runs of a league becomes version "wait#2"; the first version is retired
// with its games, and no unit mixes the two.
func TestChangedBotIsANewVersion(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	script := filepath.Join(t.TempDir(), "wait.sh")
	if err := os.WriteFile(script, []byte(waitBot), 0o755); err != nil {
		t.Fatal(err)
	}
	d := league.Def{Name: "bots", Game: "brew", Cases: "seeds:1000", Size: 2}
	addAll(t, st, d, map[string]string{"wait": "cmd:" + script, "random": "random"})
	if _, err := league.Run(ctx, st, league.Config{League: "bots", Jobs: 2, Target: league.Target{Total: 8}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(waitBot+"# changed\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := league.Run(ctx, st, league.Config{League: "bots", Jobs: 2, Target: league.Target{Total: 16}}); err != nil {
		t.Fatal(err)
	}
	vs, err := st.Versions(ctx, "bots")
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]league.Version{}
	for _, v := range vs {
		byTitle[v.Title()] = v
	}
	v1, v2 := byTitle["wait"], byTitle["wait#2"]
	if len(vs) != 3 || v2.ID != 3 || v1.Active || !v2.Active || v1.Fingerprint == v2.Fingerprint || v2.Key != v1.Key {
		t.Fatalf("versions %+v: want wait retired and wait#2 of the same command with the new files", vs)
	}
	old, renewed := 0, 0
	for u, games := range unitsOf(t, st, "bots") {
		ids := map[int]bool{}
		for _, g := range games {
			for _, v := range g.Versions {
				ids[v] = true
			}
		}
		if ids[v1.ID] && ids[v2.ID] {
			t.Errorf("unit %d mixes wait and wait#2", u)
		}
		if ids[v1.ID] {
			old += len(games)
		}
		if ids[v2.ID] {
			renewed += len(games)
		}
	}
	if old != 8 || renewed != 8 {
		t.Errorf("wait played %d games, wait#2 %d: want 8 each", old, renewed)
	}
	b, err := league.Load(ctx, st, "bots", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range b.Rows {
		if (r.Version == "wait" || r.Version == "wait#2") && r.Games != 8 {
			t.Errorf("the board gives %s %d games, want 8", r.Version, r.Games)
		}
	}
}

// TestBotRebuiltMidBlock: a cmd: bot whose script changes while a block
// plays (here it rewrites itself on its first turn) has none of that
// block's games stored as its old version: the units are dropped, and the
// new files, a new version at once, play them again.
func TestBotRebuiltMidBlock(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	script := filepath.Join(t.TempDir(), "self.sh")
	// The append is retried: opening the script for writing fails (text
	// file busy) while another game's bot is being started from it.
	rewrite := "if [ ! -e \"$0.done\" ]; then : >\"$0.done\"; until echo '# rebuilt' 2>/dev/null >>\"$0\"; do sleep 0.01; done; fi\n"
	body := strings.Replace(waitBot, "\n", "\n"+rewrite, 1) // after the #! line
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	d := league.Def{Name: "bots", Game: "brew", Cases: "seeds:1000", Size: 2}
	addAll(t, st, d, map[string]string{"self": "cmd:" + script, "random": "random"})
	if _, err := league.Run(ctx, st, league.Config{League: "bots", Jobs: 2, Target: league.Target{Total: 8}}); err != nil {
		t.Fatal(err)
	}
	vs, err := st.Versions(ctx, "bots")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, v := range vs {
		ids[v.Title()] = v.ID
	}
	if len(vs) != 3 || ids["self#2"] == 0 {
		t.Fatalf("versions %+v: want self retired and self#2 with the rewritten script", vs)
	}
	games := map[int]int{}
	for _, unit := range unitsOf(t, st, "bots") {
		for _, g := range unit {
			for _, v := range g.Versions {
				games[v]++
			}
		}
	}
	if games[ids["self"]] != 0 || games[ids["self#2"]] != 8 {
		t.Errorf("self played %d stored games, self#2 %d: want 0 and 8 (the games of the block that changed it dropped)", games[ids["self"]], games[ids["self#2"]])
	}
}

// TestSinglePlayerLeaguePlacesByScore: in a towers league (one player, the
// fewest moves best) each case is played by both versions alone, and the
// pair's wins, draws and losses are the cases each solved in fewer moves.
func TestSinglePlayerLeaguePlacesByScore(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	d := league.Def{Name: "towers", Game: "towers", Cases: "african:20", Size: 2}
	addAll(t, st, d, map[string]string{"best": "towersbest", "greedy": "towersgreedy"})
	if _, err := league.Run(ctx, st, league.Config{League: "towers", Jobs: 2, Target: league.Target{GamesPerVersion: 20}}); err != nil {
		t.Fatal(err)
	}
	var w, dr, l int // version 1 (best) against version 2, by moves
	for u, games := range unitsOf(t, st, "towers") {
		if len(games) != 2 || len(games[0].Versions) != 1 || games[0].Versions[0] == games[1].Versions[0] || games[0].Case != games[1].Case {
			t.Fatalf("unit %d: %+v, want one case played by each version alone", u, games)
		}
		a, c := games[0].Seats[0].Score, games[1].Seats[0].Score
		if games[0].Versions[0] != 1 {
			a, c = c, a
		}
		switch {
		case a < c:
			w++
		case a > c:
			l++
		default:
			dr++
		}
	}
	b, err := league.Load(ctx, st, "towers", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ladder(b); len(got) != 2 || got[0] != "best" {
		t.Fatalf("ladder %v, want best first", got)
	}
	if len(b.Pairs) != 1 {
		t.Fatalf("%d pairs", len(b.Pairs))
	}
	p := b.Pairs[0]
	if p.A != "best" || p.Wins != w || p.Draws != dr || p.Losses != l || w == 0 {
		t.Errorf("pair %s–%s +%d =%d -%d; by the stored moves best +%d =%d -%d", p.A, p.B, p.Wins, p.Draws, p.Losses, w, dr, l)
	}
	if best, greedy := b.Rows[0], b.Rows[1]; *best.MeanScore >= *greedy.MeanScore || best.Firsts < greedy.Firsts {
		t.Errorf("best: mean moves %v, firsts %d; greedy: %v, %d", *best.MeanScore, best.Firsts, *greedy.MeanScore, greedy.Firsts)
	}
}

// relayDir is the relay package's test referees and bots.
func relayDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not found")
	}
	dir, err := filepath.Abs("../referees/relay/testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRefereeLeague: a league of a referee game (the relay's race) orders
// a bot stepping 3 a turn above one stepping 1; the games of a seed whose
// referee crashes are not stored, and the board says so; the first bot's
// [PDATA] stderr lines are its metadata columns (the mean per game of a
// number, the last text).
func TestRefereeLeague(t *testing.T) {
	dir := relayDir(t)
	t.Setenv("REFEREE_CRASH_SEEDS", "3")
	st, _ := openStore(t)
	ctx := context.Background()
	game := "referee:sh " + filepath.Join(dir, "race.sh")
	d := league.Def{Name: "race", Game: game, Cases: "seeds:10", Size: 2}
	bot := "cmd:sh " + filepath.Join(dir, "bot.sh")
	addAll(t, st, d, map[string]string{"fast": bot + " 3 --pdata", "slow": bot + " 1"})
	out, err := league.Run(ctx, st, league.Config{League: "race", Jobs: 2, Target: league.Target{Total: 24}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := league.Load(ctx, st, "race", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ladder(b); len(got) != 2 || got[0] != "fast" {
		t.Fatalf("ladder %v, want fast first", got)
	}
	if b.Games != 24 || out.Dropped == 0 {
		t.Errorf("the league holds %d games (want 24); %d units dropped (want the seed 3 ones)", b.Games, out.Dropped)
	}
	for u, games := range unitsOf(t, st, "race") {
		for _, g := range games {
			if g.Case == "seed:3" {
				t.Errorf("unit %d: a game of seed 3 is stored", u)
			}
		}
	}
	fast := b.Rows[0]
	if strings.Join(b.Data, ",") != "mode,steps,turns" || fast.DataText["mode"] != "step3" ||
		fast.Data["turns"] < 1 || math.Abs(fast.Data["steps"]-3*fast.Data["turns"]) > 1e-9 || len(b.Rows[1].Data) != 0 {
		t.Errorf("metadata columns %v: fast %v %v, slow %v: want mode step3 and steps = 3 × turns for fast alone", b.Data, fast.Data, fast.DataText, b.Rows[1].Data)
	}
	if b.RefereeErrors != out.RefereeErrors || b.RefereeErrors < 2 || b.FirstRefereeError.Case != "seed:3" ||
		!strings.Contains(strings.Join(b.Notes, "\n"), "no game for seed 3") {
		t.Errorf("the board has %d referee errors (the run saw %d), notes %q: want the seed 3 failures with the referee's stderr",
			b.RefereeErrors, out.RefereeErrors, b.Notes)
	}
}
