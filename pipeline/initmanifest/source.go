// Package initmanifest is `osbench init`: it writes the first manifest of a
// repository the way a curator would after one look — language and preset
// from the tree, the source pinned to bytes, one test run per platform
// through the same steps `osbench build` runs (so a build of the written
// manifest finds them in the cache), skip proposals for tests that fail on
// one platform only, and migration directions only where the differential
// coverage has lines.
package initmanifest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Source kinds, named as the attribute of the manifest's source block that
// holds the main value.
const (
	KindPath     = "path"
	KindGit      = "git"
	KindGoModule = "go_module"
	KindCrate    = "crate"
	KindDebian   = "debian"
	KindArchive  = "archive"
)

// Source is a parsed SOURCE argument: the attributes of a manifest source
// block.
type Source struct {
	Kind  string // one of the Kind constants
	Value string // the main attribute's value: dir, URL, "module@version", "name@version", "pkg=version"
	// Commit is the git commit (git only).
	Commit string
	// Sum is a go module's "h1:" hash; SHA256 the digest of a crate, a
	// Debian .dsc or an archive. Empty until given or pinned from the
	// checkout's provenance.
	Sum    string
	SHA256 string
}

// Forms lists the SOURCE forms, for usage messages.
const Forms = "a local directory, go:MODULE@VERSION, crate:NAME@VERSION, debian:PACKAGE=VERSION, git:URL@COMMIT, or an https:// archive URL (with --sha256)"

var (
	hex64      = regexp.MustCompile(`^[0-9a-f]{64}$`)
	commitHash = regexp.MustCompile(`^[0-9a-fA-F]{7,40}$`)
	crateName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	// Cargo versions are semver without a leading v.
	crateVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	// Debian policy §5.6.1 (source package names) and §5.6.12 (versions).
	debianPackage = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)
	debianVersion = regexp.MustCompile(`^([0-9]+:)?[0-9][A-Za-z0-9.+~:-]*$`)
)

// ParseSource parses SOURCE. sha256 is the --sha256 flag ("" when not
// given): required for an archive, an optional pin for a crate or a
// Debian package, refused for the others (a go module is pinned by its h1:
// sum, which init reads from the checkout, and git by its commit).
func ParseSource(arg, sha256 string) (Source, error) {
	s, err := parseSource(arg)
	if err != nil {
		return Source{}, fmt.Errorf("SOURCE %q: %v", arg, err)
	}
	if sha256 != "" {
		sha256 = strings.ToLower(sha256)
		if !hex64.MatchString(sha256) {
			return Source{}, fmt.Errorf("--sha256 %q: want 64 hex digits", sha256)
		}
		switch s.Kind {
		case KindArchive, KindCrate, KindDebian:
			s.SHA256 = sha256
		default:
			return Source{}, fmt.Errorf("--sha256 pins only an archive, a crate or a Debian package, not a %s source", s.Kind)
		}
	}
	if s.Kind == KindArchive && s.SHA256 == "" {
		return Source{}, fmt.Errorf("SOURCE %q: an archive needs --sha256 (its bytes are the pin)", arg)
	}
	return s, nil
}

