// Package table writes titled tables of text cells as a terminal shows
// them, as Markdown and as CSV, every cell of untrusted text made safe. The
// reports are built of them, and so are the games' own tools' outputs.
package table

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"gauntlet/internal/untrusted"
)

// Table is a rectangular table of already formatted cells. Numeric columns
// (those named in Right) are right-aligned in the terminal and Markdown forms.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Footer []string     // optional totals row
	Right  map[int]bool // right-aligned columns
	// Wrap are the columns wrapped on several lines in the terminal form,
	// by their width in characters (the other forms keep a cell on one
	// line): nothing is cut.
	Wrap map[int]int
}

// NumericRight marks every column whose body cells all parse as numbers
// (optionally with ± or %) as right-aligned.
func (t *Table) NumericRight() {
	if t.Right == nil {
		t.Right = map[int]bool{}
	}
	for c := range t.Header {
		numeric := len(t.Rows) > 0
		for _, r := range t.Rows {
			if c >= len(r) || !looksNumeric(r[c]) {
				numeric = false
				break
			}
		}
		if numeric {
			t.Right[c] = true
		}
	}
}

func looksNumeric(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return s == "-"
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789+-.,eE ±%", r) {
			return false
		}
	}
	return true
}

func (t *Table) aligns() []tw.Align {
	a := make([]tw.Align, len(t.Header))
	for i := range a {
		if t.Right[i] {
			a[i] = tw.AlignRight
		} else {
			a[i] = tw.AlignLeft
		}
	}
	return a
}

// render writes t through r into a buffer, then to w, so that an error of
// w (a full disk) is returned: the renderers do not return their writes'
// errors.
func (t *Table) render(w io.Writer, r tw.Renderer) error {
	var b bytes.Buffer
	if err := t.renderTo(&b, r); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (t *Table) renderTo(w io.Writer, r tw.Renderer) error {
	al := t.aligns()
	tab := tablewriter.NewTable(w,
		tablewriter.WithRenderer(r),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoFormat: tw.Off},
				Alignment:  tw.CellAlignment{PerColumn: al},
			},
			Row: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
				Alignment:  tw.CellAlignment{PerColumn: al},
			},
			Footer: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoFormat: tw.Off},
				Alignment:  tw.CellAlignment{PerColumn: al},
			},
		}),
	)
	tab.Header(toAny(t.Header)...)
	for _, row := range t.Rows {
		if err := tab.Append(toAny(pad(row, len(t.Header)))...); err != nil {
			return err
		}
	}
	if len(t.Footer) > 0 {
		tab.Footer(toAny(pad(t.Footer, len(t.Header)))...)
	}
	return tab.Render()
}

// WriteText renders the table for a terminal, every cell and the title
// through untrusted.Line: a cell cannot move the cursor, set the terminal's
// title or break the table's lines.
func (t *Table) WriteText(w io.Writer) error {
	txt := t.cells(untrusted.Line)
	for c, width := range t.Wrap {
		for _, r := range txt.Rows {
			if c < len(r) {
				r[c] = wrapCell(r[c], width)
			}
		}
	}
	if txt.Title != "" {
		if _, err := fmt.Fprintln(w, txt.Title); err != nil {
			return err
		}
	}
	return txt.render(w, renderer.NewBlueprint())
}

// wrapCell breaks s into lines of at most width characters, after the
// last space or comma that fits, else at width.
func wrapCell(s string, width int) string {
	if width < 1 {
		return s
	}
	var lines []string
	rs := []rune(s)
	for len(rs) > width {
		cut := width
		if i := lastBreak(rs, width); i > 0 {
			cut = i
		}
		lines = append(lines, strings.TrimRight(string(rs[:cut]), " "))
		rs = rs[cut:]
		for len(rs) > 0 && rs[0] == ' ' {
			rs = rs[1:]
		}
	}
	return strings.Join(append(lines, string(rs)), "\n")
}

// lastBreak is the position after the last comma within the first width
// runes of rs, or after the last space within width+1 (a space at the end
// of a line is dropped); 0: none.
func lastBreak(rs []rune, width int) int {
	for i := min(len(rs), width+1); i > 0; i-- {
		if rs[i-1] == ' ' || rs[i-1] == ',' && i <= width {
			return i
		}
	}
	return 0
}

