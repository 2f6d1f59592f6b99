package checkout

import (
	"context"
	"errors"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/schemas"
)

// checkoutArchive fetches a tarball or zip pinned by its SHA-256 into the
// mirror (state/archives/<sha256>) and unpacks it.
func checkoutArchive(ctx context.Context, rc *engine.RunContext, cfg Config, dir string) (schemas.Provenance, error) {
	mirror, err := stateDir(rc, "archives")
	if err != nil {
		return schemas.Provenance{}, err
	}
	file := filepath.Join(mirror, cfg.SHA256)
	if _, err := download(ctx, cfg.Archive, file, cfg.SHA256); err != nil {
		if errors.Is(err, errMismatch) {
			return schemas.Provenance{}, pinned(rc, "sha256", "archive %s: %v; refusing to build from bytes the manifest does not name", cfg.Archive, err)
		}
		return schemas.Provenance{}, pinned(rc, "archive", "%v", err)
	}
	if err := unpackArchive(file, dir); err != nil {
		return schemas.Provenance{}, pinned(rc, "archive", "%v", err)
	}
	rc.SetLabel("archive " + cfg.SHA256[:12])
	return schemas.Provenance{Kind: "archive", Repo: archiveName(cfg.Archive), URL: cfg.Archive, SHA256: cfg.SHA256}, nil
}

// archiveName is the base name of an archive URL without its extensions:
// https://host/dl/zlib-1.3.1.tar.xz → zlib-1.3.1.
func archiveName(rawURL string) string {
	p := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		p = u.Path
	}
	name := path.Base(p)
	for _, ext := range []string{".gz", ".xz", ".bz2", ".tgz", ".txz", ".tbz2", ".zip", ".tar"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}
