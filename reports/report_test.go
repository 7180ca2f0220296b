package reports

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/results"
)

// checkFiles verifies that every file a report lists, and every file
// index.html links to, exists and is not empty, and returns index.html.
func checkFiles(t *testing.T, dir string, r *Report) string {
	t.Helper()
	if len(r.Files) == 0 || r.Files[len(r.Files)-1] != "index.html" {
		t.Fatalf("files %v: index.html should come last", r.Files)
	}
	for _, f := range r.Files {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("listed file %s: missing or empty (%v)", f, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(page), -1) {
		ref := m[1]
		if strings.Contains(ref, "://") || strings.HasPrefix(ref, "/") {
			t.Errorf("index.html refers to %q: not a relative link", ref)
			continue
		}
		st, err := os.Stat(filepath.Join(dir, ref))
		if err != nil || st.Size() == 0 {
			t.Errorf("index.html refers to %s: missing or empty (%v)", ref, err)
		}
	}
	return html.UnescapeString(string(page))
}

func TestReportsWriteEveryFile(t *testing.T) {
	cases := []struct {
		name  string
		write func(dir string) (*Report, error)
		figs  []string
		facts []string // headline values that must be on the page
	}{
		{"eval", func(d string) (*Report, error) { return WriteEvalReport(d, nil, evalSingle()) },
			[]string{"scores", "case-scores"}, []string{"855 ± 602", "1543"}},
		{"eval-multi", func(d string) (*Report, error) { return WriteEvalReport(d, nil, evalMulti()) },
			[]string{"scores", "case-scores"}, []string{"75.0%", "1.25"}},
		{"ab-multi", func(d string) (*Report, error) { return WriteABReport(d, abMulti()) },
			[]string{"scores", "diff", "elo", "llr"}, []string{"+190.8 ± 251.0", "93.0%", "continue (LLR 0.41, bounds -2.94 .. 2.94)"}},
		{"ab-single", func(d string) (*Report, error) { return WriteABReport(d, abSingle()) },
			[]string{"scores", "diff"}, []string{"600 ± 500", "0.0312"}},
		{"study", func(d string) (*Report, error) { return WriteStudyReport(d, study()) },
			[]string{"history", "importance", "intermediate", "cases", "slice-x", "slice-k", "slice-mode", "slice-lr"}, []string{"100", "30 ± 10"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r, err := c.write(dir)
			if err != nil {
				t.Fatal(err)
			}
			page := checkFiles(t, dir, r)
			var drawn []string
			for _, f := range r.Figures {
				if f.Missing != "" {
					continue
				}
				drawn = append(drawn, f.Name)
				fh, err := os.Open(filepath.Join(dir, f.PNG))
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(fh)
				fh.Close()
				if err != nil || img.Bounds().Dx() < 100 || img.Bounds().Dy() < 100 {
					t.Errorf("%s: not a usable PNG (%v)", f.PNG, err)
				}
			}
			if fmt.Sprint(drawn) != fmt.Sprint(c.figs) {
				t.Errorf("figures drawn %v, want %v (notes %v)", drawn, c.figs, r.Notes)
			}
			for _, want := range c.facts {
				if !strings.Contains(page, want) {
					t.Errorf("headline %q not in index.html", want)
				}
				if !strings.Contains(r.Summary, want) {
					t.Errorf("headline %q not in summary %q", want, r.Summary)
				}
			}
		})
	}
}

func TestEmptyAndNonFiniteInputsSayWhy(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name  string
		write func(dir string) (*Report, error)
		want  string // in the notes and on the page
	}{
		{"empty study", func(d string) (*Report, error) {
			return WriteStudyReport(d, &Study{Name: "empty", Params: []string{"x"}})
		}, "the study has no trial yet"},
		{"study of failed trials", func(d string) (*Report, error) {
			return WriteStudyReport(d, &Study{Name: "failed", Params: []string{"x"},
				Trials: []Trial{{Number: 0, State: "failed", Params: map[string]float64{"x": 1}}}})
		}, "no complete or pruned trial with a finite value"},
		{"study of NaN values", func(d string) (*Report, error) {
			s := &Study{Name: "nan", Params: []string{"x"}}
			for i := 0; i < 5; i++ {
				s.Trials = append(s.Trials, Trial{Number: i, State: TrialComplete, Value: nan,
					Params: map[string]float64{"x": float64(i)}, Scores: []float64{nan, math.Inf(1)},
					Intermediate: []Step{{1, nan}}})
			}
			return WriteStudyReport(d, s)
		}, "no complete or pruned trial with a finite value"},
		{"empty eval", func(d string) (*Report, error) {
			return WriteEvalReport(d, nil, &results.EvalSummary{Game: "g", Strategy: "s", CaseSet: "c", Mean: nan, CI95: [2]float64{nan, nan}})
		}, "the run has no played case"},
		{"eval of NaN scores", func(d string) (*Report, error) {
			return WriteEvalReport(d, nil, &results.EvalSummary{Game: "g", Strategy: "s", CaseSet: "c", Games: 2, Mean: nan,
				Cases: []results.EvalCase{{Case: "a", Score: nan}, {Case: "b", Score: math.Inf(-1)}}})
		}, "no finite score"},
		{"ab without history", func(d string) (*Report, error) {
			s := abMulti()
			s.History = nil
			return WriteABReport(d, s)
		}, "the run has no recorded history"},
		{"ab all won", func(d string) (*Report, error) {
			s := abMulti()
			s.Elo, s.EloCI95 = math.Inf(1), [2]float64{math.Inf(1), math.Inf(1)}
			for i := range s.History {
				s.History[i].Elo = math.Inf(1)
			}
			return WriteABReport(d, s)
		}, "no finite Elo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r, err := c.write(dir)
			if err != nil {
				t.Fatal(err)
			}
			page := checkFiles(t, dir, r)
			if !strings.Contains(strings.Join(r.Notes, "\n"), c.want) {
				t.Errorf("notes %q lack %q", r.Notes, c.want)
			}
			if !strings.Contains(page, c.want) {
				t.Errorf("index.html lacks %q", c.want)
			}
			for _, bad := range []string{"NaN", "Inf"} {
				if strings.Contains(page, bad) {
					t.Errorf("index.html shows %s", bad)
				}
			}
		})
	}
}

