package lm

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/plugins/verify"
	"github.com/osbench/osbench/schemas"
)

// LMMasker is a mask.Masker that asks a language model to write the quiet
// placeholders (DESIGN §2.4), for regions the rules masker cannot take
// apart or languages it does not know.
//
// The model sees the whole file with line numbers, the regions with their
// verdicts and the rules of a quiet placeholder for the file's language,
// and answers with one edit per region: the lines it replaces and their
// replacement. The answer is checked against an embedded JSON Schema, every
// edit must lie inside its region and change it, and a Go result must
// parse, keep every top-level declaration and every import it still needs
// (masking may not touch the import block, which lies outside the regions).
// A refused answer is asked again once, with the reason; a second refusal
// is a *MaskError naming the regions at fault, and the caller falls back to
// the rules masker. C, C++ and Rust results are not compiled here: the
// build of the masked repository catches what the model broke.
//
// Lines outside the regions are copied byte for byte, line endings
// included; a replacement takes the line ending of the lines it replaces.
type LMMasker struct {
	cfg      Config
	provider Provider
	name     string // "lm:<provider>/<model>", in every Action's Detail
}

var _ mask.Masker = (*LMMasker)(nil)

// KindLMEdit is the mask.Action kind of a region the model replaced.
const KindLMEdit = "lm-edit"

// MaskPromptVersion names the masking prompt and its answer schema; it
// enters LMMasker.Key. Change it whenever either changes.
const MaskPromptVersion = "lm-mask/1"

// maskSchemaJSON is the JSON Schema every masking answer must satisfy.
//
//go:embed mask.schema.json
var maskSchemaJSON []byte

var maskSchema = compileSchema("urn:osbench:lm-mask-answer", maskSchemaJSON)

// NewMasker returns a masker that asks p with the model and sampling
// parameters of cfg. p is normally NewProvider(cfg).
func NewMasker(cfg Config, p Provider) (*LMMasker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errors.New("lm masker: nil provider")
	}
	return &LMMasker{cfg: cfg.withDefaults(), provider: p, name: "lm:" + cfg.Provider + "/" + cfg.Model}, nil
}

// Name returns "lm:<provider>/<model>".
func (m *LMMasker) Name() string { return m.name }

// Key is Config.Key for the masking prompt: the cache key part of a step
// that masks with m.
func (m *LMMasker) Key() string { return m.cfg.keyFor(MaskPromptVersion) }

// MaskError says the model gave no usable placeholder for some regions of
// a file, after every attempt. The caller masks the file another way.
type MaskError struct {
	Path     string
	Regions  []schemas.Region // the regions the last refusal was about
	Attempts int
	Reason   string // why the last answer was refused
}

func (e *MaskError) Error() string {
	spans := make([]string, len(e.Regions))
	for i, r := range e.Regions {
		spans[i] = fmt.Sprintf("%d-%d", r.Start, r.End)
	}
	return fmt.Sprintf("lm mask %s: no usable placeholder for region %s after %d attempts: %s",
		e.Path, strings.Join(spans, ", "), e.Attempts, e.Reason)
}

// Mask implements mask.Masker. An error means the input is unusable, the
// provider failed, or the model's answers were refused (*MaskError).
func (m *LMMasker) Mask(ctx context.Context, in mask.Input) (mask.Output, error) {
	if err := ctx.Err(); err != nil {
		return mask.Output{}, err
	}
	f, err := newMaskFile(in)
	if err != nil {
		return mask.Output{}, err
	}
	if len(f.regions) == 0 {
		return mask.Output{Source: bytes.Clone(in.Source), Actions: f.skipped}, nil
	}
	prompt := maskUserPrompt(f)
	req := Request{
		Model:       m.cfg.Model,
		System:      maskSystemPrompt(f.lang),
		Prompt:      prompt,
		Temperature: m.cfg.Temperature,
		MaxTokens:   m.cfg.MaxTokens,
	}
	var refused *maskProblem
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			req.Prompt = retryPrompt(prompt, refused)
		}
		resp, err := m.provider.Complete(ctx, req)
		if err != nil {
			return mask.Output{}, fmt.Errorf("lm mask %s: %w", in.Path, err)
		}
		out, problem := m.apply(f, resp.Text)
		if problem == nil {
			return out, nil
		}
		refused = problem
	}
	return mask.Output{}, &MaskError{Path: in.Path, Regions: refused.regions, Attempts: attempts, Reason: refused.msg}
}

