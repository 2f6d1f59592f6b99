package manifests

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Source says where a repository's code comes from. Exactly one of Path,
// Git, GoModule, Crate, Debian and Archive is set; the others are the pins
// and options that kind takes. Every kind but Path pins bytes: a commit, a
// checksum the registry vouches for, or a digest the manifest states.
type Source struct {
	Path string // absolute; a relative path is resolved against the manifest's directory

	Git    string
	Commit string

	// GoModule is "MODULE@VERSION", fetched through the Go module proxy and
	// checked against the checksum database; Sum ("h1:…"), when set, must
	// match too.
	GoModule string
	Sum      string

	// Crate is "NAME@VERSION" from crates.io, checked against the index's
	// checksum; SHA256, when set, is the .crate archive's digest.
	Crate string

	// Debian is "PACKAGE=VERSION", a Debian source package whose .dsc
	// checksums are verified; SHA256, when set, is the .dsc file's digest.
	// Packaging keeps the debian/ directory; Suite names the release whose
	// archive is searched (default "bookworm", with its updates and security
	// suites).
	Debian    string
	Packaging bool
	Suite     string

	// Archive is the URL of a tarball or zip; SHA256 (required) is its digest.
	Archive string

	SHA256 string // lower-case hex
}

// Kind names the source kind as the manifest spells it ("path", "git",
// "go_module", "crate", "debian", "archive"), or "" when none is set.
func (s Source) Kind() string {
	switch {
	case s.Path != "":
		return "path"
	case s.Git != "":
		return "git"
	case s.GoModule != "":
		return "go_module"
	case s.Crate != "":
		return "crate"
	case s.Debian != "":
		return "debian"
	case s.Archive != "":
		return "archive"
	}
	return ""
}

// DefaultDebianSuite is the Debian release searched when a debian source
// names none.
const DefaultDebianSuite = "bookworm"

// sourceForms is how diagnostics spell the choices.
const sourceForms = `path = "DIR"; git = "URL" with commit = "SHA"; go_module = "MODULE@VERSION"; ` +
	`crate = "NAME@VERSION"; debian = "PACKAGE=VERSION"; or archive = "URL" with sha256 = "HEX"`

// sourceKinds lists each kind's main attribute and the pins and options it
// takes; an option written for another kind is an error.
var sourceKinds = []struct {
	attr     string
	options  []string
	required []string
}{
	{attr: "path"},
	{attr: "git", options: []string{"commit"}, required: []string{"commit"}},
	{attr: "go_module", options: []string{"sum"}},
	{attr: "crate", options: []string{"sha256"}},
	{attr: "debian", options: []string{"sha256", "packaging", "suite"}},
	{attr: "archive", options: []string{"sha256"}, required: []string{"sha256"}},
}

var sourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "path"}, {Name: "git"}, {Name: "commit"},
		{Name: "go_module"}, {Name: "sum"},
		{Name: "crate"}, {Name: "debian"}, {Name: "packaging"}, {Name: "suite"},
		{Name: "archive"}, {Name: "sha256"},
	},
}

type sourceBlock struct {
	Path      *setting[string]
	Git       *setting[string]
	Commit    *setting[string]
	GoModule  *setting[string]
	Sum       *setting[string]
	Crate     *setting[string]
	Debian    *setting[string]
	Packaging *setting[bool]
	Suite     *setting[string]
	Archive   *setting[string]
	SHA256    *setting[string]
	DeclRange hcl.Range
}

// written reports which attributes the block has, by name, with ranges.
func (s *sourceBlock) written() map[string]hcl.Range {
	w := map[string]hcl.Range{}
	add := func(name string, r *hcl.Range) {
		if r != nil {
			w[name] = *r
		}
	}
	add("path", rangeOfSetting(s.Path))
	add("git", rangeOfSetting(s.Git))
	add("commit", rangeOfSetting(s.Commit))
	add("go_module", rangeOfSetting(s.GoModule))
	add("sum", rangeOfSetting(s.Sum))
	add("crate", rangeOfSetting(s.Crate))
	add("debian", rangeOfSetting(s.Debian))
	add("packaging", rangeOfSetting(s.Packaging))
	add("suite", rangeOfSetting(s.Suite))
	add("archive", rangeOfSetting(s.Archive))
	add("sha256", rangeOfSetting(s.SHA256))
	return w
}

func rangeOfSetting[T any](s *setting[T]) *hcl.Range {
	if s == nil {
		return nil
	}
	return &s.Range
}

func decodeSourceBlock(block *hcl.Block, sc *scope) (*sourceBlock, hcl.Diagnostics) {
	content, diags := block.Body.Content(sourceSchema)
	s, d := decodeSourceContent(content, block.DefRange, sc)
	return s, append(diags, d...)
}