func TestParamImportance(t *testing.T) {
	s := &Study{Name: "imp", Params: []string{"driver", "noise", "choice", "flat"}, Choices: map[string][]string{"choice": {"a", "b"}}}
	// value peaks in the middle of driver (non-monotone), noise is a
	// permutation unrelated to it, choice alternates, flat is constant.
	noise := []float64{0, 3, 1, 2, 5, 4, 6, 7}
	for i := 0; i < 8; i++ {
		d := float64(i)
		s.Trials = append(s.Trials, Trial{Number: i, State: TrialComplete, Value: -(d - 3.5) * (d - 3.5),
			Params: map[string]float64{"driver": d, "noise": noise[i], "choice": float64(i % 2), "flat": 1}})
	}
	imp, why := ParamImportance(s)
	if why != "" {
		t.Fatal(why)
	}
	by := map[string]Importance{}
	total := 0.0
	for _, im := range imp {
		by[im.Param] = im
		total += im.Share
	}
	if math.Abs(total-1) > 1e-12 {
		t.Errorf("shares sum to %v", total)
	}
	if by["flat"].Eta2 != 0 {
		t.Errorf("a constant parameter has η² %v", by["flat"].Eta2)
	}
	if by["driver"].Share <= by["noise"].Share || by["driver"].Share <= by["choice"].Share {
		t.Errorf("driver should dominate: %+v", imp)
	}
	// 8 trials give min(4, max(3, 8/3)) = 3 equal-count bins by rank: the
	// noise values {0,1,2}, {3,4} and {5,6,7}. η² = between / total sum of
	// squares of the values.
	mean := 0.0
	for _, tr := range s.Trials {
		mean += tr.Value / 8
	}
	var sum, cnt [3]float64
	var sst float64
	for i, tr := range s.Trials {
		b := 0
		switch {
		case noise[i] >= 5:
			b = 2
		case noise[i] >= 3:
			b = 1
		}
		sum[b] += tr.Value
		cnt[b]++
		sst += (tr.Value - mean) * (tr.Value - mean)
	}
	ssb := 0.0
	for b := range sum {
		d := sum[b]/cnt[b] - mean
		ssb += cnt[b] * d * d
	}
	if n := by["noise"]; math.Abs(n.Eta2-ssb/sst) > 1e-12 || n.Bins != 3 {
		t.Errorf("noise η² %v with %d bins, want %v with 3", n.Eta2, n.Bins, ssb/sst)
	}
	if _, why := ParamImportance(&Study{Params: []string{"x"}, Trials: s.Trials[:3]}); !strings.Contains(why, "at least 4") {
		t.Errorf("3 trials: %q", why)
	}
}

