package checkout

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gofrs/flock"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/schemas"
)

// Where Debian source packages come from; the environment may name a
// mirror (the archive's signature and the .dsc checksums are checked either
// way).
var (
	debianMirror         = envOr("OSBENCH_DEBIAN_MIRROR", "http://deb.debian.org/debian")
	debianSecurityMirror = envOr("OSBENCH_DEBIAN_SECURITY_MIRROR", "http://deb.debian.org/debian-security")
	debianKeyring        = envOr("OSBENCH_DEBIAN_KEYRING", "/usr/share/keyrings/debian-archive-keyring.gpg")
)

// checkoutDebian fetches a source package with apt-get from a source list
// osbench writes into its own state dir (the machine's apt configuration is
// neither read nor changed), keeps the files in the mirror, verifies every
// file the .dsc lists, and unpacks the upstream tree: the .orig tarball
// (and its component tarballs), or a native package's tarball without its
// debian/ directory; Packaging adds the debian/ directory.
func checkoutDebian(ctx context.Context, rc *engine.RunContext, cfg Config, dir string) (schemas.Provenance, error) {
	pkg, version, _ := strings.Cut(cfg.Debian, "=")
	base, err := stateDir(rc, "debian")
	if err != nil {
		return schemas.Provenance{}, err
	}
	// apt's own locks are switched off for its private dirs; this one lock
	// serialises osbench processes sharing the cache.
	lock := flock.New(filepath.Join(base, ".lock"))
	if err := lock.Lock(); err != nil {
		return schemas.Provenance{}, err
	}
	defer lock.Unlock()

	pool := filepath.Join(base, "pool", pkg+"_"+strings.ReplaceAll(version, ":", "%3a"))
	dsc, err := verifiedDSC(pool, cfg.SHA256)
	if err != nil {
		if errors.Is(err, errMismatch) {
			return schemas.Provenance{}, pinned(rc, "sha256", "debian %s: %v; refusing to build from bytes the manifest does not name", cfg.Debian, err)
		}
		if offline() {
			return schemas.Provenance{}, pinned(rc, "debian", "debian %s is not in the mirror and %s=1 forbids fetching it", cfg.Debian, OfflineEnv)
		}
		if err := fetchDebian(ctx, base, pool, cfg); err != nil {
			return schemas.Provenance{}, pinned(rc, "debian", "debian %s: %v", cfg.Debian, err)
		}
		if dsc, err = verifiedDSC(pool, cfg.SHA256); err != nil {
			field := "debian"
			if errors.Is(err, errMismatch) {
				field = "sha256"
				os.RemoveAll(pool) // never keep bytes the manifest refused
			}
			return schemas.Provenance{}, pinned(rc, field, "debian %s: %v; refusing to build from bytes the manifest does not name", cfg.Debian, err)
		}
	}
	if err := unpackDebian(pool, dsc, dir, cfg.Packaging); err != nil {
		return schemas.Provenance{}, pinned(rc, "debian", "debian %s: %v", cfg.Debian, err)
	}
	rc.SetLabel("debian " + cfg.Debian)
	return schemas.Provenance{Kind: "debian", Repo: pkg, Version: version, SHA256: dsc.sha256, Suite: cfg.Suite}, nil
}

// fetchDebian downloads the package's files into pool with apt-get source,
// updating osbench's private package lists when they are missing or do not
// know the version yet.
func fetchDebian(ctx context.Context, base, pool string, cfg Config) error {
	apt, err := aptConfig(base, cfg.Suite)
	if err != nil {
		return err
	}
	tmp := pool + ".fetch"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	listsKnown := hasEntries(filepath.Join(base, "apt", cfg.Suite, "lists"))
	if !listsKnown {
		if out, err := runApt(ctx, "", apt, "update"); err != nil {
			return fmt.Errorf("apt-get update: %v: %s", err, out)
		}
	}
	out, err := runApt(ctx, tmp, apt, "--download-only", "source", cfg.Debian)
	if err != nil && listsKnown {
		// The lists may predate the version: refresh them once.
		if uout, uerr := runApt(ctx, "", apt, "update"); uerr != nil {
			return fmt.Errorf("apt-get update: %v: %s", uerr, uout)
		}
		out, err = runApt(ctx, tmp, apt, "--download-only", "source", cfg.Debian)
	}
	if err != nil {
		return fmt.Errorf("apt-get source: %v: %s", err, out)
	}
	os.RemoveAll(pool)
	if err := os.MkdirAll(filepath.Dir(pool), 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, pool)
}

