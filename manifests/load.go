package manifests

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Known tells the loader which plugin names exist. The CLI fills it from the
// plugin registries; manifests does not import plugins. A nil func accepts
// every name.
type Known struct {
	Parsers, Executors, CoverageFormats, SkipStyles, Verifiers, Maskers func(name string) bool
	// Names for "did you mean" and listings in error details (optional).
	ParserNames, ExecutorNames, CoverageFormatNames, VerifierNames, MaskerNames []string
}

// LoadOptions configures Load.
type LoadOptions struct {
	Known Known
	// LookupEnv answers env(); nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Executors overrides the executor of a platform (platform name →
	// executor name, --executor on the command line) before anything that
	// depends on it is resolved: a test block's skip_under entries apply
	// under the executor that will run the platform.
	Executors map[string]string
}

// Load reads manifest files and directories (a directory means its *.hcl
// files, sorted, not recursive). It returns every repository that decoded
// without errors, sorted by name, plus the diagnostics of all files, so one
// run reports every problem; callers may still build the repositories
// returned when others had errors. A preset declared in any file is visible
// to the repositories of all of them. Set.Sources holds every file read,
// bundled presets included.
func Load(paths []string, opts LoadOptions) (*Set, hcl.Diagnostics) {
	l := newLoader(opts)
	for _, file := range l.expandPaths(paths) {
		l.loadFile(file)
	}
	return l.finish()
}

func newLoader(opts LoadOptions) *loader {
	return &loader{
		opts:      opts,
		functions: functions(opts.LookupEnv),
		set:       &Set{Sources: make(map[string][]byte)},
		presets:   make(map[string]*presetBlock),
		bundled:   make(map[string]*presetBlock),
		byName:    make(map[string]*repositoryBlock),
		agents:    make(map[string]*Agent),
	}
}

// finish resolves every repository read and sorts the results.
func (l *loader) finish() (*Set, hcl.Diagnostics) {
	for _, rb := range l.repositories {
		l.resolve(rb)
	}
	sort.Slice(l.set.Repositories, func(i, j int) bool { return l.set.Repositories[i].Name < l.set.Repositories[j].Name })
	sort.Slice(l.set.Agents, func(i, j int) bool { return l.set.Agents[i].Name < l.set.Agents[j].Name })
	l.sortDiagnostics()
	return l.set, l.diags
}

// LoadSource is Load for one manifest held in memory, as if it were the file
// name: diagnostics point into src, and relative source paths are resolved
// against name's directory. `osbench init` compiles the manifest it is about
// to write this way, so its runs are the ones a build of the file makes.
func LoadSource(name string, src []byte, opts LoadOptions) (*Set, hcl.Diagnostics) {
	l := newLoader(opts)
	l.loadSource(name, src)
	return l.finish()
}

// sortDiagnostics orders diagnostics as a reader goes through the files:
// those without a position first, then by file in load order and by
// position. The sort is stable, so diagnostics at one position keep the
// order they were found in.
func (l *loader) sortDiagnostics() {
	fileRank := make(map[string]int, len(l.files))
	for i, f := range l.files {
		fileRank[f] = i + 1
	}
	less := func(a, b *hcl.Diagnostic) bool {
		if a.Subject == nil || b.Subject == nil {
			return a.Subject == nil && b.Subject != nil
		}
		ra, rb := fileRank[a.Subject.Filename], fileRank[b.Subject.Filename]
		return ra < rb || (ra == rb && a.Subject.Start.Byte < b.Subject.Start.Byte)
	}
	sort.SliceStable(l.diags, func(i, j int) bool { return less(l.diags[i], l.diags[j]) })
}

