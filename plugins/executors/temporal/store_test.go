package temporal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/osbench/osbench/engine/cache"
)

func TestPushPullMovesTreesAndChecksBytes(t *testing.T) {
	ctx := context.Background()
	open := func(name string) *cache.Cache {
		c, err := cache.Open(filepath.Join(t.TempDir(), name))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	client, worker, shared := open("client"), open("worker"), open("store")
	store := NewDirStore(shared)

	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "d"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("alpha\n"), 0o644)
	os.WriteFile(filepath.Join(src, "d", "b.txt"), []byte("beta\n"), 0o644)
	td, tree, err := client.PutTree(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	blob := []byte("a result\n")
	bd, _ := client.PutBytes(blob)
	outs := []cache.Output{
		{Name: "tree", Kind: cache.KindTree, Digest: td, Size: int64(len(tree.Encode()))},
		{Name: "blob", Kind: cache.KindBlob, Digest: bd, Size: int64(len(blob))},
	}
	if err := push(ctx, client, store, outs); err != nil {
		t.Fatal(err)
	}
	if err := pull(ctx, store, worker, outs); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := worker.Materialize(td, dst); err != nil {
		t.Fatalf("the tree did not arrive whole: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "d", "b.txt")); string(b) != "beta\n" {
		t.Errorf("d/b.txt = %q", b)
	}

	// A store that serves other bytes under a digest: the pull fails, and
	// nothing lands under that digest.
	other := open("other")
	wrong := []byte("a resulT\n") // same size, other content
	p := filepath.Join(shared.Dir(), "cas", string(bd[:2]), string(bd))
	if err := os.WriteFile(p, wrong, 0o644); err != nil {
		t.Fatal(err)
	}
	err = pull(ctx, store, other, outs[1:])
	var corrupt *cache.CorruptError
	if !errors.As(err, &corrupt) {
		t.Fatalf("pull of a damaged blob: %v, want a CorruptError", err)
	}
	if other.Has(bd, int64(len(blob))) {
		t.Errorf("the damaged blob was stored under its claimed digest")
	}
}
