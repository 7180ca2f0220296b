package reports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gauntlet/internal/untrusted"
)

// BrowserCheck is what a headless browser saw of an index.html: the inline
// script of the page records on <body> how many images loaded (see
// indexTemplate).
type BrowserCheck struct {
	Ready        bool     // the page's load handler ran
	ImagesTotal  int      // <img> elements
	ImagesLoaded int      // of which complete with a non-zero natural width
	Broken       []string // src of the images that did not load
	DOM          string   // the serialized DOM after the load handler
}

// OK reports whether the page loaded and every image with it.
func (c *BrowserCheck) OK() bool {
	return c.Ready && c.ImagesLoaded == c.ImagesTotal && len(c.Broken) == 0
}

// Text returns the DOM's text with the tags removed and entities decoded,
// for checking that headline numbers are shown.
func (c *BrowserCheck) Text() string {
	return html.UnescapeString(tagRE.ReplaceAllString(c.DOM, " "))
}

var (
	tagRE  = regexp.MustCompile(`<[^>]*>`)
	bodyRE = regexp.MustCompile(`<body[^>]*>`)
	attrRE = regexp.MustCompile(`(data-[a-z-]+)="([^"]*)"`)
)

// CheckInBrowser opens index (a file path) in headless Chromium (the binary
// browser, e.g. "chromium"), started with --headless --no-sandbox
// --disable-gpu --disable-background-networking, a throw-away profile and
// --virtual-time-budget so that the page's load handler runs before
// --dump-dom prints the DOM, and reads the verdict of the page's image check.
func CheckInBrowser(ctx context.Context, browser, index string) (*BrowserCheck, error) {
	dom, err := DumpDOM(ctx, browser, index, "")
	if err != nil {
		return nil, err
	}
	c := &BrowserCheck{DOM: dom}
	body := bodyRE.FindString(c.DOM)
	if body == "" {
		return nil, fmt.Errorf("%s: no <body> in the dumped DOM of %s", browser, index)
	}
	for _, m := range attrRE.FindAllStringSubmatch(body, -1) {
		v := html.UnescapeString(m[2])
		switch m[1] {
		case "data-report-ready":
			c.Ready = v == "1"
		case "data-images-total":
			c.ImagesTotal, _ = strconv.Atoi(v)
		case "data-images-loaded":
			c.ImagesLoaded, _ = strconv.Atoi(v)
		case "data-images-broken":
			c.Broken = strings.Fields(v)
		}
	}
	return c, nil
}

// DumpDOM opens the file page (with the URL fragment, if any) in headless
// Chromium and returns the serialized DOM once the page's scripts have run
// (--virtual-time-budget lets timers and load handlers fire first).
func DumpDOM(ctx context.Context, browser, page, fragment string) (string, error) {
	abs, err := filepath.Abs(page)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	url := "file://" + filepath.ToSlash(abs)
	if fragment != "" {
		url += "#" + fragment
	}
	// Headless Chromium now and then dies of a signal (SIGSEGV, SIGTRAP)
	// while it starts on a busy machine, before it has read the page: such
	// a crash says nothing of the page, so it gets one more try.
	dom, err := dumpDOM(ctx, browser, url)
	var ee *exec.ExitError
	if errors.As(err, &ee) && !ee.Exited() && ctx.Err() == nil {
		dom, err = dumpDOM(ctx, browser, url)
	}
	return dom, err
}

// dumpDOM runs one headless Chromium with a fresh profile on url.
func dumpDOM(ctx context.Context, browser, url string) (string, error) {
	profile, err := os.MkdirTemp("", "gauntlet-chromium-")
	if err != nil {
		return "", err
	}
	defer func() {
		// A profile left in the temporary directory costs disk space
		// only; the page's DOM is what the caller asked for.
		_ = os.RemoveAll(profile)
	}()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--no-first-run", "--disable-sync", "--disable-component-update",
		"--user-data-dir="+profile, "--virtual-time-budget=5000", "--dump-dom", url)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %w: %s", browser, err, untrusted.LastLines(errb.String(), 5))
	}
	return out.String(), nil
}

// FindChromium returns the headless browser tests use: $GAUNTLET_TEST_CHROMIUM,
// else chromium or chromium-browser on the PATH; "" when there is none.
func FindChromium() string {
	if p := os.Getenv("GAUNTLET_TEST_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
