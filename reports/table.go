// Package reports turns stored results into what a person reads: tables
// (terminal, Markdown, CSV), plots (SVG and PNG) and one HTML report.
package reports

import (
	"io"

	"gauntlet/reports/table"
)

// Table is a titled table of text cells, written as text, Markdown or CSV
// (package reports/table, which the games' own tools use too).
type Table = table.Table

// WriteTables writes tables (nil ones skipped) to w, as Markdown when md is
// true, else as CSV, a blank line between two tables.
func WriteTables(w io.Writer, md bool, tables ...*Table) error {
	return table.WriteAll(w, md, tables...)
}

// WriteTablesFile writes tables to the file at path as WriteTables does,
// whole or not at all (see table.ReplaceFile). The error names path.
func WriteTablesFile(path string, md bool, tables ...*Table) error {
	return table.WriteFile(path, md, tables...)
}

// MarkdownCell escapes s for a Markdown table cell (table.MarkdownCell).
func MarkdownCell(s string) string { return table.MarkdownCell(s) }

// CSVCell makes s safe as a CSV cell (table.CSVCell).
func CSVCell(s string) string { return table.CSVCell(s) }