// loader holds the state of one Load call.
type loader struct {
	opts      LoadOptions
	functions map[string]function.Function
	set       *Set
	files     []string // every file read, manifests then bundled presets, in load order
	diags     hcl.Diagnostics

	presets map[string]*presetBlock // written in manifest files, by name
	// bundled caches bundled presets, read on first use; a nil entry is a
	// preset that failed to load (its errors are reported once).
	bundled      map[string]*presetBlock
	repositories []*repositoryBlock          // declaration order, duplicates included
	byName       map[string]*repositoryBlock // the first repository of each name
	agents       map[string]*Agent           // the first agent of each name
}

// expandPaths turns the arguments into manifest file names: a directory
// stands for its *.hcl files, sorted; a file named twice is read once.
func (l *loader) expandPaths(paths []string) []string {
	var files []string
	seen := make(map[string]bool)
	add := func(file string) {
		if key := filepath.Clean(file); !seen[key] {
			seen[key] = true
			files = append(files, file)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read manifest", Detail: err.Error()})
			continue
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		entries, err := os.ReadDir(p) // sorted by name
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot list manifests", Detail: err.Error()})
			continue
		}
		found := 0
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".hcl") {
				add(filepath.Join(p, e.Name()))
				found++
			}
		}
		if found == 0 {
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "No manifests",
				Detail:   fmt.Sprintf("The directory %s holds no *.hcl files.", p),
			})
		}
	}
	return files
}

func (l *loader) loadFile(name string) {
	src, err := os.ReadFile(name)
	if err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read manifest", Detail: err.Error()})
		return
	}
	l.loadSource(name, src)
}

// loadSource decodes one manifest file's bytes; name is where they came from
// (relative source paths are resolved against its directory).
func (l *loader) loadSource(name string, src []byte) {
	dir, err := filepath.Abs(filepath.Dir(name))
	if err != nil {
		dir = filepath.Dir(name)
	}
	l.addSource(name, src)
	content, sc := l.parse(name, dir, src, fileSchema)

	for _, block := range content.Blocks.OfType("preset") {
		p, diags := decodePresetBlock(block, sc)
		l.diags = append(l.diags, diags...)
		l.addPreset(p)
	}
	for _, block := range content.Blocks.OfType("repository") {
		rb, diags := decodeRepositoryBlock(block, sc)
		l.diags = append(l.diags, diags...)
		if first, ok := l.byName[rb.Name]; ok {
			l.diags = append(l.diags, errorAt(rb.DeclRange, "Duplicate repository", fmt.Sprintf(
				"A repository named %q is already declared at %s; names must be unique across all manifests.",
				rb.Name, position(first.DeclRange))))
		} else {
			l.byName[rb.Name] = rb
		}
		// A duplicate is still resolved, so its own mistakes are reported
		// too, but only the first of a name is returned.
		l.repositories = append(l.repositories, rb)
	}
	for _, block := range content.Blocks.OfType("agent") {
		a, ok, diags := decodeAgentBlock(block, sc)
		l.diags = append(l.diags, diags...)
		l.addAgent(a, ok)
	}
}

func (l *loader) addSource(name string, src []byte) {
	l.set.Sources[name] = src
	l.files = append(l.files, name)
}

// parse parses one file, checks its top level against schema and evaluates
// its locals, returning what its blocks need to be decoded.
func (l *loader) parse(name, dir string, src []byte, schema *hcl.BodySchema) (*hcl.BodyContent, *scope) {
	sc := &scope{file: name, dir: dir, known: l.opts.Known}
	if deep := checkNesting(name, src); deep.HasErrors() {
		// Parsing it could overflow the stack: reported instead, alone.
		l.diags = append(l.diags, deep...)
		sc.ctx = &hcl.EvalContext{Functions: l.functions}
		return &hcl.BodyContent{}, sc
	}
	file, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		// The parser recovers by skipping to the end of the broken block, so
		// decoding what is left would report attributes as missing that
		// are merely unread. Syntax errors come first, alone.
		sc.ctx = &hcl.EvalContext{Functions: l.functions}
		return &hcl.BodyContent{}, sc
	}
	content, diags := file.Body.Content(schema)
	l.diags = append(l.diags, diags...)

	var locals []*localValue
	for _, block := range content.Blocks.OfType("locals") {
		values, diags := decodeLocalsBlock(block)
		l.diags = append(l.diags, diags...)
		locals = append(locals, values...)
	}
	localObject, diags := evalLocals(locals, l.functions)
	l.diags = append(l.diags, diags...)
	sc.ctx = &hcl.EvalContext{
		Variables: map[string]cty.Value{"local": localObject},
		Functions: l.functions,
	}
	return content, sc
}