// decodeSourceContent decodes a source's attributes from content already
// checked against a schema that holds sourceSchema's attributes.
func decodeSourceContent(content *hcl.BodyContent, declRange hcl.Range, sc *scope) (*sourceBlock, hcl.Diagnostics) {
	s := &sourceBlock{DeclRange: declRange}
	var diags hcl.Diagnostics
	decode := func(target **setting[string], name string, convert converter[string]) {
		var d hcl.Diagnostics
		*target, d = decodeAttr(content.Attributes[name], sc.ctx, convert)
		diags = append(diags, d...)
	}
	decode(&s.Path, "path", nonEmptyString)
	decode(&s.Git, "git", nonEmptyString)
	decode(&s.Commit, "commit", asCommit)
	decode(&s.GoModule, "go_module", asGoModulePin)
	decode(&s.Sum, "sum", asModuleSum)
	decode(&s.Crate, "crate", asCratePin)
	decode(&s.Debian, "debian", asDebianPin)
	decode(&s.Suite, "suite", asDebianSuite)
	decode(&s.Archive, "archive", asArchiveURL)
	decode(&s.SHA256, "sha256", asSHA256)
	var d hcl.Diagnostics
	s.Packaging, d = decodeAttr(content.Attributes["packaging"], sc.ctx, asBool)
	diags = append(diags, d...)
	return s, append(diags, checkSourceKinds(s)...)
}

// checkSourceKinds insists on exactly one kind per block, and on options
// that belong to it.
func checkSourceKinds(s *sourceBlock) hcl.Diagnostics {
	var diags hcl.Diagnostics
	written := s.written()
	var chosen []string
	for _, k := range sourceKinds {
		if _, ok := written[k.attr]; ok {
			chosen = append(chosen, k.attr)
		}
	}
	// The first one written is the source; the later ones conflict with it.
	sort.Slice(chosen, func(i, j int) bool { return written[chosen[i]].Start.Byte < written[chosen[j]].Start.Byte })
	if len(chosen) == 0 {
		return append(diags, errorAt(s.DeclRange, "Missing source", "The source block needs one of: "+sourceForms+"."))
	}
	first := chosen[0]
	for _, other := range chosen[1:] {
		diags = append(diags, errorAt(written[other], "Conflicting source", fmt.Sprintf(
			"A source block holds one kind of source; %s is already set at %s. Use one of: %s.",
			first, position(written[first]), sourceForms)))
	}
	if len(chosen) > 1 {
		return diags
	}
	for _, k := range sourceKinds {
		if k.attr != first {
			continue
		}
		allowed := map[string]bool{k.attr: true}
		for _, o := range k.options {
			allowed[o] = true
		}
		for _, name := range sortedKeys(written) {
			if !allowed[name] {
				diags = append(diags, errorAt(written[name], "Unexpected "+name, unexpectedSourceOption(name, first)))
			}
		}
		for _, name := range k.required {
			if _, ok := written[name]; !ok {
				diags = append(diags, errorAt(written[first], "Missing "+name, missingSourceOption(first, name)))
			}
		}
	}
	return diags
}

func unexpectedSourceOption(name, kind string) string {
	owners := []string{}
	for _, k := range sourceKinds {
		for _, o := range k.options {
			if o == name {
				owners = append(owners, k.attr)
			}
		}
	}
	if kind == "path" {
		return fmt.Sprintf("%s applies to %s sources; a path source is used as it is on disk.", name, strings.Join(owners, ", "))
	}
	return fmt.Sprintf("%s applies to %s sources, not to a %s source.", name, strings.Join(owners, ", "), kind)
}

func missingSourceOption(kind, name string) string {
	switch kind {
	case "git":
		return "A git source needs commit = \"SHA\": the benchmark must be built from a fixed commit, not a moving branch."
	case "archive":
		return "An archive source needs sha256 = \"HEX\", the digest of the file: a URL alone does not pin its bytes."
	}
	return fmt.Sprintf("A %s source needs %s.", kind, name)
}

func (r *resolver) resolveSource(s *sourceBlock, sc *scope) {
	if s == nil {
		r.broken = true // reported while decoding
		return
	}
	r.repo.Ranges["source"] = s.DeclRange
	r.fillSource(&r.repo.Source, "source.", s, sc)
}