// maskProblem is why an answer was refused, worded for the model, and the
// regions it concerns.
type maskProblem struct {
	regions []schemas.Region
	msg     string
}

func (p *maskProblem) Error() string { return p.msg }

// apply turns the model's text into the masked file, or says what is wrong
// with it.
func (m *LMMasker) apply(f *maskFile, text string) (mask.Output, *maskProblem) {
	a, err := parseMaskAnswer(text)
	if err != nil {
		return mask.Output{}, &maskProblem{regions: f.plainRegions(), msg: err.Error()}
	}
	placed, problem := f.place(a.Edits)
	if problem != nil {
		return mask.Output{}, problem
	}
	out := f.rewrite(placed)
	if f.lang == verify.LangGo {
		if problem := f.checkGo(out, placed); problem != nil {
			return mask.Output{}, problem
		}
	}
	actions := append([]mask.Action(nil), f.skipped...)
	for _, p := range placed {
		actions = append(actions, mask.Action{Region: p.region.Region, Kind: KindLMEdit,
			Detail: fmt.Sprintf("%s replaced lines %d-%d with %d lines", m.name, p.start, p.end, len(p.lines))})
	}
	sort.SliceStable(actions, func(i, j int) bool { return actions[i].Region.Start < actions[j].Region.Start })
	return mask.Output{Source: out, Actions: actions}, nil
}

// maskAnswer is a decoded, schema-valid masking answer.
type maskAnswer struct {
	Edits []maskEdit `json:"edits"`
}

// maskEdit replaces lines Start..End (inclusive) by Replacement, whose
// lines are separated by "\n"; an empty Replacement deletes the lines.
type maskEdit struct {
	Start       int    `json:"start"`
	End         int    `json:"end"`
	Replacement string `json:"replacement"`
}

// parseMaskAnswer reads a model's text as a masking answer, like
// parseAnswer: bare or fenced JSON, checked against the schema.
func parseMaskAnswer(text string) (maskAnswer, error) {
	var a maskAnswer
	if err := decodeAnswer(text, maskSchema, &a); err != nil {
		return maskAnswer{}, err
	}
	for i, e := range a.Edits {
		if e.End < e.Start {
			return maskAnswer{}, fmt.Errorf("the answer does not match the required format:\n- at /edits/%d: end %d is before start %d", i, e.End, e.Start)
		}
	}
	return a, nil
}

// maskFile is one checked input: its lines and the regions to mask.
type maskFile struct {
	path    string
	lang    string
	src     []byte
	lines   []lineSpan
	regions []schemas.VerifiedRegion // sorted, disjoint, no false positives
	skipped []mask.Action            // the false positives
	goFile  *ast.File                // the parsed original, for Go
	goFset  *token.FileSet
}

// lineSpan is one line of a file: src[start:end] with its terminator,
// text without it.
type lineSpan struct {
	start, end int
	text       string
	eol        string // "\n", "\r\n", or "" for a last line without one
}

func newMaskFile(in mask.Input) (*maskFile, error) {
	if mask.IsTestFile(in.Path) {
		return nil, fmt.Errorf("lm mask %s: test files are never masked", in.Path)
	}
	f := &maskFile{path: in.Path, src: in.Source, lines: splitLineSpans(in.Source)}
	f.lang = in.Language
	if byExt := verify.LanguageOf(in.Path); f.lang == "" || (f.lang == verify.LangC && byExt == verify.LangCPP) {
		f.lang = byExt // a manifest's "c" covers C++ projects too
	}
	if _, ok := placeholderRules[f.lang]; !ok {
		return nil, fmt.Errorf("lm mask %s: unsupported language %q", in.Path, f.lang)
	}
	for _, r := range in.Regions {
		if r.File != "" && r.File != in.Path {
			return nil, fmt.Errorf("lm mask %s: region %d-%d belongs to %s", in.Path, r.Start, r.End, r.File)
		}
		if r.Start < 1 || r.End < r.Start || r.End > len(f.lines) {
			return nil, fmt.Errorf("lm mask %s: region %d-%d is outside the file's %d lines", in.Path, r.Start, r.End, len(f.lines))
		}
		if r.Label == schemas.LabelFalsePositive {
			f.skipped = append(f.skipped, mask.Action{Region: r.Region, Kind: mask.KindSkipped, Detail: "verdict false-positive: never masked"})
			continue
		}
		f.regions = append(f.regions, r)
	}
	sort.SliceStable(f.regions, func(i, j int) bool { return f.regions[i].Start < f.regions[j].Start })
	for i := 1; i < len(f.regions); i++ {
		// One edit per region: overlapping regions would give overlapping edits.
		if prev, r := f.regions[i-1], f.regions[i]; r.Start <= prev.End {
			return nil, fmt.Errorf("lm mask %s: regions %d-%d and %d-%d overlap", in.Path, prev.Start, prev.End, r.Start, r.End)
		}
	}
	if f.lang == verify.LangGo && len(f.regions) > 0 {
		f.goFset = token.NewFileSet()
		file, err := parser.ParseFile(f.goFset, in.Path, in.Source, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("lm mask %s: %w", in.Path, err)
		}
		f.goFile = file
	}
	return f, nil
}

