package rust

import (
	"regexp"
	"strings"

	"github.com/osbench/osbench/plugins/lang/braced"
	"github.com/osbench/osbench/plugins/lang/evidence"
	"github.com/osbench/osbench/schemas"
)

// Rust's verify front end (Language.Evidence): the brace scanner of
// plugins/lang/braced with #[cfg(...)] attributes and if cfg!(...)
// conditions as guards, and the OS extension traits, native crates and
// path constants below as facts.

var (
	cfgAttr         = regexp.MustCompile(`#!?\[\s*cfg\s*\((.*)\)\s*\]`)
	platformCfgArgs = regexp.MustCompile(`\b(windows|unix|target_os|target_family|target_env|target_vendor)\b`)
	ifCfg           = regexp.MustCompile(`\bif\b.*\bcfg!\s*\(([^)]*)`)
	fnName          = regexp.MustCompile(`\bfn\s+([A-Za-z_]\w*)`)
)

var grammar = braced.Grammar{
	Syntax:          syntax,
	Container:       regexp.MustCompile(`^\s*(pub(\([^)]*\))?\s+)?(unsafe\s+)?(mod|impl|trait|struct|enum|union|extern)\b|\bimpl\b`),
	ParenContainers: true,
	FunctionName: func(h string) string {
		if m := fnName.FindStringSubmatch(h); m != nil {
			return m[1]
		}
		return ""
	},
	Attributes:  cfgAttributes,
	IfCondition: ifCfgCondition,
	Patterns:    rustPatterns,
}

// ReadEvidence is Rust's verify front end.
func ReadEvidence(_ string, src []byte) (*evidence.File, error) {
	return braced.Read(&grammar, src), nil
}

// cfgAttributes finds the #[cfg(...)] attributes of a header whose
// predicate names a platform; #![cfg(...)] before any item guards the file.
func cfgAttributes(h string) []braced.Attribute {
	var out []braced.Attribute
	for _, a := range cfgAttr.FindAllStringSubmatch(h, -1) {
		if platformCfgArgs.MatchString(a[1]) {
			out = append(out, braced.Attribute{Needle: a[0], Text: a[0], Cond: "cfg", Inner: strings.HasPrefix(a[0], "#!")})
		}
	}
	return out
}

// ifCfgCondition returns the if cfg!(platform) condition heading h, or "".
func ifCfgCondition(h string) string {
	loc := ifCfg.FindStringIndex(h)
	if loc == nil || !platformCfgArgs.MatchString(ifCfg.FindStringSubmatch(h)[1]) {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(h[loc[0]:], "else "))
}

var rustPatterns = []braced.Pattern{
	{Re: regexp.MustCompile(`std::os::(windows|unix|wasi)::ffi\b|\b(OsStrExt|OsStringExt)\b`), Label: schemas.LabelEncoding, Group: "os_strings", Weight: 1},
	{Re: regexp.MustCompile(`\b(encode_wide|from_wide)\b`), Label: schemas.LabelEncoding, Group: "utf16_strings", Weight: 1},
	{Re: regexp.MustCompile(`\bMAIN_SEPARATOR(_STR)?\b`), Label: schemas.LabelPath, Group: "path_separators", Weight: 1},
	{Re: regexp.MustCompile(`\b(home_dir|temp_dir|config_dir)\s*\(`), Label: schemas.LabelPath, Group: "known_folders", Weight: 0.8},
	{Re: regexp.MustCompile(`\b(MetadataExt|PermissionsExt|FileTypeExt|OpenOptionsExt|DirEntryExt)\b`), Label: schemas.LabelAPI, Group: "file_metadata", Weight: 1},
	{Re: regexp.MustCompile(`\bfile_attributes\s*\(`), Label: schemas.LabelAPI, Group: "file_attributes", Weight: 1},
	{Re: regexp.MustCompile(`\.mode\s*\(\s*\)`), Label: schemas.LabelAPI, Group: "file_permissions", Weight: 0.6},
	{Re: regexp.MustCompile(`std::os::(windows|unix|linux|macos|wasi)::(fs|process|io|net|thread|raw)\b`), Label: schemas.LabelAPI, Group: "os_extensions", Weight: 0.8},
	{Re: regexp.MustCompile(`(?:^|[^:\w])(windows_sys|winapi|libc|nix|windows)::`), Label: schemas.LabelAPI, Group: "native_api", Weight: 1},
	{Re: regexp.MustCompile(`\bcfg!\s*\(`), Label: schemas.LabelConditional, Group: "platform_switch", Weight: 0.85},
	{Re: regexp.MustCompile(`ErrorKind::Unsupported\b`), Label: schemas.LabelOtherFeature, Group: "unsupported_fallback", Weight: 1},
}
