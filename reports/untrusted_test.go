package reports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"gauntlet/harness/results"
	"gauntlet/reports/table"
)

// hostile is a name or a forfeit reason as an attacker writes it: a
// terminal title and a screen clear, NUL, a byte that is not UTF-8, a
// line break, a Markdown cell separator, HTML, a spreadsheet formula and
// a right-to-left override.
const hostile = "=HYPERLINK(\"http://x\")\x1b]0;PWNED\a\x1b[2J\x00\xff\nsecond line|<script>alert(1)</script>\u202eevil"

// rawProblem says what in out must not be there, or "" when nothing.
// Newlines and tabs are the writers' own; the table's text has none.
func rawProblem(out string) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0:
			return fmt.Sprintf("control character %U", r)
		case r == '\u202e':
			return "bidi override"
		}
	}
	return ""
}

// hostileTable has the hostile text in its title, a header, a row and the
// footer, text cells that start like formulas and numbers that start with
// a sign.
func hostileTable() *Table {
	return &Table{
		Title:  "run " + hostile,
		Header: []string{"name", "value", hostile},
		Rows: [][]string{
			{hostile, "-3.5", "+12"},
			{"@SUM(A1)", "-12 ± 25", "-7%"},
			{"+cmd", "-", "1,234"},
			{"-2+3", "-Inf", "\tx"},
		},
		Footer: []string{"total", "-1e3", hostile},
	}
}