// splitLineSpans splits src into lines, like splitLines, keeping where
// each line is and how it ends.
func splitLineSpans(src []byte) []lineSpan {
	var lines []lineSpan
	for start := 0; start < len(src); {
		end, eol := len(src), ""
		if nl := bytes.IndexByte(src[start:], '\n'); nl >= 0 {
			end, eol = start+nl+1, "\n"
			if nl > 0 && src[start+nl-1] == '\r' {
				eol = "\r\n"
			}
		}
		text := string(src[start : end-len(eol)])
		lines = append(lines, lineSpan{start: start, end: end, text: text, eol: eol})
		start = end
	}
	return lines
}

func (f *maskFile) plainRegions() []schemas.Region {
	rs := make([]schemas.Region, len(f.regions))
	for i, r := range f.regions {
		rs[i] = r.Region
	}
	return rs
}

// placedEdit is an edit matched to its region, its replacement split into
// lines, and where those lines are in the result (filled by rewrite).
type placedEdit struct {
	region           schemas.VerifiedRegion
	start, end       int
	lines            []string
	outStart, outEnd int // outEnd < outStart when the edit deleted the lines
}

// place matches every edit to the region holding it, and refuses an answer
// with an edit outside the regions, a region edited twice or not at all,
// or an edit that changes nothing.
func (f *maskFile) place(edits []maskEdit) ([]placedEdit, *maskProblem) {
	var problems []string
	var blamed []schemas.Region
	blame := func(r schemas.Region, format string, args ...any) {
		problems = append(problems, fmt.Sprintf(format, args...))
		blamed = append(blamed, r)
	}
	byRegion := map[int]*placedEdit{}
	twice := map[int]bool{}
	for _, e := range edits {
		i := sort.Search(len(f.regions), func(i int) bool { return f.regions[i].End >= e.Start })
		if i == len(f.regions) || e.Start < f.regions[i].Start || e.End > f.regions[i].End {
			msg := fmt.Sprintf("the edit of lines %d-%d is not inside one region; an edit may only replace lines of its own region", e.Start, e.End)
			touched := false
			for _, r := range f.regions {
				if r.Start <= e.End && e.Start <= r.End {
					blame(r.Region, "%s", msg)
					touched = true
				}
			}
			if !touched {
				problems = append(problems, msg)
			}
			continue
		}
		if byRegion[i] != nil {
			twice[i] = true
			continue
		}
		byRegion[i] = &placedEdit{region: f.regions[i], start: e.Start, end: e.End, lines: replacementLines(e.Replacement)}
	}
	var placed []placedEdit
	for i, r := range f.regions {
		p := byRegion[i]
		switch {
		case twice[i]:
			blame(r.Region, "region %d-%d has more than one edit; give exactly one", r.Start, r.End)
		case p == nil:
			blame(r.Region, "region %d-%d has no edit", r.Start, r.End)
		case f.unchanged(p):
			blame(r.Region, "the edit of region %d-%d leaves its lines as they are; replace them by a placeholder", r.Start, r.End)
		default:
			placed = append(placed, *p)
		}
	}
	if len(problems) > 0 {
		if len(blamed) == 0 {
			blamed = f.plainRegions()
		}
		return nil, &maskProblem{regions: compactRegions(blamed), msg: "the edits do not fit the regions:\n- " + strings.Join(problems, "\n- ")}
	}
	return placed, nil
}