// aptConfig writes osbench's source list for suite and returns the apt-get
// options that point apt at it and at private lists and caches.
func aptConfig(base, suite string) ([]string, error) {
	if _, err := os.Stat(debianKeyring); err != nil {
		return nil, fmt.Errorf("the Debian archive keyring %s is missing (Debian package debian-archive-keyring; or set OSBENCH_DEBIAN_KEYRING): %v", debianKeyring, err)
	}
	root := filepath.Join(base, "apt", suite)
	for _, d := range []string{"lists/partial", "cache/archives/partial", "sources.list.d"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return nil, err
		}
	}
	line := func(mirror, s string) string {
		return fmt.Sprintf("deb-src [signed-by=%s] %s %s main\n", debianKeyring, mirror, s)
	}
	list := line(debianMirror, suite)
	if suite != "sid" && suite != "unstable" && suite != "experimental" {
		list += line(debianMirror, suite+"-updates") + line(debianSecurityMirror, suite+"-security")
	}
	if err := writeAtomic(filepath.Join(root, "sources.list"), []byte(list)); err != nil {
		return nil, err
	}
	opts := []string{
		"-qq",
		"-o", "Dir::Etc::SourceList=" + filepath.Join(root, "sources.list"),
		"-o", "Dir::Etc::SourceParts=" + filepath.Join(root, "sources.list.d"),
		"-o", "Dir::State::Lists=" + filepath.Join(root, "lists"),
		"-o", "Dir::Cache=" + filepath.Join(root, "cache"),
		"-o", "Debug::NoLocking=1",
	}
	if os.Geteuid() == 0 {
		// apt drops to _apt for downloads, which cannot write osbench's dirs.
		opts = append(opts, "-o", "APT::Sandbox::User=root")
	}
	return opts, nil
}

func runApt(ctx context.Context, dir string, opts []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "apt-get", append(append([]string{}, opts...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive", "LC_ALL=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

func hasEntries(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "Sources") || strings.Contains(e.Name(), "Sources.") {
			return true
		}
	}
	return false
}

// dscFile is a .dsc file's parsed fields and its own digest.
type dscFile struct {
	name   string
	sha256 string
	format string
	files  []dscEntry // Checksums-Sha256
}

type dscEntry struct {
	sha256 string
	size   int64
	name   string
}

// verifiedDSC reads the one .dsc file in dir, checks it against want (when
// set) and checks every file it lists by size and SHA-256.
func verifiedDSC(dir, want string) (*dscFile, error) {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.dsc"))
	if len(matches) != 1 {
		return nil, fmt.Errorf("expected one .dsc file in %s, found %d", dir, len(matches))
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		return nil, err
	}
	d, err := parseDSC(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(matches[0]), err)
	}
	d.name = filepath.Base(matches[0])
	d.sha256, _ = fileSHA256(matches[0])
	if want != "" && d.sha256 != want {
		return nil, fmt.Errorf("%w: %s has SHA-256 %s, the manifest pins %s", errMismatch, d.name, d.sha256, want)
	}
	for _, f := range d.files {
		p := filepath.Join(dir, f.name)
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s lists %s, which is missing", d.name, f.name)
		}
		got, err := fileSHA256(p)
		if err != nil {
			return nil, err
		}
		if st.Size() != f.size || got != f.sha256 {
			return nil, fmt.Errorf("%w: %s has %d bytes and SHA-256 %s; %s says %d bytes, %s", errMismatch, f.name, st.Size(), got, d.name, f.size, f.sha256)
		}
	}
	return d, nil
}

