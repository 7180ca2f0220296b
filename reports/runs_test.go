package reports

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"gauntlet/workflow"
)

// TestRunsTableKeepsEntrantsWhole: an entrant of 200 characters is whole
// in the CSV and Markdown forms of the runs table, and wrapped, not cut,
// in the terminal form: its lines, joined, give it back.
func TestRunsTableKeepsEntrantsWhole(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 200; i++ {
		b.WriteString("w" + strings.Repeat("x", i%7) + "=0.125,")
	}
	long := "brewbeam:" + strings.TrimSuffix(b.String(), ",")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tb := RunsTable([]workflow.RunInfo{{ID: "r", Kind: "ab", Game: "brew", CaseSet: "seeds:2", Entrants: []string{long, "greedy"},
		Differs: []string{"width: 400 vs 2"}, Games: 4, Planned: 4, Status: "complete", Created: at, Updated: at}})

	var c bytes.Buffer
	if err := tb.WriteCSV(&c); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil || len(recs) != 2 || recs[1][4] != long+" vs greedy" || recs[1][5] != "width: 400 vs 2" {
		t.Errorf("CSV %q (%v): want the entrants whole", recs, err)
	}
	var md bytes.Buffer
	if err := tb.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), MarkdownCell(long)+" vs greedy") {
		t.Errorf("Markdown lacks the whole entrant:\n%s", md.String())
	}
	if strings.Contains(c.String()+md.String(), "…") {
		t.Error("a cell is cut")
	}

	var txt bytes.Buffer
	if err := tb.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for l := range strings.Lines(txt.String()) {
		cells := strings.Split(l, "│")
		if len(cells) < 6 {
			continue
		}
		cell := strings.TrimSpace(cells[5]) // entrants: after the border and four columns
		if n := utf8.RuneCountInString(cell); n > tb.Wrap[4] {
			t.Errorf("a line of the entrants cell has %d characters, want at most %d: %q", n, tb.Wrap[4], cell)
		}
		if cell != "" && cell != "entrants" {
			parts = append(parts, cell)
		}
	}
	if got := strings.Join(parts, ""); got != long+"vs greedy" && got != long+" vs greedy" {
		t.Errorf("the terminal table's entrants lines join to\n%q\nwant\n%q\n%s", got, long+" vs greedy", txt.String())
	}
	if len(parts) < 5 {
		t.Errorf("the entrants are on %d lines, want them wrapped:\n%s", len(parts), txt.String())
	}
}
