package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name (rewriting it under -update) by
// equal: the files are compared semantically, not byte for byte.
func golden(t *testing.T, name string, got []byte, equal func(want, got []byte) (bool, string)) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -run %s -update to create it)", err, t.Name())
	}
	if ok, diff := equal(want, got); !ok {
		t.Errorf("%s differs from the golden file: %s\n--- got ---\n%s", name, diff, got)
	}
}

// sameLines compares text line by line, ignoring trailing spaces.
func sameLines(want, got []byte) (bool, string) {
	norm := func(b []byte) []string {
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " \r")
		}
		return lines
	}
	w, g := norm(want), norm(got)
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return false, "line " + strconv.Itoa(i+1) + ": want " + quote(a) + ", got " + quote(b)
		}
	}
	return true, ""
}

// sameCSV compares parsed CSV records.
func sameCSV(want, got []byte) (bool, string) {
	w, err1 := csv.NewReader(bytes.NewReader(want)).ReadAll()
	g, err2 := csv.NewReader(bytes.NewReader(got)).ReadAll()
	if err1 != nil || err2 != nil {
		return false, "unparsable CSV"
	}
	if !reflect.DeepEqual(w, g) {
		return false, "records differ"
	}
	return true, ""
}

// sameJSON compares decoded JSON documents.
func sameJSON(want, got []byte) (bool, string) {
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return false, "golden: " + err.Error()
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return false, "got: " + err.Error()
	}
	if !reflect.DeepEqual(w, g) {
		return false, "documents differ"
	}
	return true, ""
}

func quote(s string) string { return strconv.Quote(s) }

func tableBytes(t *testing.T, tb *Table, md bool) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	if md {
		err = tb.WriteMarkdown(&b)
	} else {
		err = tb.WriteCSV(&b)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGoldenTables(t *testing.T) {
	s := study()
	imp, why := ParamImportance(s)
	if why != "" {
		t.Fatal(why)
	}
	tables := map[string]*Table{
		"eval-cases":       EvalCaseTable(nil, evalSingle(), false),
		"eval-groups":      EvalGroupTable(evalSingle()),
		"eval-multi-cases": EvalCaseTable(nil, evalMulti(), false),
		"ab-multi-cases":   ABCaseTable(abMulti()),
		"ab-single-cases":  ABCaseTable(abSingle()),
		"ab-single-groups": ABGroupTable(abSingle()),
		"study-trials":     StudyTrialTable(s),
		"study-importance": ImportanceTable(s, imp),
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			golden(t, n+".md", tableBytes(t, tables[n], true), sameLines)
			golden(t, n+".csv", tableBytes(t, tables[n], false), sameCSV)
		})
	}
}

// svgShape is the structure of an SVG plot that the golden files pin down:
// the size, how many elements of each kind, every text in order and the
// colours used. Coordinates are left out (they follow from the font metrics
// and are not the point).
type svgShape struct {
	Width    string         `json:"width"`
	Height   string         `json:"height"`
	Elements map[string]int `json:"elements"`
	Texts    []string       `json:"texts"`
	Colours  []string       `json:"colours"`
}

var colourRE = regexp.MustCompile(`(?:fill|stroke):(#[0-9A-Fa-f]{6})`)

func parseSVG(t *testing.T, data []byte) svgShape {
	t.Helper()
	sh := svgShape{Elements: map[string]int{}, Texts: []string{}}
	colours := map[string]bool{}
	d := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			sh.Elements[e.Name.Local]++
			for _, a := range e.Attr {
				switch {
				case e.Name.Local == "svg" && a.Name.Local == "width":
					sh.Width = a.Value
				case e.Name.Local == "svg" && a.Name.Local == "height":
					sh.Height = a.Value
				case a.Name.Local == "style":
					for _, m := range colourRE.FindAllStringSubmatch(a.Value, -1) {
						colours[strings.ToUpper(m[1])] = true
					}
				}
			}
			inText = e.Name.Local == "text"
		case xml.CharData:
			if inText {
				sh.Texts = append(sh.Texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	for c := range colours {
		sh.Colours = append(sh.Colours, c)
	}
	sort.Strings(sh.Colours)
	return sh
}

func TestGoldenSVG(t *testing.T) {
	dir := t.TempDir()
	reps := map[string]func(string) (*Report, error){
		"study":     func(d string) (*Report, error) { return WriteStudyReport(d, study()) },
		"eval":      func(d string) (*Report, error) { return WriteEvalReport(d, nil, evalSingle()) },
		"ab-multi":  func(d string) (*Report, error) { return WriteABReport(d, abMulti()) },
		"ab-single": func(d string) (*Report, error) { return WriteABReport(d, abSingle()) },
	}
	kinds := make([]string, 0, len(reps))
	for k := range reps {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		d := filepath.Join(dir, kind)
		r, err := reps[kind](d)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		for _, f := range r.Figures {
			if f.Missing != "" {
				t.Errorf("%s: figure %s not drawn: %s", kind, f.Name, f.Missing)
				continue
			}
			data, err := os.ReadFile(filepath.Join(d, f.SVG))
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.MarshalIndent(parseSVG(t, data), "", "  ")
			golden(t, "svg-"+kind+"-"+f.Name+".json", append(js, '\n'), sameJSON)
		}
	}
}
