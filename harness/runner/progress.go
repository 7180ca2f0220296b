package runner

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line progress bar on a terminal (redrawn in place)
// or, on anything else (a log file, CI), a plain line every few seconds.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	label   string
	total   int
	done    int
	resumed int
	start   time.Time
	last    time.Time
	drawn   bool
}

func newProgress(w io.Writer, label string, total, resumed int) *progress {
	p := &progress{w: w, label: label, total: total, done: resumed, resumed: resumed, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	if w != nil && resumed > 0 {
		fmt.Fprintf(w, "%s: resuming, %d/%d games already stored\n", label, resumed, total)
	}
	return p
}

func (p *progress) add(n int) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	now := time.Now()
	every := 5 * time.Second
	if p.tty {
		every = 100 * time.Millisecond
	}
	if now.Sub(p.last) < every && p.done < p.total {
		return
	}
	p.last = now
	p.draw(now)
}

func (p *progress) draw(now time.Time) {
	played := p.done - p.resumed
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(played) / el
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second).String()
	}
	const width = 30
	fill := 0
	if p.total > 0 {
		fill = p.done * width / p.total
	}
	bar := strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
	line := fmt.Sprintf("%s [%s] %d/%d games  %.1f/s  ETA %s", p.label, bar, p.done, p.total, rate, eta)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		p.drawn = true
	} else {
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
