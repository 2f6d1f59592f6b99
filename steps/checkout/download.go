package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// maxDownload bounds one fetched file: a source archive is megabytes, and
// a server that streams forever must not fill the disk.
const maxDownload = 2 << 30

// errMismatch is a download whose bytes are not the pinned ones.
var errMismatch = errors.New("digest mismatch")

// download fetches rawURL into dest unless dest already holds a file with
// digest want (the mirror). The bytes go to a temporary file beside dest,
// are hashed on the way, and are renamed into place only when they match
// want (when want is set); so dest only ever holds verified bytes. It
// returns the hex SHA-256 of dest.
func download(ctx context.Context, rawURL, dest, want string) (string, error) {
	if want != "" {
		if got, err := fileSHA256(dest); err == nil && got == want {
			return got, nil
		}
	}
	if offline() {
		return "", fmt.Errorf("%s is not in the mirror and %s=1 forbids fetching it", rawURL, OfflineEnv)
	}
	body, err := open(ctx, rawURL)
	if err != nil {
		return "", err
	}
	defer body.Close()
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".download-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(body, maxDownload+1))
	if err == nil && n > maxDownload {
		err = fmt.Errorf("%s is larger than %d bytes", rawURL, int64(maxDownload))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if want != "" && got != want {
		return got, fmt.Errorf("%w: %s has SHA-256 %s, want %s", errMismatch, rawURL, got, want)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return "", err
	}
	return got, syncDir(filepath.Dir(dest))
}

// open returns the body of an http(s) or file URL.
func open(ctx context.Context, rawURL string) (io.ReadCloser, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "file" {
		return os.Open(u.Path)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("User-Agent", "osbench (source mirror)")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("fetch %s: %s", rawURL, resp.Status)
	}
	return &cancelBody{resp.Body, cancel}, nil
}

type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error { err := b.ReadCloser.Close(); b.cancel(); return err }

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeAtomic writes b to path through a temporary file and a rename, so a
// reader sees the old bytes or the new, never half.
func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".write-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