// parseDSC reads the fields of a (possibly clear-signed) .dsc control file
// that say what the package is made of.
func parseDSC(b []byte) (*dscFile, error) {
	d := &dscFile{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	field, inSignedHeader := "", false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "-----BEGIN PGP SIGNED MESSAGE-----":
			inSignedHeader = true
			continue
		case inSignedHeader:
			if line == "" {
				inSignedHeader = false
			}
			continue
		case line == "-----BEGIN PGP SIGNATURE-----":
			return d, checkDSC(d)
		case strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
			if field == "checksums-sha256" {
				parts := strings.Fields(line)
				if len(parts) != 3 {
					return nil, fmt.Errorf("bad Checksums-Sha256 line %q", line)
				}
				size, err := strconv.ParseInt(parts[1], 10, 64)
				if err != nil || !cache.Digest(parts[0]).Valid() || strings.ContainsAny(parts[2], "/\\") {
					return nil, fmt.Errorf("bad Checksums-Sha256 line %q", line)
				}
				d.files = append(d.files, dscEntry{sha256: parts[0], size: size, name: parts[2]})
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		field = strings.ToLower(strings.TrimSpace(name))
		if field == "format" {
			d.format = strings.TrimSpace(value)
		}
	}
	return d, checkDSC(d)
}

func checkDSC(d *dscFile) error {
	if len(d.files) == 0 {
		return errors.New("no Checksums-Sha256 field")
	}
	return nil
}

var origComponent = regexp.MustCompile(`\.orig-([A-Za-z0-9][A-Za-z0-9-]*)\.tar\.[a-z0-9]+$`)

// unpackDebian lays out the upstream tree of a verified package in dir.
func unpackDebian(pool string, d *dscFile, dir string, packaging bool) error {
	var main, debianTar string
	var components [][2]string // component name, file
	native := true
	for _, f := range d.files {
		switch {
		case strings.HasSuffix(f.name, ".asc") || strings.HasSuffix(f.name, ".sig"):
			// An upstream signature beside its tarball (cmocka's, c-ares'
			// .orig.tar.xz.asc): checked by the .dsc's checksum like every
			// file, and nothing to unpack.
		case strings.Contains(f.name, ".orig.tar."):
			main, native = f.name, false
		case origComponent.MatchString(f.name):
			components = append(components, [2]string{origComponent.FindStringSubmatch(f.name)[1], f.name})
		case strings.Contains(f.name, ".debian.tar."):
			debianTar = f.name
		case strings.HasSuffix(f.name, ".diff.gz"):
			native = false
			if packaging {
				return errors.New("packaging = true needs a 3.0 (quilt) or native package; this one carries its packaging as a .diff.gz")
			}
		case strings.Contains(f.name, ".tar."):
			if main == "" {
				main = f.name
			}
		}
	}
	if main == "" {
		return fmt.Errorf("%s lists no source tarball", d.name)
	}
	if err := unpackArchive(filepath.Join(pool, main), dir); err != nil {
		return err
	}
	for _, c := range components {
		if err := unpackArchive(filepath.Join(pool, c[1]), filepath.Join(dir, c[0])); err != nil {
			return err
		}
	}
	if native && !packaging {
		return os.RemoveAll(filepath.Join(dir, "debian"))
	}
	if packaging && debianTar != "" {
		if err := os.RemoveAll(filepath.Join(dir, "debian")); err != nil {
			return err
		}
		f, err := os.Open(filepath.Join(pool, debianTar))
		if err != nil {
			return err
		}
		defer f.Close()
		return unpackInto(f, debianTar, dir)
	}
	return nil
}
