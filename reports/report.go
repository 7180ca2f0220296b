package reports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gauntlet/internal/untrusted"
)

// Report is what one Write*Report call produced: the headline numbers, the
// tables and figures, and every file written in the report directory.
type Report struct {
	Kind     string // "eval", "ab" or "study"
	Title    string
	Headline []Fact   // the numbers at the top of index.html
	Summary  string   // the headline as one line of text (through untrusted.Line)
	Notes    []string // what could not be shown and why, and other remarks (each through untrusted.Line)
	Tables   []TableFile
	Figures  []Figure
	Files    []string // every file written, relative to the directory, index.html last
	// Replays are viewer pages of telling games written next to the report
	// (see WithReplays).
	Replays []ReplayLink

	method string // how derived numbers were computed, shown under the headline
}

// Fact is one headline number: a label and its formatted value.
type Fact struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// TableFile is a table of a report and the files it was written to.
type TableFile struct {
	Name     string // base file name without extension
	Table    *Table
	Markdown string // name.md
	CSV      string // name.csv
	Text     string // name.txt (terminal form)
	// Links maps a first-column value (a case) to a page to open from it.
	Links map[string]string
}

// writeTables writes each table as Markdown, CSV and text into dir.
func (r *Report) writeTables(dir string) error {
	for i := range r.Tables {
		tf := &r.Tables[i]
		for _, kind := range []string{"md", "csv", "txt"} {
			var b bytes.Buffer
			var err error
			switch kind {
			case "md":
				err = tf.Table.WriteMarkdown(&b)
			case "csv":
				err = tf.Table.WriteCSV(&b)
			default:
				err = tf.Table.WriteText(&b)
			}
			if err != nil {
				return fmt.Errorf("table %s: %w", tf.Name, err)
			}
			file := tf.Name + "." + kind
			if err := os.WriteFile(filepath.Join(dir, file), b.Bytes(), 0o644); err != nil {
				return err
			}
			switch kind {
			case "md":
				tf.Markdown = file
			case "csv":
				tf.CSV = file
			default:
				tf.Text = file
			}
			r.Files = append(r.Files, file)
		}
	}
	return nil
}

// figure draws one figure with draw (which returns the plot size, or a
// reason for not drawing); a reason becomes the figure's Missing text and a
// note of the report instead of a broken plot.
func (r *Report) figure(dir, name, title, caption string, draw func(f *Figure) (string, error)) error {
	f := Figure{Name: name, Title: title, Caption: caption}
	return r.addFigure(dir, f, draw)
}

// addFigure is figure with a prepared Figure.
func (r *Report) addFigure(dir string, f Figure, draw func(f *Figure) (string, error)) error {
	name := f.Name
	missing, err := draw(&f)
	if err != nil {
		return fmt.Errorf("figure %s: %w", name, err)
	}
	if missing != "" {
		f.Missing = missing
		f.SVG, f.PNG = "", ""
		r.Notes = append(r.Notes, fmt.Sprintf("%s: not drawn, %s", f.Title, missing))
	} else {
		r.Files = append(r.Files, f.SVG, f.PNG)
	}
	r.Figures = append(r.Figures, f)
	return nil
}

// finish writes the tables and index.html and sets the summary line.
func (r *Report) finish(dir string) error {
	r.linkCases()
	if err := r.writeTables(dir); err != nil {
		return err
	}
	parts := make([]string, len(r.Headline))
	for i, h := range r.Headline {
		parts[i] = h.Label + " " + h.Value
	}
	r.Summary = r.Title + ": " + strings.Join(parts, ", ")
	// A note may quote a bot (a forfeit's stderr), a title a run's name: the
	// caller prints them.
	r.Title, r.Summary = untrusted.Line(r.Title), untrusted.Line(r.Summary)
	for i, n := range r.Notes {
		r.Notes[i] = untrusted.Line(n)
	}
	if err := writeIndex(dir, r); err != nil {
		return err
	}
	r.Files = append(r.Files, "index.html")
	return nil
}

// prepare makes the report directory.
func prepare(dir string) error {
	if dir == "" {
		return fmt.Errorf("report directory: empty path")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report directory %s: %w", dir, err)
	}
	return nil
}