// addPreset registers a preset written in a manifest file. Its name may not
// repeat another's, bundled ones included: a manifest saying preset = "go"
// must mean the same thing wherever it is loaded.
func (l *loader) addPreset(p *presetBlock) {
	for _, bundled := range Presets() {
		if p.Name == bundled {
			l.diags = append(l.diags, errorAt(p.DeclRange, "Duplicate preset", fmt.Sprintf(
				"%q is the name of a bundled preset; give this one another name.", p.Name)))
			return
		}
	}
	if first, ok := l.presets[p.Name]; ok {
		l.diags = append(l.diags, errorAt(p.DeclRange, "Duplicate preset", fmt.Sprintf(
			"A preset named %q is already declared at %s.", p.Name, position(first.DeclRange))))
		return
	}
	l.presets[p.Name] = p
}

// resolve merges a repository over its preset and, when neither has errors,
// adds the result to the set. A repository whose preset is unknown or broken
// is not resolved further: every missing value would be one more error about
// the same mistake.
func (l *loader) resolve(rb *repositoryBlock) {
	var base settings
	presetName := ""
	if rb.Preset != nil {
		if rb.Preset.Broken {
			return
		}
		presetName = rb.Preset.Value
		p, ok := l.lookupPreset(presetName)
		if !ok {
			names := append(Presets(), sortedKeys(l.presets)...)
			l.diags = append(l.diags, errorAt(rb.Preset.Expr.Range(), "Unknown preset", fmt.Sprintf(
				"No preset named %q.%s Presets: %s.", presetName, didYouMean(presetName, names), quotedList(names))))
			return
		}
		if p == nil || p.Broken {
			return
		}
		base = p.Settings
	}
	repo, ok, diags := resolveRepository(rb, presetName, base, l.opts.Executors)
	l.diags = append(l.diags, diags...)
	if ok && l.byName[rb.Name] == rb {
		l.set.Repositories = append(l.set.Repositories, repo)
	}
}

// lookupPreset finds a preset by name. found is false for a name nobody
// declares; p is nil for a bundled preset that failed to load.
func (l *loader) lookupPreset(name string) (p *presetBlock, found bool) {
	if p, ok := l.presets[name]; ok {
		return p, true
	}
	if p, ok := l.bundled[name]; ok {
		return p, true
	}
	src, ok := PresetSource(name)
	if !ok {
		return nil, false
	}
	p = l.loadBundledPreset(name, src)
	l.bundled[name] = p
	return p, true
}

// loadBundledPreset decodes presets/NAME.hcl, which must declare exactly the
// preset NAME.
func (l *loader) loadBundledPreset(name string, src []byte) *presetBlock {
	file := presetFileName(name)
	l.addSource(file, src)
	content, sc := l.parse(file, "", src, presetFileSchema)
	var found *presetBlock
	for _, block := range content.Blocks.OfType("preset") {
		p, diags := decodePresetBlock(block, sc)
		l.diags = append(l.diags, diags...)
		if p.Name != name || found != nil {
			l.diags = append(l.diags, errorAt(p.DeclRange, "Unexpected preset", fmt.Sprintf(
				"The bundled file %s must declare only the preset %q.", file, name)))
			continue
		}
		found = p
	}
	if found == nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing preset",
			Detail: fmt.Sprintf("The bundled file %s does not declare the preset %q.", file, name)})
	}
	return found
}
