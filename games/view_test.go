package games

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/reports"
)

type viewCase struct {
	game, cases, strategy, opponents string
	maxBytes                         int
}

// viewCases are the games the viewer is checked on: one case each, with
// the entrants a person would watch.
var viewCases = []viewCase{
	{"hextris", "p1/s0", "hexgreedy", "", 3 << 20},
	{"brew", "seed:3", "brewbeam", "greedy", 1 << 20},
	{"paperio", "seed:2", "paperpaths", "simple*5", 2 << 20},
	{"paperio-finals", "seed:2", "simple", "simple*5", 3 << 20}, // the same viewer over 2,500 ticks
	{"towers", "case:sarov/1", "towersbest", "", 1 << 20},
}

// views returns viewCases, in a -short run with six simple bots in the
// Paper.io game: paperpaths thinks about 0.4 s a game, ten times that
// under the race detector, and each test plays its game twice; the simple
// bots play the game's 1,499 ticks in milliseconds through the same viewer.
func views() []viewCase {
	vcs := slices.Clone(viewCases)
	if testing.Short() {
		for i := range vcs {
			if vcs[i].game == "paperio" {
				vcs[i].strategy = "simple"
			}
		}
	}
	return vcs
}

// watch plays one case with its moves recorded and returns the replay and
// the outcome of the same case played without recording.
func watch(t *testing.T, game, cases, strategy, opponents string) (contract.Viewer, *contract.Replay, contract.Outcome) {
	t.Helper()
	reg := contract.Default
	g, err := reg.Game(game)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := g.(contract.Viewer)
	if !ok {
		t.Fatalf("%s has no viewer", game)
	}
	ent, err := entrant.Parse(reg, game, strategy)
	if err != nil {
		t.Fatal(err)
	}
	var opps []*entrant.Entrant
	if opponents != "" {
		if opps, err = entrant.ParseLineup(reg, game, opponents); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := runner.EvalPlan(g, cases, ent, opps, "")
	if err != nil {
		t.Fatal(err)
	}
	m := &plan.Matches[0]
	plain, _, err := runner.PlayMatch(context.Background(), plan, m, contract.PlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runner.PlayMatch(context.Background(), plan, m, contract.PlayOptions{RecordMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Moves) == 0 {
		t.Fatal("RecordMoves: no moves in the outcome")
	}
	if len(plain.Moves) != 0 {
		t.Fatal("moves recorded without RecordMoves")
	}
	labels := make([]string, len(m.Seats))
	for i, e := range m.Seats {
		labels[i] = plan.Entrants[e].Label()
	}
	r, err := v.Watch(m.Case, out, labels)
	if err != nil {
		t.Fatal(err)
	}
	return v, r, plain
}

// TestWatchReplaysTheGame checks, for every game with a viewer, that
// recording the moves does not change the game and that the frames rebuilt
// from them end with the scores the game was given (Watch fails otherwise).
func TestWatchReplaysTheGame(t *testing.T) {
	for _, vc := range views() {
		t.Run(vc.game, func(t *testing.T) {
			_, r, plain := watch(t, vc.game, vc.cases, vc.strategy, vc.opponents)
			for i, s := range plain.Seats {
				if r.Scores[i] != s.Score {
					t.Errorf("seat %d: replay %v, game played without recording %v", i, r.Scores[i], s.Score)
				}
			}
			if r.Count < 2 {
				t.Errorf("%d frames", r.Count)
			}
		})
	}
	seen := map[string]bool{}
	for _, vc := range views() {
		seen[vc.game] = true
	}
	for _, g := range contract.Default.Games() {
		if _, ok := g.(contract.Viewer); ok && !seen[g.Info().Name] {
			t.Errorf("game %s has a viewer but no case in viewCases", g.Info().Name)
		}
	}
}

// TestWatchRejectsForeignMoves gives a viewer moves that do not reproduce
// the game: it must refuse them rather than draw another game.
func TestWatchRejectsForeignMoves(t *testing.T) {
	v, _, plain := watch(t, "brew", "seed:3", "greedy", "random")
	g, other := mustGame(t, "brew"), mustEntrant(t, "brew", "random")
	cs, err := g.Cases("seed:3")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.EvalPlan(g, "seed:3", other, []*entrant.Entrant{other}, "")
	if err != nil {
		t.Fatal(err)
	}
	foreign, _, err := runner.PlayMatch(context.Background(), plan, &plan.Matches[0], contract.PlayOptions{RecordMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	plain.Moves = foreign.Moves
	if _, err := v.Watch(cs[0], plain, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "replay to score") {
		t.Fatalf("foreign moves: %v", err)
	}
}

var scoreValueRE = regexp.MustCompile(`<span class="value">([^<]*)</span>`)

// TestViewerInChromium opens each game's viewer page in headless Chromium:
// at #frame=last the element with id "score" shows every seat's final
// score as the referee computed it, and keys step the frames (the -short
// form presses keys on the first game's page only: the key handling is
// the viewer's own, the same for every game, and each page load is a
// Chromium start of a second or two).
func TestViewerInChromium(t *testing.T) {
	browser := reports.FindChromium()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium (set GAUNTLET_TEST_CHROMIUM): the viewer test cannot run")
		}
		t.Skip("no Chromium found (set GAUNTLET_TEST_CHROMIUM)")
	}
	for n, vc := range views() {
		t.Run(vc.game, func(t *testing.T) {
			v, r, plain := watch(t, vc.game, vc.cases, vc.strategy, vc.opponents)
			page := filepath.Join(t.TempDir(), vc.game+".html")
			if err := reports.WriteReplayFile(page, r, v.Renderer()); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(page); err != nil || st.Size() > int64(vc.maxBytes) {
				t.Fatalf("page: %v, %d bytes (at most %d)", err, st.Size(), vc.maxBytes)
			}
			dom, err := reports.DumpDOM(context.Background(), browser, page, "frame=last")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(dom, `data-viewer-ready="1"`) {
				t.Fatalf("the page did not finish loading:\n%s", dom[:min(len(dom), 2000)])
			}
			i := strings.Index(dom, `id="score"`)
			if i < 0 {
				t.Fatal(`no element with id="score"`)
			}
			got := scoreValueRE.FindAllStringSubmatch(dom[i:], -1)
			if len(got) < len(plain.Seats) {
				t.Fatalf("score shows %d values for %d seats", len(got), len(plain.Seats))
			}
			for seat, s := range plain.Seats {
				if got[seat][1] != reports.Num(s.Score) {
					t.Errorf("seat %d: page shows %q, the game scored %s", seat, got[seat][1], reports.Num(s.Score))
				}
			}
			if !strings.Contains(dom, `data-frame="`+strconv.Itoa(r.Count-1)+`"`) {
				t.Errorf("#frame=last did not show frame %d", r.Count-1)
			}
			if n > 0 && testing.Short() {
				return
			}
			for _, k := range []struct {
				fragment string
				frame    int
			}{
				{"frame=last&press=ArrowLeft,ArrowLeft", r.Count - 3},
				{"frame=1&press=ArrowRight,End,Home,ArrowRight", 1},
			} {
				dom, err := reports.DumpDOM(context.Background(), browser, page, k.fragment)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(dom, `data-pressed="1"`) || !strings.Contains(dom, `data-frame="`+strconv.Itoa(k.frame)+`"`) {
					m := regexp.MustCompile(`data-frame="\d+"`).FindString(dom)
					t.Errorf("#%s: want frame %d, page shows %s", k.fragment, k.frame, m)
				}
			}
		})
	}
}

// TestWatchChecksCaseDataThroughTheAdapter: a viewer that reads its case's
// data and is handed another game's case says so as every typed value of
// the game does, through its adapter: naming the game, the case and both
// types.
func TestWatchChecksCaseDataThroughTheAdapter(t *testing.T) {
	for _, name := range []string{"hextris", "towers"} {
		g, err := contract.Default.Game(name)
		if err != nil {
			t.Fatal(err)
		}
		c := contract.Case{ID: "seed:1", Data: struct{}{}}
		_, err = g.(contract.Viewer).Watch(c, contract.Outcome{Moves: []byte(`"x"`)}, []string{"a"})
		if err == nil || !strings.Contains(err.Error(), name+`: case "seed:1" holds struct {}, not `) {
			t.Errorf("%s: Watch of a foreign case: %v; want the adapter's error", name, err)
		}
	}
}