// fillSource sets src from a decoded block, recording each attribute's
// range under prefix+name.
func (r *resolver) fillSource(src *Source, prefix string, s *sourceBlock, sc *scope) {
	if p, ok := use(r, prefix+"path", s.Path); ok {
		if !filepath.IsAbs(p) {
			p = filepath.Join(sc.dir, p)
		}
		src.Path = filepath.Clean(p)
	}
	src.Git, _ = use(r, prefix+"git", s.Git)
	src.Commit, _ = use(r, prefix+"commit", s.Commit)
	src.GoModule, _ = use(r, prefix+"go_module", s.GoModule)
	src.Sum, _ = use(r, prefix+"sum", s.Sum)
	src.Crate, _ = use(r, prefix+"crate", s.Crate)
	src.Debian, _ = use(r, prefix+"debian", s.Debian)
	src.Packaging, _ = use(r, prefix+"packaging", s.Packaging)
	src.Suite, _ = use(r, prefix+"suite", s.Suite)
	if src.Debian != "" && src.Suite == "" {
		src.Suite = DefaultDebianSuite
	}
	src.Archive, _ = use(r, prefix+"archive", s.Archive)
	src.SHA256, _ = use(r, prefix+"sha256", s.SHA256)
}

var (
	moduleSum   = regexp.MustCompile(`^h1:[A-Za-z0-9+/]{43}=$`)
	sha256Hex   = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)
	crateName   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
	debianName  = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)
	debianVers  = regexp.MustCompile(`^([0-9]+:)?[0-9A-Za-z][A-Za-z0-9.+~-]*$`)
	debianSuite = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// asGoModulePin accepts "MODULE@VERSION" with a canonical semantic version
// (a pseudo-version is one): a query such as "latest" or a branch name does
// not pin anything.
func asGoModulePin(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	path, version, ok := strings.Cut(s, "@")
	if !ok || version == "" {
		return "", invalidValue("%s must be MODULE@VERSION, as in \"github.com/gofrs/flock@v0.12.1\", not %q: a module without a version is not pinned.", name, s)
	}
	if !semver.IsValid(version) || module.CanonicalVersion(version) != version {
		return "", invalidValue("%s: %q is not a full semantic version such as v1.2.3 (queries like latest or branch names do not pin a module).", name, version)
	}
	if err := module.Check(path, version); err != nil {
		return "", invalidValue("%s: %v.", name, err)
	}
	return s, nil
}

func asModuleSum(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem == nil && !moduleSum.MatchString(s) {
		problem = invalidValue("%s must be a module's h1: hash as go.sum writes it (h1: and 44 base64 characters), not %q.", name, s)
	}
	return s, problem
}

// asCratePin accepts "NAME@VERSION" with a semantic version as crates.io
// spells it (no leading v).
func asCratePin(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	crate, version, ok := strings.Cut(s, "@")
	switch {
	case !ok || version == "":
		return "", invalidValue("%s must be NAME@VERSION, as in \"filetime@0.2.25\", not %q: a crate without a version is not pinned.", name, s)
	case !crateName.MatchString(crate):
		return "", invalidValue("%s: %q is not a crate name (letters, digits, - and _, starting with a letter).", name, crate)
	case strings.HasPrefix(version, "v") || !semver.IsValid("v"+version) || semver.Canonical("v"+version) != "v"+strings.SplitN(version, "+", 2)[0]:
		return "", invalidValue("%s: %q is not a full semantic version such as 1.2.3.", name, version)
	}
	return s, nil
}

// asDebianPin accepts "PACKAGE=VERSION": a source package name and a Debian
// version ([epoch:]upstream[-revision]).
func asDebianPin(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	pkg, version, ok := strings.Cut(s, "=")
	switch {
	case !ok || version == "":
		return "", invalidValue("%s must be PACKAGE=VERSION, as in \"libyaml=0.2.5-1\", not %q: a package without a version is not pinned.", name, s)
	case !debianName.MatchString(pkg):
		return "", invalidValue("%s: %q is not a Debian source package name (lower-case letters, digits, + - .).", name, pkg)
	case !debianVers.MatchString(version):
		return "", invalidValue("%s: %q is not a Debian version ([epoch:]upstream[-revision]).", name, version)
	}
	return s, nil
}

func asDebianSuite(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem == nil && !debianSuite.MatchString(s) {
		problem = invalidValue("%s must be a Debian release name such as %q, not %q.", name, DefaultDebianSuite, s)
	}
	return s, problem
}

func asArchiveURL(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" && u.Scheme != "file" || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "file") {
		return "", invalidValue("%s must be an http, https or file URL of a tarball or zip, not %q.", name, s)
	}
	return s, nil
}

func asSHA256(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem == nil && !sha256Hex.MatchString(s) {
		problem = invalidValue("%s must be a SHA-256 digest of 64 hex digits, not %q.", name, s)
	}
	return strings.ToLower(s), problem
}

func asBool(name string, value cty.Value) (bool, *valueError) {
	if value.IsNull() || value.Type() != cty.Bool {
		return false, invalidValue("%s must be true or false, not %s.", name, typeName(value))
	}
	return value.True(), nil
}
