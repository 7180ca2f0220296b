package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docFiles are README.md and every page of docs/, relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("found only %d pages in %s/docs", len(pages), root)
	}
	return append([]string{filepath.Join(root, "README.md")}, pages...)
}

var (
	mdLink     = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	mdHeading  = regexp.MustCompile(`^#{1,6} +(.*?) *#*$`)
)

// prose returns the lines of a Markdown text outside its fenced code
// blocks, by line number.
func prose(text string) map[int]string {
	out := map[int]string{}
	fence := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if !fence {
			out[i+1] = line
		}
	}
	return out
}

// anchors returns the heading anchors of a Markdown text as GitHub makes
// them: lower case, punctuation dropped, spaces as hyphens, a repeated
// anchor suffixed -1, -2, ...
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose(text) {
		m := mdHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestDocLinks: every relative link of README.md and docs/*.md (outside
// code) names a file of the repository, and a #fragment names a heading of
// the Markdown file it points to.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	texts := map[string]string{} // cleaned path → text, read once
	read := func(path string) (string, error) {
		if s, ok := texts[path]; ok {
			return s, nil
		}
		b, err := os.ReadFile(path)
		texts[path] = string(b)
		return string(b), err
	}
	links := 0
	for _, file := range docFiles(t, root) {
		text, err := read(filepath.Clean(file))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range prose(text) {
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, "``"), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				path, frag, _ := strings.Cut(target, "#")
				dest := filepath.Clean(file)
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), path)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %q: no such file", file, n, target)
						continue
					}
				}
				if frag == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				dtext, err := read(dest)
				if err != nil {
					t.Errorf("%s:%d: link %q: %v", file, n, target, err)
					continue
				}
				if !anchors(dtext)[frag] {
					t.Errorf("%s:%d: link %q: no heading #%s in %s", file, n, target, frag, dest)
				}
			}
		}
	}
	if links < 20 {
		t.Fatalf("found only %d relative links in README.md and docs/", links)
	}
}

// TestAnchors pins the anchor rule on headings of the kinds the pages use.
func TestAnchors(t *testing.T) {
	got := anchors("# Title\n## Time limits, as the contest ran them\n## What eval, ab and the reports say about a bot\n" +
		"## Paper.io: paperpaths2\n## Notes\n## Notes\n```\n## not a heading\n```\n## Tune `your` own bot\n")
	for _, want := range []string{"title", "time-limits-as-the-contest-ran-them", "what-eval-ab-and-the-reports-say-about-a-bot",
		"paperio-paperpaths2", "notes", "notes-1", "tune-your-own-bot"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block made an anchor")
	}
}
