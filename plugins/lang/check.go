package lang

import (
	"errors"
	"fmt"
	"strings"
)

// Check reports every part a language of r lacks, one error per part,
// each naming the language, the part and where it comes from; nil when
// every language is whole. The conformance suite (plugins/lang/langtest)
// starts with it, so a half-added language fails a test that says what is
// missing.
func (r *Registry) Check() error {
	var errs []error
	for _, name := range r.Names() {
		errs = append(errs, r.checkOne(name)...)
	}
	return errors.Join(errs...)
}

// CheckLanguage is Check for one language.
func (r *Registry) CheckLanguage(name string) error { return errors.Join(r.checkOne(name)...) }

func (r *Registry) checkOne(name string) []error {
	var errs []error
	missing := func(part, where string) {
		errs = append(errs, fmt.Errorf("language %q: no %s (%s)", name, part, where))
	}
	l, ok := r.Lookup(name)
	if !ok {
		missing("Language", "a package under plugins/lang registers it with lang.Register; rule sets alone were attached")
	} else {
		if len(l.Extensions) == 0 {
			missing("file extensions", "Language.Extensions")
		}
		if l.IsTestName == nil {
			missing("test-file rule", "Language.IsTestName")
		}
		if l.SkipStyles == nil {
			missing("skip styles", "Language.SkipStyles; an empty list says its runners have none")
		}
		for i, st := range l.SkipStyles {
			if st.Name == "" || st.Args == nil {
				missing(fmt.Sprintf("name or Args of skip style %d", i), "Language.SkipStyles")
			}
		}
		for _, platform := range []string{"linux", "windows"} {
			if _, ok := l.Probes[platform]; !ok {
				missing("toolchain probes for "+platform, "Language.Probes; an empty list says the toolchain is pinned another way")
			}
		}
		for row := range l.Probes {
			platform, executor, perExecutor := strings.Cut(row, "/")
			if platform != "linux" && platform != "windows" && platform != "darwin" || perExecutor && executor == "" {
				errs = append(errs, fmt.Errorf("language %q: probe row %q: want a platform (linux, windows, darwin) or platform/executor", name, row))
			}
		}
		if l.BuildCheck == nil {
			missing("default build check", "Language.BuildCheck; a func returning nil says there is none")
		}
		if l.Prompt.Name == "" || l.Prompt.Conditional == "" || l.Prompt.API == "" || l.Prompt.Placeholders == "" {
			missing("LM prompt material", "Language.Prompt: Name, Conditional, API and Placeholders")
		}
		if l.CacheEnv == nil {
			missing("package-cache variables", "Language.CacheEnv; an empty list says there are none")
		}
		if tc := l.TestCode; tc.None == "" && (tc.Restore == nil || tc.Modules == nil || tc.Version == "") {
			missing("in-source test code rules", "Language.TestCode: Restore, Modules and Version, or None saying why there is no test code in source files")
		}
		if l.Evidence.Read == nil || l.Evidence.Version == "" {
			missing("verify front end", "Language.Evidence: Read, which reads a file into an evidence.File, and its Version")
		}
	}
	if _, ok := r.Verify(name); !ok {
		missing("verify rules", "lang.AttachVerify, by plugins/verify or the language's package")
	}
	if _, ok := r.Mask(name); !ok {
		missing("mask rules", "lang.AttachMask, by plugins/mask or the language's package")
	}
	return errs
}