// replacementLines splits a replacement into lines; one final newline is a
// terminator, not an empty last line, and "" is no lines at all.
func replacementLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func (f *maskFile) unchanged(p *placedEdit) bool {
	if len(p.lines) != p.end-p.start+1 {
		return false
	}
	for i, l := range p.lines {
		if l != f.lines[p.start-1+i].text {
			return false
		}
	}
	return true
}

// rewrite applies the placed edits (sorted, disjoint) and records where
// each replacement ended up.
func (f *maskFile) rewrite(placed []placedEdit) []byte {
	var out bytes.Buffer
	at := 0
	for i := range placed {
		p := &placed[i]
		first, last := f.lines[p.start-1], f.lines[p.end-1]
		out.Write(f.src[at:first.start])
		p.outStart = bytes.Count(out.Bytes(), []byte("\n")) + 1
		p.outEnd = p.outStart + len(p.lines) - 1
		// The replacement ends the way the replaced lines did, so a file
		// keeps its line endings and a last line without newline stays so.
		eol := first.eol
		if eol == "" {
			eol = "\n"
		}
		for j, l := range p.lines {
			out.WriteString(l)
			if j < len(p.lines)-1 {
				out.WriteString(eol)
			} else {
				out.WriteString(last.eol)
			}
		}
		at = last.end
	}
	out.Write(f.src[at:])
	return out.Bytes()
}

// checkGo refuses a Go result that does not parse, lost a top-level
// declaration (other files may use it) or left an import without use.
func (f *maskFile) checkGo(out []byte, placed []placedEdit) *maskProblem {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.path, out, parser.SkipObjectResolution)
	if err != nil {
		line := 0
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			line = list[0].Pos.Line
			err = list[0]
		}
		return &maskProblem{regions: editAt(placed, line),
			msg: fmt.Sprintf("with the edits applied the file no longer parses as Go: %v (line %d of the edited file)", err, line)}
	}
	var problems []string
	var blamed []schemas.Region
	kept := map[string]bool{}
	for _, d := range topLevelDecls(fset, file) {
		kept[d.name] = true
	}
	for _, d := range topLevelDecls(f.goFset, f.goFile) {
		if !kept[d.name] {
			problems = append(problems, fmt.Sprintf("the declaration of %s is gone; keep every declaration and give functions a placeholder body", d.name))
			blamed = append(blamed, regionsAt(placed, d.line)...)
		}
	}
	stillUsed := usedImports(file)
	for name := range usedImports(f.goFile) {
		if !stillUsed[name] {
			problems = append(problems, fmt.Sprintf("package %s is imported but no longer used, and the import lies outside the regions; keep a use of it inside the regions or remove less", name))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	if len(blamed) == 0 {
		blamed = plainOf(placed)
	}
	return &maskProblem{regions: compactRegions(blamed), msg: "with the edits applied the Go file breaks:\n- " + strings.Join(problems, "\n- ")}
}

// editAt returns the region whose replacement holds line of the result or
// ends just before it (a parser often notices a cut-off expression at the
// next token), or every edited region when none does (an unbalanced brace
// is reported far away, at the end of the file).
func editAt(placed []placedEdit, line int) []schemas.Region {
	for _, p := range placed {
		if p.outStart <= line && line <= max(p.outEnd, p.outStart-1)+1 {
			return []schemas.Region{p.region.Region}
		}
	}
	return plainOf(placed)
}

// regionsAt returns the edited regions holding line of the original.
func regionsAt(placed []placedEdit, line int) []schemas.Region {
	var rs []schemas.Region
	for _, p := range placed {
		if p.start <= line && line <= p.end {
			rs = append(rs, p.region.Region)
		}
	}
	return rs
}

func plainOf(placed []placedEdit) []schemas.Region {
	rs := make([]schemas.Region, len(placed))
	for i, p := range placed {
		rs[i] = p.region.Region
	}
	return rs
}

// compactRegions sorts rs by start and drops repeats.
func compactRegions(rs []schemas.Region) []schemas.Region {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	out := rs[:0]
	for i, r := range rs {
		if i == 0 || r.Start != rs[i-1].Start || r.End != rs[i-1].End {
			out = append(out, r)
		}
	}
	return out
}

// goDecl is a top-level name and the line of its declaration.
type goDecl struct {
	name string
	line int
}

// topLevelDecls lists the names a Go file declares at package level;
// methods are named Type.Method.
func topLevelDecls(fset *token.FileSet, file *ast.File) []goDecl {
	var decls []goDecl
	add := func(name string, pos token.Pos) {
		if name != "_" {
			decls = append(decls, goDecl{name: name, line: fset.Position(pos).Line})
		}
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = receiverName(d.Recv.List[0].Type) + "." + name
			}
			add(name, d.Pos())
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					add(s.Name.Name, s.Pos())
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n.Name, n.Pos())
					}
				}
			}
		}
	}
	return decls
}

