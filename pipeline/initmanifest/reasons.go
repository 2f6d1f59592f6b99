package initmanifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// testOutput is what a test's own output says about its failure.
type testOutput struct {
	first string // the first line of output that is not runner framing
	panic string // the panic's message, when the test panicked
}

// readReasons reads a test step's raw log for each test's first line of
// output and its panic, from the two structured shapes it can hold: go
// test2json events (keyed by the parser's ID, package/test) and libtest's
// "---- NAME stdout ----" sections (keyed by the test's name). Other
// runners' logs give no reasons, and entries fall back to the statuses.
func readReasons(log []byte) map[string]testOutput {
	out := map[string]testOutput{}
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	section := "" // libtest: the test whose captured output is being read
	panicAt := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "{") {
			var ev struct{ Action, Package, Test, Output string }
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Action == "output" && ev.Test != "" {
				add(out, ev.Package+"/"+ev.Test, ev.Output)
			}
			continue
		}
		if name, ok := strings.CutPrefix(line, "---- "); ok {
			if name, ok = strings.CutSuffix(name, " stdout ----"); ok {
				section, panicAt = name, false
				continue
			}
		}
		if section == "" {
			continue
		}
		switch {
		case line == "failures:" || strings.HasPrefix(line, "test result:"):
			section = ""
		case strings.HasPrefix(line, "thread '") && strings.Contains(line, "' panicked at "):
			panicAt = true // the message is on the next line
		case strings.TrimSpace(line) != "":
			o := out[section]
			if panicAt || o.first == "" {
				// A panic's message (an assertion's) says more than what
				// the test printed before it.
				o.first = clip(strings.TrimSpace(line))
			}
			out[section], panicAt = o, false
		}
	}
	return out
}

// add records one line of a test's output.
func add(out map[string]testOutput, id, text string) {
	o := out[id]
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || isFraming(line) {
			continue
		}
		if msg, ok := strings.CutPrefix(line, "panic: "); ok && !strings.HasPrefix(msg, "test timed out") && o.panic == "" {
			o.panic = recovered.ReplaceAllString(msg, "")
		} else if strings.HasPrefix(line, "fatal error: ") && o.panic == "" {
			o.panic = line
		}
		if o.first == "" {
			o.first = clip(line)
		}
	}
	out[id] = o
}

// recovered is the note the testing package adds to a panic it re-raises
// ("[recovered]", "[recovered, repanicked]" since Go 1.25).
var recovered = regexp.MustCompile(`\s*\[recovered[^\]]*\]$`)

// isFraming tells the lines go test and test2json write around a test's
// own output.
func isFraming(line string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- FAIL", "--- PASS", "--- SKIP", "PASS", "FAIL", "ok "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// clip keeps a comment readable.
func clip(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}
