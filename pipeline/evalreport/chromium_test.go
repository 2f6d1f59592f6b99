//go:build unix

package evalreport

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReportRendersInChromium opens report.html in a real headless
// Chromium and checks what the browser made of it: no console message (the
// page has no script, and its content security policy turns any attempt to
// load something into one), no injected elements, every chart present with
// every model in it.
func TestReportRendersInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not on PATH: run `make deps` to install it (`make test` does so first)")
	}
	out := t.TempDir()
	// The browser must be able to read the page whatever user it runs as.
	if err := os.Chmod(out, 0o755); err != nil {
		t.Fatal(err)
	}
	reports := fixtureReports(t)
	s, err := Write(out, reports)
	if err != nil {
		t.Fatal(err)
	}

	dom, stderr, took := dumpDOM(t, bin, filepath.Join(out, ReportHTML))
	t.Logf("chromium --dump-dom took %s", took.Round(time.Millisecond))
	if bad := consoleTrouble(stderr); len(bad) > 0 {
		t.Errorf("chromium reported trouble with the page:\n%s", strings.Join(bad, "\n"))
	}

	tags := scanTags(dom)
	if len(tags) < 100 {
		t.Fatalf("the dumped DOM has %d tags; chromium printed:\n%s", len(tags), dom)
	}
	for _, tg := range tags {
		switch tg.name {
		case "script", "link", "img", "iframe", "object", "embed", "image", "use", "foreignobject":
			t.Errorf("the page holds a <%s> element (injected, or not self-contained)", tg.name)
		}
		for _, a := range []string{"src", "href", "xlink:href"} {
			if _, ok := tg.attrs[a]; ok {
				t.Errorf("<%s> has a %s attribute: the page must load nothing", tg.name, a)
			}
		}
	}

	charts := chartsOf(t, tags)
	var names []string
	for name := range charts {
		names = append(names, name)
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "category difficulty direction language overall" {
		t.Fatalf("charts = %s, want overall, direction, language, category and difficulty", got)
	}
	for name, c := range charts {
		if c.groups == 0 {
			t.Errorf("chart %s has no group labels", name)
		}
		for _, m := range s.Models {
			if !c.legend[m.Model] {
				t.Errorf("chart %s: no legend entry for model %q", name, m.Model)
			}
			// Every fixture model was evaluated on every task, so it has
			// both bars in every group of every chart.
			if got, want := c.bars[m.Model], 2*c.groups; got != want {
				t.Errorf("chart %s: model %q has %d bars, want %d", name, m.Model, got, want)
			}
		}
		if len(c.legend) != len(s.Models) {
			t.Errorf("chart %s: legend names %d models, want %d", name, len(c.legend), len(s.Models))
		}
	}

	rows := 0
	for _, tg := range tags {
		if tg.name == "tr" && tg.attrs["class"] != "" && tg.attrs["data-model"] != "" {
			rows++
		}
	}
	if rows != len(reports) {
		t.Errorf("the instance table has %d rows, want %d", rows, len(reports))
	}
}

// dumpDOM runs Chromium on the page and returns the DOM it serialized, its
// log and how long it took. Chromium starts helper processes, so it runs in
// its own process group and a timeout kills the whole group.
func dumpDOM(t *testing.T, bin, page string) (dom, stderr string, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-extensions", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--dump-dom", "file://"+page)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var outBuf, errBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outBuf, &errBuf
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("chromium did not finish within 60s; it printed:\n%s", errBuf.String())
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, errBuf.String())
	}
	return outBuf.String(), errBuf.String(), took
}

// consoleTrouble picks the lines of Chromium's log that are about the page:
// console messages (Chromium logs every level, errors included, as
// "INFO:CONSOLE"; content security policy violations arrive this way too),
// uncaught exceptions and failed loads. The rest of its log is about the
// machine (no D-Bus, no GPU) and says nothing about the page.
func consoleTrouble(stderr string) []string {
	var bad []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, ":CONSOLE") || strings.Contains(line, "Uncaught") ||
			strings.Contains(line, "net::ERR_") || strings.Contains(line, "Failed to load") {
			bad = append(bad, line)
		}
	}
	return bad
}

type tag struct {
	name  string // lower case; "/svg" for an end tag
	attrs map[string]string
}

// Chromium serializes the DOM with every attribute value in double quotes
// and '<', '>', '&' and '"' escaped inside them, and escapes '<' in text,
// so a tag is exactly a '<' followed by a name and quoted attributes. The
// page has no script, and its style sheet holds no '<'.
var (
	tagPattern  = regexp.MustCompile(`<(/?[A-Za-z][A-Za-z0-9:-]*)((?:\s+[^\s"'=/>]+(?:="[^"]*")?)*)\s*/?>`)
	attrPattern = regexp.MustCompile(`([^\s"'=/>]+)(?:="([^"]*)")?`)
)

func scanTags(dom string) []tag {
	var tags []tag
	for _, m := range tagPattern.FindAllStringSubmatch(dom, -1) {
		tg := tag{name: strings.ToLower(m[1]), attrs: map[string]string{}}
		for _, a := range attrPattern.FindAllStringSubmatch(m[2], -1) {
			tg.attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2])
		}
		tags = append(tags, tg)
	}
	return tags
}

// renderedChart is what one <svg data-chart> holds, by model.
type renderedChart struct {
	groups int
	legend map[string]bool
	bars   map[string]int
}

func chartsOf(t *testing.T, tags []tag) map[string]*renderedChart {
	t.Helper()
	charts := map[string]*renderedChart{}
	var cur *renderedChart
	for _, tg := range tags {
		switch {
		case tg.name == "svg":
			name := tg.attrs["data-chart"]
			if charts[name] != nil {
				t.Errorf("chart %q appears twice", name)
			}
			cur = &renderedChart{legend: map[string]bool{}, bars: map[string]int{}}
			charts[name] = cur
		case tg.name == "/svg":
			cur = nil
		case cur == nil:
		case tg.name == "text" && tg.attrs["class"] == "group":
			cur.groups++
		case tg.name == "g" && tg.attrs["class"] == "legend":
			cur.legend[tg.attrs["data-model"]] = true
		case tg.name == "rect" && tg.attrs["data-model"] != "":
			cur.bars[tg.attrs["data-model"]]++
		}
	}
	return charts
}
