package dashboard

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/tuning/spsa"
	"gauntlet/workflow"
)

// TestSPSAPageShowsItsHoldout: the page of an SPSA study shows the A/B
// that spsa --holdout stored beside it (the final values against the start
// on seeds the study never played), with its figures and a link to its
// run.
func TestSPSAPageShowsItsHoldout(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "spsa.db")
	target, start, err := spsa.ResolveTarget(contract.Default, "brew", "brewbeam", nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spsa.New(contract.Default, spsa.Config{Game: "brew", Target: target,
		Start: append(start, "nodes=1000", "opp_nodes=500"), Space: []string{"w_brew", "w_order"}, Games: 8, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	st, err := spsa.OpenStorage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.Run(ctx, st, spsa.RunOptions{Study: "bb", Jobs: 2, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	_, ts := open(t, url)
	if held := parts(t, ts, "/parts/spsa/bb")["holdout"]; strings.Contains(held, "<table") {
		t.Errorf("a study without a hold-out shows one:\n%s", held)
	}

	opt := workflow.NewOptions()
	opt.Storage, opt.Jobs, opt.Quiet = url, 2, true
	res, err := workflow.SPSAHoldout(ctx, opt, sum, "seeds:101-103", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	h := res.Summary
	if h.Run != spsa.HoldoutRun("bb", "seeds:101-103") || sum.Holdout != h {
		t.Fatalf("the hold-out ran as %q (summary kept: %v)", h.Run, sum.Holdout == h)
	}
	held := parts(t, ts, "/parts/spsa/bb")["holdout"]
	for _, want := range []string{
		"<td>seeds:101-103</td>", fmt.Sprintf(`<td class="num">%d</td>`, h.Games),
		fmt.Sprintf(`data-score="%v">+%d =%d −%d, score %.3f, Elo %.1f`, h.Score, h.Wins, h.Draws, h.Losses, h.Score, h.Elo),
		"<td>" + h.SPRT, `href="/run/` + pathEscape(h.Run) + `"`,
	} {
		if !strings.Contains(held, want) {
			t.Errorf("the hold-out part lacks %q:\n%s", want, held)
		}
	}
	get(t, ts, "/run/"+pathEscape(h.Run), 200)
}
