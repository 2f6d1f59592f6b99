package taskpkg

import (
	"fmt"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
	_ "github.com/osbench/osbench/plugins/lang/all" // the languages' names
)

// platformNames spells platform identifiers the way people write them.
var platformNames = map[string]string{
	"linux":   "Linux",
	"windows": "Windows",
	"darwin":  "macOS",
}

// languageName spells a manifest's language identifier the way people
// write it: each language's own spelling (plugins/lang, Prompt.Name), with
// "c++" taken for "cpp".
func languageName(id string) string {
	name := strings.ToLower(id)
	if name == "c++" {
		name = lang.CPP
	}
	if l, ok := lang.Lookup(name); ok {
		return l.Prompt.Name
	}
	return id
}

// Instruction is the problem statement of a task: the repository was
// written for the source platform, the agent must make it work on the
// target, the target's tests decide, the source's behaviour must stay, and
// tests are not to be edited. It says nothing of where code was removed:
// finding that is the task. Unknown platform and language identifiers are
// used as given.
func Instruction(repository, source, target, language string) string {
	src, tgt := displayName(platformNames, source), displayName(platformNames, target)
	var b strings.Builder
	fmt.Fprintf(&b, "The %s repository %q has been developed for %s only. ", languageName(language), repository, src)
	fmt.Fprintf(&b, "Port it to %s: whatever it does on %s it should also do correctly on %s.\n\n", tgt, src, tgt)
	b.WriteString("Requirements:\n")
	fmt.Fprintf(&b, "- The project's test suite, run on %s, must pass.\n", tgt)
	fmt.Fprintf(&b, "- Behaviour on %s must not change: every test that passes on %s today must still pass there.\n", src, src)
	b.WriteString("- Do not add, edit or delete test files; change only the code under test (and its build files, if needed).\n")
	return b.String()
}

func displayName(names map[string]string, id string) string {
	if name, ok := names[strings.ToLower(id)]; ok {
		return name
	}
	return id
}
