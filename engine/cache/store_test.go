package cache_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/cache/storetest"
)

// The local directory passes the suite every Store passes.
func TestLocalStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		c, err := cache.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		overwrite := func(t *testing.T, sub string, d cache.Digest, b []byte) {
			if err := os.WriteFile(filepath.Join(c.Dir(), sub, string(d[:2]), string(d)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return storetest.Harness{
			Store:        c,
			Damage:       func(t *testing.T, d cache.Digest, b []byte) { overwrite(t, "cas", d, b) },
			DamageAction: func(t *testing.T, k cache.Digest, b []byte) { overwrite(t, "ac", k, b) },
		}
	})
}