// TestTableWritersQuoteHostileText: the terminal, CSV and Markdown forms of
// a table with hostile text hold none of its control characters, stay one
// line per row, and neither Markdown nor a spreadsheet reads markup or a
// formula in it.
func TestTableWritersQuoteHostileText(t *testing.T) {
	tb := hostileTable()
	rows := len(tb.Rows) + 2 // header and footer

	var text bytes.Buffer
	if err := tb.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if p := rawProblem(text.String()); p != "" {
		t.Errorf("terminal table: %s:\n%q", p, text.String())
	}
	// Title, the rules above, below the header, above the footer and
	// below, one line per row: a newline of a cell would add one.
	if n := strings.Count(text.String(), "\n"); n != 1+rows+4 {
		t.Errorf("terminal table has %d lines, want %d:\n%s", n, 1+rows+4, text.String())
	}

	var c bytes.Buffer
	if err := tb.WriteCSV(&c); err != nil {
		t.Fatal(err)
	}
	if p := rawProblem(c.String()); p != "" {
		t.Errorf("CSV: %s:\n%q", p, c.String())
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != rows {
		t.Fatalf("CSV has %d records, want %d: %q", len(recs), rows, recs)
	}
	for _, cell := range []struct {
		row, col int
		want     string
	}{
		{0, 2, "'" + `=HYPERLINK("http://x")\x1b]0;PWNED\a\x1b[2J\x00\xff\nsecond line|<script>alert(1)</script>\u202eevil`},
		{1, 0, "'" + `=HYPERLINK("http://x")\x1b]0;PWNED\a\x1b[2J\x00\xff\nsecond line|<script>alert(1)</script>\u202eevil`},
		{1, 1, "-3.5"}, {1, 2, "+12"},
		{2, 0, "'@SUM(A1)"}, {2, 1, "-12 ± 25"}, {2, 2, "-7%"},
		{3, 0, "'+cmd"}, {3, 1, "-"}, {3, 2, "1,234"},
		{4, 0, "'-2+3"}, {4, 1, "'-Inf"}, {4, 2, `\tx`},
		{5, 1, "-1e3"},
	} {
		if got := recs[cell.row][cell.col]; got != cell.want {
			t.Errorf("CSV cell %d,%d = %q, want %q", cell.row, cell.col, got, cell.want)
		}
	}

	var md bytes.Buffer
	if err := tb.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	if p := rawProblem(out); p != "" {
		t.Errorf("Markdown: %s:\n%q", p, out)
	}
	if strings.Contains(out, "<script") || strings.Contains(out, "</script") {
		t.Errorf("Markdown holds raw HTML:\n%s", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2+rows+1 { // title, blank line, the rows and the rule under the header
		t.Fatalf("Markdown has %d lines, want %d:\n%s", len(lines), 2+rows+1, out)
	}
	if !strings.HasPrefix(lines[0], "### run ") {
		t.Errorf("Markdown title line %q", lines[0])
	}
	for _, l := range lines[2:] {
		if n := cellSeparators(l); n != 4 {
			t.Errorf("Markdown row %q has %d cell separators, want 4", l, n)
		}
	}
}

// cellSeparators counts the | of a Markdown table row that no backslash
// escapes.
func cellSeparators(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

func TestCSVCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"=1+1", "'=1+1"},
		{"+1+1", "'+1+1"},
		{"-1+1", "'-1+1"},
		{"@A1", "'@A1"},
		{"\t=1", `\t=1`},
		{"\r=1", `\r=1`},
		{"-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"},
		{"-3.5", "-3.5"},
		{"+3.5", "+3.5"},
		{"-1.5e-3", "-1.5e-3"},
		{"-1,234.5", "-1,234.5"},
		{"-12%", "-12%"},
		{"-12 ± 25", "-12 ± 25"},
		{"- ± 0.5", "- ± 0.5"},
		{"-", "-"},
		{"-NaN", "'-NaN"},
		{"-0x10", "'-0x10"},
		{"a\x00b\xff", `a\x00b\xff`},
	} {
		if got := CSVCell(c.in); got != c.want {
			t.Errorf("CSVCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text ± 3", "plain text ± 3"},
		{"a|b", `a\|b`},
		{`back\slash`, `back\\slash`},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"&lt;", "&amp;lt;"},
		{"**bold** `code` _em_ ~~s~~", `\*\*bold\*\* \` + "`" + `code\` + "`" + ` \_em\_ \~\~s\~\~`},
		{"[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{"two\nlines", `two\\nlines`},
		{"\x1b[2J\x00\xff\u202e", `\\x1b\[2J\\x00\\xff\\u202e`},
	} {
		if got := MarkdownCell(c.in); got != c.want {
			t.Errorf("MarkdownCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// failWriter accepts n bytes, then fails as a full disk does.
type failWriter struct{ n int }

var errDiskFull = errors.New("no space left on device")

func (w *failWriter) Write(b []byte) (int, error) {
	if len(b) <= w.n {
		w.n -= len(b)
		return len(b), nil
	}
	k := w.n
	w.n = 0
	return k, errDiskFull
}

// TestTableWritersReturnWriteErrors: a writer that fails, at its first
// byte or in the middle of a table, fails every form of the table.
func TestTableWritersReturnWriteErrors(t *testing.T) {
	tb := hostileTable()
	for _, n := range []int{0, 40, 200} {
		for name, write := range map[string]func(io.Writer) error{
			"text":        tb.WriteText,
			"markdown":    tb.WriteMarkdown,
			"csv":         tb.WriteCSV,
			"tables (md)": func(w io.Writer) error { return WriteTables(w, true, tb, tb) },
		} {
			if err := write(&failWriter{n: n}); !errors.Is(err, errDiskFull) {
				t.Errorf("%s to a writer failing after %d bytes: error %v, want %v", name, n, err, errDiskFull)
			}
		}
	}
}

// TestWriteTablesFileFullDisk: a table file on a full disk (/dev/full) is
// an error naming the file, as Markdown and as CSV.
func TestWriteTablesFileFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	for _, md := range []bool{true, false} {
		err := WriteTablesFile("/dev/full", md, hostileTable())
		if err == nil || !strings.Contains(err.Error(), "/dev/full") {
			t.Errorf("md %v: error %v, want one naming /dev/full", md, err)
		}
	}
}

// TestWriteTablesFileWholeOrNothing: a write that fails midway leaves the
// file as it was and no temporary file; one that succeeds replaces the
// file whole and keeps its mode, through a symbolic link.
func TestWriteTablesFileWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := table.ReplaceFile(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, "| half a row"); err != nil {
			return err
		}
		return errDiskFull
	})
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("failed fill: error %v, want %v", err, errDiskFull)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "old\n" {
		t.Errorf("after a failed write the file holds %q (%v), want it as it was", b, err)
	}
	assertOnly(t, dir, "out.md")

	link := filepath.Join(dir, "link.md")
	if err := os.Symlink("out.md", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteTablesFile(link, true, evalCaseTableFixture()); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := evalCaseTableFixture().WriteMarkdown(&want); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, want.Bytes()) {
		t.Errorf("file holds %q (%v), want %q", b, err, want.Bytes())
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v, %v)", st, err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file: %v, %v; want mode 0600 kept", st, err)
	}
	assertOnly(t, dir, "link.md", "out.md")

	// A new file in a directory that is not there: an error naming it.
	missing := filepath.Join(dir, "no", "t.csv")
	if err := WriteTablesFile(missing, false, evalCaseTableFixture()); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("file in a missing directory: error %v, want one naming %s", err, missing)
	}
}

func evalCaseTableFixture() *Table { return EvalCaseTable(nil, evalSingle(), false) }

// assertOnly fails unless dir holds exactly the files names.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("directory holds %q, want %q", got, names)
	}
}

// TestConductTextQuotesReasons: a forfeit reason, an ignored answer and a
// warning that hold what a bot wrote are one line each, nothing raw.
func TestConductTextQuotesReasons(t *testing.T) {
	c := results.Conduct{Entrant: "cmd:./bot", Games: 2, Forfeits: 2,
		Reasons: []results.ReasonCount{{Kind: "crashed", Count: 2, First: "crashed in round 1: exit status 3; stderr: " + hostile, Case: "seed:1"}},
		Ignored: 1, IgnoredGames: 1, IgnoredFirst: hostile, IgnoredCase: "seed:2",
		Warnings: []string{hostile}}
	lines := ConductText("A", c)
	if len(lines) != 4 {
		t.Fatalf("ConductText gave %d lines, want 4: %q", len(lines), lines)
	}
	for _, l := range lines {
		if p := rawProblem(l); p != "" || strings.Contains(l, "\n") {
			t.Errorf("line %q: %s", l, p)
		}
	}
	if !strings.Contains(lines[1], `stderr: =HYPERLINK("http://x")\x1b]0;PWNED\a\x1b[2J\x00\xff\nsecond line`) {
		t.Errorf("reason line %q does not show the stderr escaped", lines[1])
	}
}

// TestReportQuotesHostileText: every file of a report whose strategy name
// and forfeit reasons are hostile (the page, the tables in each form, the
// plots) holds none of its control characters and no raw markup; the
// notes returned are one line each.
func TestReportQuotesHostileText(t *testing.T) {
	s := evalSingle()
	s.Strategy = hostile
	s.Cases[4].Forfeit = hostile
	s.Conduct = []results.Conduct{{Entrant: hostile, Games: 5, Forfeits: 1,
		Reasons: []results.ReasonCount{{Kind: "x", Count: 1, First: hostile, Case: "p1/s1"}}}}
	dir := t.TempDir()
	r, err := WriteEvalReport(dir, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Notes) == 0 {
		t.Fatal("no note on the forfeit")
	}
	for _, n := range append([]string{r.Title, r.Summary}, r.Notes...) {
		if p := rawProblem(n); p != "" || strings.Contains(n, "\n") {
			t.Errorf("report text %q: %s", n, p)
		}
	}
	checked := 0
	for _, f := range r.Files {
		ext := filepath.Ext(f)
		if ext == ".png" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if p := rawProblem(string(b)); p != "" {
			t.Errorf("%s: %s", f, p)
		}
		if ext != ".csv" && ext != ".txt" && strings.Contains(string(b), "<script>alert") {
			t.Errorf("%s holds the raw <script>", f)
		}
	}
	if checked < 4 {
		t.Errorf("checked %d files of %v", checked, r.Files)
	}
}