// cells returns a copy of t with f applied to the title and every cell.
func (t *Table) cells(f func(string) string) *Table {
	c := *t
	c.Title = f(t.Title)
	c.Header = mapCells(t.Header, f)
	c.Footer = mapCells(t.Footer, f)
	c.Rows = make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		c.Rows[i] = mapCells(r, f)
	}
	return &c
}

func mapCells(cells []string, f func(string) string) []string {
	if cells == nil {
		return nil
	}
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = f(c)
	}
	return out
}

// Head returns t with at most n body rows (all when n <= 0 or t has no
// more), and how many rows it left out. The footer stays.
func (t *Table) Head(n int) (*Table, int) {
	if n <= 0 || len(t.Rows) <= n {
		return t, 0
	}
	h := *t
	h.Rows = t.Rows[:n]
	return &h, len(t.Rows) - n
}

// WriteMarkdown renders the table as GitHub-flavoured Markdown (the footer,
// if any, becomes a last bold row). Every cell and the title go through
// MarkdownCell.
func (t *Table) WriteMarkdown(w io.Writer) error {
	md := t.cells(MarkdownCell)
	if md.Title != "" {
		if _, err := fmt.Fprintf(w, "### %s\n\n", md.Title); err != nil {
			return err
		}
	}
	if len(md.Footer) > 0 {
		foot := md.Footer
		for i, c := range foot {
			if c != "" {
				foot[i] = "**" + c + "**"
			}
		}
		md.Rows = append(md.Rows, foot)
		md.Footer = nil
	}
	return md.render(w, renderer.NewMarkdown())
}

// markdownEscapes escapes in a Markdown table cell what would end the cell
// (|), start markup (emphasis, code, links, HTML) or an entity, and the
// backslash that escapes.
var markdownEscapes = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`,
	"[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
)

// MarkdownCell is s as the text of one Markdown table cell: through
// untrusted.Line (so one line, no control character, valid UTF-8), then
// with Markdown's special characters escaped, so that it reads as the same
// text and never as markup: "<script>" becomes "&lt;script&gt;", "a|b"
// "a\|b", "**x**" "\*\*x\*\*".
func MarkdownCell(s string) string {
	s = untrusted.Line(s)
	if !strings.ContainsAny(s, "\\|`*_~[]<>&") {
		return s
	}
	return markdownEscapes.Replace(s)
}

// WriteCSV writes header, rows and footer as CSV (RFC 4180), every cell
// through CSVCell.
func (t *Table) WriteCSV(w io.Writer) error {
	c := t.cells(CSVCell)
	cw := csv.NewWriter(w)
	if err := cw.Write(c.Header); err != nil {
		return err
	}
	for _, r := range c.Rows {
		if err := cw.Write(pad(r, len(c.Header))); err != nil {
			return err
		}
	}
	if len(c.Footer) > 0 {
		if err := cw.Write(pad(c.Footer, len(c.Header))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVCell is s as one CSV cell: through untrusted.Line (one line, no
// control character, valid UTF-8), and, when it is text that begins with
// =, +, -, @, a tab or a carriage return, after a single quote, so that a
// spreadsheet shows it as text instead of running it as a formula (OWASP's
// advice on CSV injection). A number ("-3.5", "+12", "1,234", "-7%",
// "-12 ± 25") and a lone "-" (no value) stay as they are.
func CSVCell(s string) string {
	s = untrusted.Line(s)
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || s == "-" || numberCell(s) {
		return s
	}
	return "'" + s
}

// numberCell reports whether s is a number as the tables write them: digits
// with an optional sign, decimal point, exponent, thousands commas and a
// trailing %, or two such numbers "A ± B" (either may be "-").
func numberCell(s string) bool {
	if a, b, ok := strings.Cut(s, " ± "); ok {
		return (a == "-" || numberCell(a)) && (b == "-" || numberCell(b))
	}
	s = strings.ReplaceAll(strings.TrimSuffix(s, "%"), ",", "")
	if strings.ContainsFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }) {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func pad(row []string, n int) []string {
	if len(row) >= n {
		return row
	}
	out := make([]string, n)
	copy(out, row)
	return out
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