// receiverName is the type name of a method receiver (*T, T[P] and T).
func receiverName(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.IndexListExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// usedImports returns the names of the imported packages file refers to
// (pkg.Name). A package's name is taken to be the last element of its path
// unless the import renames it; the guess is the same before and after
// masking, which is all the comparison needs.
func usedImports(file *ast.File) map[string]bool {
	imported := map[string]bool{}
	for _, spec := range file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name != "_" && name != "." {
			imported[name] = true
		}
	}
	used := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && imported[id.Name] {
				used[id.Name] = true
			}
		}
		return true
	})
	return used
}

// placeholderRules say, per language, what a quiet placeholder is made of
// (plugins/lang/<name>, Prompt.Placeholders). Like the verification
// prompt, this wording is versioned by MaskPromptVersion.
var placeholderRules = func() map[string]struct{ name, rules string } {
	rules := map[string]struct{ name, rules string }{}
	for _, name := range lang.Names() {
		if l, ok := lang.Lookup(name); ok && l.Prompt.Placeholders != "" {
			rules[name] = struct{ name, rules string }{l.Prompt.Name, l.Prompt.Placeholders}
		}
	}
	return rules
}()

// maskSystemPrompt is the instructions for masking a file of language lang.
func maskSystemPrompt(lang string) string {
	rules := placeholderRules[lang]
	return fmt.Sprintf(`You edit %s source code for a benchmark of cross-platform code migration.
Some regions of a file hold code that exists only for one platform. Replace each region by a quiet placeholder: code that still compiles and never crashes, but no longer does what the region did, so the platform's tests fail until someone writes the code again.

A quiet placeholder:
- does not do the region's work in any other way: no rewrite, no simpler version, no call to a helper that does the same;
- has no comment, no TODO and no hint of what was removed;
- keeps the indentation of the surrounding code and leaves the code around the region well formed (an opening brace inside the region is closed inside it).
In %s:
%s

Change only lines inside the regions; the lines around them stay as they are.

Answer with one JSON object and nothing else, in exactly this shape, with one edit per region:
{"edits":[{"start":N,"end":N,"replacement":"..."}]}
An edit replaces the lines start to end (inclusive, numbered as in the file) by the replacement, whose lines are separated by \n. Use the start and end given for the region. An empty replacement deletes the lines.
`, rules.name, rules.name, rules.rules)
}

// maskUserPrompt lists the file, its lines numbered and the lines of the
// regions marked, followed by the regions and their verdicts.
func maskUserPrompt(f *maskFile) string {
	inRegion := map[int]bool{}
	for _, r := range f.regions {
		for n := r.Start; n <= r.End; n++ {
			inRegion[n] = true
		}
	}
	width := len(strconv.Itoa(len(f.lines)))
	var b strings.Builder
	fmt.Fprintf(&b, "File: %s\n", f.path)
	b.WriteString("Lines marked >> lie in a region to replace. Each line is: number, marker, code.\n\n")
	for i, l := range f.lines {
		marker := "  "
		if inRegion[i+1] {
			marker = ">>"
		}
		fmt.Fprintf(&b, "%*d %s %s\n", width, i+1, marker, l.text)
	}
	b.WriteString("\nRegions to replace:\n")
	for _, r := range f.regions {
		fmt.Fprintf(&b, "- start %d, end %d: %s", r.Start, r.End, r.Label)
		if r.FunctionalArea != "" {
			fmt.Fprintf(&b, " (%s)", r.FunctionalArea)
		}
		if r.Explanation != "" {
			fmt.Fprintf(&b, ": %s", strings.Join(strings.Fields(r.Explanation), " "))
		}
		b.WriteString("\n")
	}
	return b.String()
}
