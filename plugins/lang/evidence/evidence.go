// Package evidence is the platform evidence a language's verify front end
// reads from one file, in the form the rules verifier (plugins/verify)
// judges: the guards (platform conditions and the lines they cover), the
// facts (OS-specific names and literals, by line), the functions and the
// call sites. Every language package under plugins/lang fills a File for
// its own syntax (Go with go/parser, the braced languages with
// plugins/lang/braced); the judge is the same for all of them, so a File
// is all that a new language has to say about a file to be verified.
//
// The package also holds the one rule set every language shares: what a
// string or character literal's value says (Literal).
package evidence

// Fact is one fact in the text of a file that points at a label: an
// OS-only API, a path convention, a line ending, a capability probe, or a
// platform test (label platform-conditional).
type Fact struct {
	Line   int
	Label  string  // a schemas.Label*, never false-positive
	Group  string  // the feature group it suggests, snake_case
	What   string  // the text found, quoted in explanations
	Weight float64 // how strongly it points at Label, 0..1
	// Portable facts name something every OS has (syscall.EPERM,
	// syscall.SIGTERM: Go defines them on Windows too). They refine a
	// guarded region but prove nothing on their own: a shared function
	// returning syscall.EPERM is not platform code.
	Portable bool
}

// Guard is a platform condition under which some lines run: a build tag, a
// file suffix, a runtime.GOOS test, a preprocessor branch, a cfg attribute.
type Guard struct {
	Line int    // where the condition is written (0: the file name)
	Text string // the condition as written, for explanations
	Via  string // the caller through which the guard applies, if inherited
	// Cond names the condition the guard is a branch of ("if:12", "cfg"):
	// two guards with one Cond and different texts are opposite branches,
	// so a helper called under both runs everywhere.
	Cond     string
	Strength float64 // confidence that code under it is platform-specific
}

// GuardSpan is a guard over the lines [From, To].
type GuardSpan struct {
	From, To int
	Guard
}

// Func is a function (or method) over the lines [From, To], with its doc
// comment: it names the functional area of a region, passes guards from
// callers to callees, and splits a direction's regions into tasks.
type Func struct {
	Name     string
	Doc      string
	From, To int
}

// Call is a call of the function named Callee on line Line.
type Call struct {
	Callee string
	Line   int
}

// File is what a verify front end reads from one file: everything the
// language-neutral judge needs, indexed by line (1-based).
type File struct {
	Lines      int     // the number of lines, as editors count them (CountLines)
	FileGuards []Guard // guards over the whole file
	Spans      []GuardSpan
	Funcs      []Func
	Calls      []Call
	Facts      []Fact
}

// GuardsAt returns the guards of the spans that hold line, file guards
// excluded.
func (m *File) GuardsAt(line int) []Guard {
	var gs []Guard
	for _, s := range m.Spans {
		if s.From <= line && line <= s.To {
			gs = append(gs, s.Guard)
		}
	}
	return gs
}

// FuncAt returns the innermost function holding line.
func (m *File) FuncAt(line int) (Func, bool) {
	best, found := Func{}, false
	for _, f := range m.Funcs {
		if f.From <= line && line <= f.To && (!found || f.To-f.From < best.To-best.From) {
			best, found = f, true
		}
	}
	return best, found
}

// CountLines counts lines the way editors number them: a final line
// without a newline still counts.
func CountLines(src []byte) int {
	n := 0
	for _, c := range src {
		if c == '\n' {
			n++
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
