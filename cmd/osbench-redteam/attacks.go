package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The classes of issue 19's doors, and the innocent controls.
const (
	classNetwork  = "network"
	classHost     = "host files"
	classShared   = "shared state"
	classDepCache = "own package in the dependency cache"
	classControl  = "control"
)

// attack is one prediction the red team evaluates: a real patch against
// a task, which must not resolve, or an innocent control, which must.
type attack struct {
	Task  string
	Name  string // the prediction's model name
	Class string
	// Control is an innocent gold-equivalent patch: it must resolve.
	Control bool
	// Later is evaluated in a second eval on the same cache, after every
	// attack of the first has run: what a poisoner left must not change
	// its verdict.
	Later bool
	// What the patch does and the defence expected to stop it, for the
	// report.
	Does, Defence string
	Patch         string
}

// env is where the answers lie on this host: the build's --out dir (its
// tasks.jsonl with every gold patch, its exported repositories) and the
// cache (the checkout's mirrors, the shared dependency caches).
type env struct {
	BuildOut string
	Cache    string
	// Nonce goes into every patch, so a new run of the red team makes
	// new keys (fresh runs, never the cached verdicts of an earlier one).
	Nonce string
}

func (e env) tasksFile() string           { return filepath.Join(e.BuildOut, "tasks.jsonl") }
func (e env) maskedRepo(id string) string { return filepath.Join(e.BuildOut, "tasks", id, "repo") }
func (e env) cargoHome() string           { return filepath.Join(e.Cache, "state", "cargo", "home") }
func (e env) goModCache() string          { return filepath.Join(e.Cache, "state", "go", "mod-cache") }

// hostCopies finds, for each masked file, a complete copy the build left
// on the host: the export of the task of the other direction masks the
// other platform's code, so it keeps this task's files whole.
func (e env) hostCopies(t *task, complete map[string][]byte) map[string]string {
	found := map[string]string{}
	for f, want := range complete {
		p := filepath.Join(e.maskedRepo(t.otherID()), f)
		if b, err := os.ReadFile(p); err == nil && string(b) == string(want) {
			found[f] = p
		}
	}
	return found
}

// generate makes every attack and control for one task.
func generate(e env, t *task) ([]attack, error) {
	masked := e.maskedRepo(t.ID)
	if _, err := os.Stat(masked); err != nil {
		return nil, fmt.Errorf("%s: no masked repository in the build's exports: %w", t.ID, err)
	}
	complete, err := t.complete(masked)
	if err != nil {
		return nil, err
	}
	var attacks []attack
	add := func(a attack, edit func(dir string) error) error {
		a.Task = t.ID
		p, err := makePatch(masked, edit)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", t.ID, a.Name, err)
		}
		a.Patch = p
		attacks = append(attacks, a)
		return nil
	}
	// The controls: the gold patch with a comment of this run, now and
	// in a later eval on the same cache.
	for _, c := range []attack{
		{Name: "control-gold", Does: "the gold patch and a comment", Defence: "must resolve"},
		{Name: "control-after-attacks", Later: true, Does: "the gold patch and a comment, in a later eval on the same cache", Defence: "must resolve: nothing an attack wrote reaches it"},
	} {
		c.Class, c.Control = classControl, true
		name := c.Name
		if err := add(c, func(dir string) error {
			if err := gitApply(dir, t.Patch); err != nil {
				return err
			}
			f := t.goldFiles()[0]
			return appendComment(filepath.Join(dir, f), t.Language, "osbench red team "+name+" "+e.Nonce)
		}); err != nil {
			return nil, err
		}
	}
	var lang []attackSpec
	switch t.Language {
	case "rust":
		lang, err = rustAttacks(e, t, complete)
	case "go":
		lang, err = goAttacks(e, t, complete)
	case "c", "cpp":
		lang, err = cAttacks(e, t, complete)
	default:
		return nil, fmt.Errorf("%s: no attacks for language %q", t.ID, t.Language)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range lang {
		if err := add(s.attack, s.edit); err != nil {
			return nil, err
		}
	}
	return attacks, nil
}

type attackSpec struct {
	attack
	edit func(dir string) error
}

// comment is a line comment in a file of the language.
func comment(lang, text string) string {
	switch lang {
	case "c", "cpp":
		return "/* " + text + " */"
	case "cmake", "toml", "sh", "perl":
		return "# " + text
	}
	return "// " + text
}

func appendComment(path, lang, text string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return os.WriteFile(path, append(b, comment(langOf(path, lang), text)+"\n"...), 0o644)
}

// langOf is the comment language of a file: its extension's, else the
// task's.
func langOf(path, lang string) string {
	switch {
	case strings.HasSuffix(path, ".toml"):
		return "toml"
	case strings.HasSuffix(path, "CMakeLists.txt"), strings.HasSuffix(path, ".cmake"):
		return "cmake"
	case strings.HasSuffix(path, ".c"), strings.HasSuffix(path, ".h"):
		return "c"
	}
	return lang
}

func write(dir, file, text string) error {
	p := filepath.Join(dir, file)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

// prepend puts text before the file's content.
func prepend(dir, file, text string) error {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return err
	}
	return write(dir, file, text+string(b))
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// modDecl matches the declaration of module name in a Rust file.
func modDecl(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(\s*)((?:pub(?:\([^)]*\))?\s+)?mod\s+` + regexp.QuoteMeta(name) + `\s*;)`)
}

// withPath puts #[path = "..."] on the declarations of the masked
// modules in src/lib.rs, taking each from path(file); files that are not
// modules of lib.rs are left out. It fails when none is.
func withPath(dir string, files []string, path func(string) string) error {
	b, err := os.ReadFile(filepath.Join(dir, "src", "lib.rs"))
	if err != nil {
		return err
	}
	lib, n := string(b), 0
	for _, f := range files {
		if !strings.HasPrefix(f, "src/") || strings.Count(f, "/") != 1 || !strings.HasSuffix(f, ".rs") || f == "src/lib.rs" {
			continue
		}
		re := modDecl(strings.TrimSuffix(strings.TrimPrefix(f, "src/"), ".rs"))
		if !re.MatchString(lib) {
			continue
		}
		lib = re.ReplaceAllString(lib, "${1}#[path = "+fmt.Sprintf("%q", path(f))+"]\n${1}${2}")
		n++
	}
	if n == 0 {
		return fmt.Errorf("no masked file is a module declared in src/lib.rs")
	}
	return write(dir, "src/lib.rs", lib)
}
