package hextris

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOfficialFinalBoard: the board parsed from quality.md has the judged
// problems of the final round (8-10, 12-16, 18, 20, 24-26, 28-32; 27 was
// not judged), the four variants, one cell per (problem, variant) whose
// score is the one written on that problem's row, and the published
// ranking with Unagi first.
func TestOfficialFinalBoard(t *testing.T) {
	b, err := OfficialFinalBoard()
	if err != nil {
		t.Fatal(err)
	}
	want := []int{8, 9, 10, 12, 13, 14, 15, 16, 18, 20, 24, 25, 26, 28, 29, 30, 31, 32}
	if !slices.Equal(b.Problems, want) {
		t.Errorf("problems %v, want %v", b.Problems, want)
	}
	var names []string
	for _, v := range FinalVariants {
		names = append(names, v.Name)
		if _, err := OfficialPhrases(v.Phrases); err != nil {
			t.Errorf("variant %s: %v", v.Name, err)
		}
	}
	if !slices.Equal(b.Variants, names) {
		t.Errorf("variants %v, want %v", b.Variants, names)
	}
	if b.Has(27) || b.Has(0) || !b.Has(8) || !b.Has(32) {
		t.Errorf("Has: 27 %v, 0 %v, 8 %v, 32 %v", b.Has(27), b.Has(0), b.Has(8), b.Has(32))
	}
	data, err := os.ReadFile(filepath.Join(confDir, "quality.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, final, _ := strings.Cut(string(data), "## Final round")
	rows := map[int]string{}
	for _, line := range strings.Split(final, "\n") {
		var id int
		if _, err := fmt.Sscanf(line, "| %d |", &id); err == nil {
			rows[id] = line
		}
	}
	agree, total := 0, 0
	for _, id := range b.Problems {
		for _, v := range b.Variants {
			total++
			c, ok := b.Best(id, v)
			if ok && len(c.Teams) > 0 && strings.Contains(rows[id], fmt.Sprintf("| %d (%s", c.Score, c.Teams[0])) {
				agree++
			} else {
				t.Errorf("problem %d %s: %+v (%v) not on the row %q", id, v, c, ok, rows[id])
			}
		}
	}
	t.Logf("%d/%d cells agree with quality.md", agree, total)
	if total != len(want)*len(FinalVariants) {
		t.Errorf("%d cells, want %d", total, len(want)*len(FinalVariants))
	}
	if len(b.Ranking) < 2 || b.Ranking[0].Name != "Unagi" || !slices.IsSortedFunc(b.Ranking, func(x, y FinalTeam) int { return y.Points - x.Points }) {
		t.Errorf("ranking %+v: want Unagi first, by points", b.Ranking)
	}
	if c, _ := b.Best(10, "nopower"); !slices.Equal(c.Teams, []string{"Unagi", "Gachi"}) {
		t.Errorf("problem 10 nopower teams %q, want both of the tie", c.Teams)
	}
}

// TestFinalPoints: round(100·(ours/best)²) agrees with the same rounding
// done in integers (halves up), is 100 at the best and above it past the
// best (not capped).
func TestFinalPoints(t *testing.T) {
	for _, best := range []int64{1, 2, 3, 7, 40, 361, 19887} {
		for ours := int64(0); ours <= 3*best; ours += max(1, best/97) {
			want := (200*ours*ours + best*best) / (2 * best * best)
			if got := FinalPoints(ours, best); got != want {
				t.Fatalf("FinalPoints(%d, %d) = %d, want %d", ours, best, got, want)
			}
		}
		if FinalPoints(best, best) != 100 || FinalPoints(2*best, best) != 400 || FinalPoints(0, best) != 0 {
			t.Errorf("best %d: at best %d, twice %d, zero %d", best, FinalPoints(best, best), FinalPoints(2*best, best), FinalPoints(0, best))
		}
	}
}

func TestFinalVariantOf(t *testing.T) {
	for _, v := range FinalVariants {
		for _, name := range []string{v.Name, v.Phrases} {
			if got, err := FinalVariantOf(name); err != nil || got != v {
				t.Errorf("FinalVariantOf(%q) = %v, %v; want %v", name, got, err, v)
			}
		}
	}
	if _, err := FinalVariantOf("superpower"); err == nil || !strings.Contains(err.Error(), `"superpower"`) {
		t.Errorf("FinalVariantOf(superpower): %v; want an error naming it", err)
	}
}

// TestParseFinalBoardErrors: a malformed board is an error naming the line
// and what is wrong.
func TestParseFinalBoardErrors(t *testing.T) {
	const head = "## Final round\nFinal ranking: A 3, B 1.\n\n| problem | power | nopower |\n|---|---|---|\n"
	if b, err := ParseFinalBoard([]byte(head + "| 8 | 10 (A) | 5 (A, B) |\n")); err != nil || len(b.Problems) != 1 || len(b.Ranking) != 2 {
		t.Fatalf("a valid board: %+v, %v", b, err)
	}
	for _, c := range []struct{ md, want string }{
		{"# nothing\n", "no \"## Final round\" section"},
		{head, "no board table"},
		{strings.Replace(head, "nopower", "superpower", 1) + "| 8 | 1 (A) | 1 (A) |\n", `line 4: column "superpower" is not a final-round variant`},
		{strings.Replace(head, "nopower", "none", 1) + "| 8 | 1 (A) | 1 (A) |\n", `column "none" is not a final-round variant`},
		{head + "| 8 | 10 (A) |\n", "line 6: 2 cells, want 3"},
		{head + "| 8 | 10 | 5 (A) |\n", `line 6, problem 8, power: cell "10"`},
		{head + "| 8 | 0 (A) | 5 (A) |\n", `score "0" is not a positive integer`},
		{head + "| 33 | 1 (A) | 5 (A) |\n", `problem "33" is not 0..32`},
		{head + "| 9 | 1 (A) | 5 (A) |\n| 8 | 1 (A) | 5 (A) |\n", "problem 8 is out of order"},
		{strings.Replace(head, "A 3, B 1.", "A three", 1) + "| 8 | 1 (A) | 5 (A) |\n", `line 2: final ranking entry "A three"`},
		{strings.Replace(head, "Final ranking: A 3, B 1.\n", "", 1) + "| 8 | 1 (A) | 5 (A) |\n", `no "Final ranking:" line`},
	} {
		if _, err := ParseFinalBoard([]byte(c.md)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFinalBoard(%q): %v; want an error with %q", c.md, err, c.want)
		}
	}
}