func TestRanksShareTies(t *testing.T) {
	got := ranks([]float64{5, 1, 5, math.NaN(), 3})
	want := []float64{3.5, 1, 3.5, math.NaN(), 2}
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("ranks %v, want %v", got, want)
		}
	}
}

func TestMarkdownEscapesPipes(t *testing.T) {
	var b bytes.Buffer
	tb := &Table{Header: []string{"a|b"}, Rows: [][]string{{"x|y"}}}
	if err := tb.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `a\|b`) || !strings.Contains(b.String(), `x\|y`) {
		t.Fatalf("pipes not escaped:\n%s", b.String())
	}
}

// chromium finds the headless browser: $GAUNTLET_TEST_CHROMIUM, else
// chromium on the PATH. Without one the test is skipped locally and fails
// under CI (env CI set).
func chromium(t *testing.T) string {
	t.Helper()
	if p := FindChromium(); p != "" {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium (set GAUNTLET_TEST_CHROMIUM or install Debian's chromium): the HTML report test cannot run")
	}
	t.Skip("no Chromium found (set GAUNTLET_TEST_CHROMIUM)")
	return ""
}

// TestIndexRendersInChromium opens each kind of report in headless Chromium
// and checks that the page's load handler saw every image load and that the
// headline numbers are shown.
func TestIndexRendersInChromium(t *testing.T) {
	browser := chromium(t)
	cases := []struct {
		name  string
		write func(dir string) (*Report, error)
	}{
		{"eval", func(d string) (*Report, error) { return WriteEvalReport(d, nil, evalSingle()) }},
		{"ab", func(d string) (*Report, error) { return WriteABReport(d, abMulti()) }},
		{"study", func(d string) (*Report, error) { return WriteStudyReport(d, study()) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r, err := c.write(dir)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			chk, err := CheckInBrowser(ctx, browser, filepath.Join(dir, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			drawn := 0
			for _, f := range r.Figures {
				if f.Missing == "" {
					drawn++
				}
			}
			if !chk.OK() || chk.ImagesTotal != drawn {
				t.Errorf("images: ready %v, %d of %d loaded (want %d), broken %v", chk.Ready, chk.ImagesLoaded, chk.ImagesTotal, drawn, chk.Broken)
			}
			text := chk.Text()
			for _, h := range r.Headline {
				if !strings.Contains(text, h.Value) {
					t.Errorf("headline %s = %q not shown in the rendered page", h.Label, h.Value)
				}
			}
		})
	}
}

// A broken image must be caught: the check is able to fail.
func TestChromiumSeesABrokenImage(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	r, err := WriteEvalReport(dir, nil, evalSingle())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, r.Figures[0].PNG), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	chk, err := CheckInBrowser(ctx, browser, filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if chk.OK() || len(chk.Broken) != 1 || chk.Broken[0] != r.Figures[0].PNG {
		t.Fatalf("a corrupt PNG went unnoticed: %+v", chk.Broken)
	}
}

// FuzzParamImportance: any values, NaN and infinities included, give either
// a reason or shares in [0, 1] that sum to 1; never a panic or a NaN.
func FuzzParamImportance(f *testing.F) {
	f.Add(1.0, 2.0, 3.0, 4.0, 5.0, 0.5, 0.25)
	f.Add(math.NaN(), math.Inf(1), 0.0, -1.0, 1e308, -1e308, 0.0)
	f.Add(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
	f.Add(1e308, -1e308, 1e308, -1e308, 0.0, 1.0, 1.0)
	f.Fuzz(func(t *testing.T, a, b, c, d, e, x0, x1 float64) {
		vals := []float64{a, b, c, d, e}
		s := &Study{Params: []string{"x", "y"}, Choices: map[string][]string{"y": {"p", "q"}}}
		for i, v := range vals {
			x := x0 + float64(i)*x1
			s.Trials = append(s.Trials, Trial{Number: i, State: TrialComplete, Value: v,
				Params: map[string]float64{"x": x, "y": float64(i % 2)}})
		}
		imp, why := ParamImportance(s)
		if why != "" {
			return
		}
		sum := 0.0
		for _, im := range imp {
			if !(im.Share >= 0 && im.Share <= 1) || !(im.Eta2 >= 0 && im.Eta2 <= 1) {
				t.Fatalf("importance out of range: %+v", imp)
			}
			sum += im.Share
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("shares sum to %v: %+v", sum, imp)
		}
	})
}
