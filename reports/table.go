// Package reports turns stored results into what a person reads: tables
// (terminal, Markdown, CSV), plots (SVG and PNG) and one HTML report.
package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is a rectangular table of already formatted cells. Numeric columns
// (those named in Right) are right-aligned in the terminal and Markdown forms.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Footer []string     // optional totals row
	Right  map[int]bool // right-aligned columns
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

func (t *Table) render(w io.Writer, r tw.Renderer) error {
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

// WriteText renders the table for a terminal.
func (t *Table) WriteText(w io.Writer) error {
	if t.Title != "" {
		fmt.Fprintln(w, t.Title)
	}
	return t.render(w, renderer.NewBlueprint())
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
// if any, becomes a last bold row).
func (t *Table) WriteMarkdown(w io.Writer) error {
	if t.Title != "" {
		fmt.Fprintf(w, "### %s\n\n", t.Title)
	}
	md := *t
	md.Header = escapePipes(t.Header)
	md.Rows = make([][]string, 0, len(t.Rows)+1)
	for _, r := range t.Rows {
		md.Rows = append(md.Rows, escapePipes(r))
	}
	if len(t.Footer) > 0 {
		foot := escapePipes(t.Footer)
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

// escapePipes escapes the cell separator of Markdown tables inside cells.
func escapePipes(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return out
}

// WriteCSV writes header, rows and footer as CSV (RFC 4180).
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := cw.Write(pad(r, len(t.Header))); err != nil {
			return err
		}
	}
	if len(t.Footer) > 0 {
		if err := cw.Write(pad(t.Footer, len(t.Header))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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

// WriteTablesFile writes tables (nil ones skipped) to the file at path, as
// Markdown when md is true, else as CSV, a blank line between two tables.
func WriteTablesFile(path string, md bool, tables ...*Table) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	first := true
	for _, t := range tables {
		if t == nil {
			continue
		}
		if !first {
			if _, err := fmt.Fprintln(f); err != nil {
				_ = f.Close() // the write's error is the one to report
				return err
			}
		}
		first = false
		if md {
			err = t.WriteMarkdown(f)
		} else {
			err = t.WriteCSV(f)
		}
		if err != nil {
			_ = f.Close() // the write's error is the one to report
			return err
		}
	}
	return f.Close()
}