func parseSource(arg string) (Source, error) {
	kind, rest, hasPrefix := strings.Cut(arg, ":")
	switch {
	case arg == "":
		return Source{}, fmt.Errorf("empty; want %s", Forms)
	case hasPrefix && kind == "go":
		path, version, ok := strings.Cut(rest, "@")
		if !ok || path == "" || version == "" {
			return Source{}, fmt.Errorf("want go:MODULE@VERSION, e.g. go:github.com/gofrs/flock@v0.12.1")
		}
		if !semver.IsValid(version) || version != semver.Canonical(version) && !strings.Contains(version, "+") {
			return Source{}, fmt.Errorf("version %q is not a full semantic version like v1.2.3", version)
		}
		if err := module.Check(path, version); err != nil {
			return Source{}, err
		}
		return Source{Kind: KindGoModule, Value: path + "@" + version}, nil
	case hasPrefix && kind == "crate":
		name, version, ok := strings.Cut(rest, "@")
		if !ok || name == "" || version == "" {
			return Source{}, fmt.Errorf("want crate:NAME@VERSION, e.g. crate:filetime@0.2.25")
		}
		if !crateName.MatchString(name) {
			return Source{}, fmt.Errorf("%q is not a crate name (letters, digits, _ and -, at most 64)", name)
		}
		if !crateVersion.MatchString(version) {
			return Source{}, fmt.Errorf("crate version %q is not a semantic version like 0.2.25", version)
		}
		return Source{Kind: KindCrate, Value: name + "@" + version}, nil
	case hasPrefix && kind == "debian":
		pkg, version, ok := strings.Cut(rest, "=")
		if !ok || pkg == "" || version == "" {
			return Source{}, fmt.Errorf("want debian:PACKAGE=VERSION, e.g. debian:libyaml=0.2.5-1")
		}
		if !debianPackage.MatchString(pkg) {
			return Source{}, fmt.Errorf("%q is not a Debian source package name", pkg)
		}
		if !debianVersion.MatchString(version) {
			return Source{}, fmt.Errorf("%q is not a Debian version", version)
		}
		return Source{Kind: KindDebian, Value: pkg + "=" + version}, nil
	case hasPrefix && kind == "git":
		at := strings.LastIndexByte(rest, '@')
		if at <= 0 || at == len(rest)-1 {
			return Source{}, fmt.Errorf("want git:URL@COMMIT")
		}
		url, commit := rest[:at], rest[at+1:]
		if !commitHash.MatchString(commit) {
			return Source{}, fmt.Errorf("commit %q is not a git commit id of 7 to 40 hex digits", commit)
		}
		return Source{Kind: KindGit, Value: url, Commit: strings.ToLower(commit)}, nil
	case hasPrefix && kind == "https":
		if !strings.HasPrefix(rest, "//") || len(rest) <= 2 || strings.ContainsAny(rest, " \t\n") {
			return Source{}, fmt.Errorf("not an https:// URL")
		}
		return Source{Kind: KindArchive, Value: arg}, nil
	case hasPrefix && kind == "http":
		return Source{}, fmt.Errorf("archives are fetched over https only")
	}
	fi, err := os.Stat(arg)
	if err != nil {
		if hasPrefix && !strings.ContainsAny(kind, `/\.`) && len(kind) > 1 {
			return Source{}, fmt.Errorf("unknown kind %q; want %s", kind, Forms)
		}
		return Source{}, fmt.Errorf("no such directory; want %s", Forms)
	}
	if !fi.IsDir() {
		return Source{}, fmt.Errorf("not a directory; want %s", Forms)
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return Source{}, err
	}
	return Source{Kind: KindPath, Value: abs}, nil
}

// Name is the repository block's name: the module's, crate's or
// package's base name (owner-name for code-host paths, as in
// "gofrs-flock"), lower-case, with anything but letters, digits, _ and -
// made a dash.
func (s Source) Name() string {
	var name string
	switch s.Kind {
	case KindGoModule:
		path, _, _ := strings.Cut(s.Value, "@")
		name = modulePathName(path)
	case KindCrate:
		name, _, _ = strings.Cut(s.Value, "@")
	case KindDebian:
		name, _, _ = strings.Cut(s.Value, "=")
	case KindGit:
		name = urlName(s.Value)
	case KindArchive:
		name = archiveName(s.Value)
	default:
		name = filepath.Base(s.Value)
	}
	return sanitize(name)
}

// modulePathName drops a major-version suffix and keeps the last two
// elements of a code-host path (github.com/gofrs/flock → gofrs-flock), else
// the last one (gopkg.in/yaml.v3 → yaml).
func modulePathName(path string) string {
	if prefix, _, ok := module.SplitPathVersion(path); ok && prefix != "" {
		path = prefix
	}
	parts := strings.Split(path, "/")
	if len(parts) >= 3 {
		return parts[len(parts)-2] + "-" + parts[len(parts)-1]
	}
	last := parts[len(parts)-1]
	if i := strings.Index(last, ".v"); i > 0 { // gopkg.in/NAME.vN
		last = last[:i]
	}
	return last
}

// urlName is owner-name of a git URL's last two path elements.
func urlName(url string) string {
	url = strings.TrimSuffix(strings.TrimRight(url, "/"), ".git")
	url = strings.ReplaceAll(url, ":", "/") // git@host:owner/name
	parts := strings.Split(url, "/")
	if len(parts) >= 2 && parts[len(parts)-2] != "" && !strings.Contains(parts[len(parts)-2], ".") {
		return parts[len(parts)-2] + "-" + parts[len(parts)-1]
	}
	return parts[len(parts)-1]
}

// archiveVersion is the "-1.2.3" that archive file names end with.
var archiveVersion = regexp.MustCompile(`[-_]v?[0-9][0-9A-Za-z.+~-]*$`)

// archiveName is an archive file's name without extensions and version:
// .../zlib-1.3.1.tar.gz → zlib.
func archiveName(url string) string {
	if i := strings.IndexAny(url, "?#"); i >= 0 {
		url = url[:i]
	}
	base := url[strings.LastIndexByte(url, '/')+1:]
	for _, ext := range []string{".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tgz", ".tar", ".zip"} {
		if strings.HasSuffix(base, ext) {
			base = strings.TrimSuffix(base, ext)
			break
		}
	}
	if n := archiveVersion.ReplaceAllString(base, ""); n != "" {
		base = n
	}
	return base
}

func sanitize(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-_")
	if out == "" {
		return "repository"
	}
	return out
}
