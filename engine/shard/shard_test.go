package shard

import (
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		bad  bool
	}{
		{"", Shard{}, false},
		{"1/1", Shard{1, 1}, false},
		{"2/3", Shard{2, 3}, false},
		{"0/3", Shard{}, true},
		{"4/3", Shard{}, true},
		{"1/0", Shard{}, true},
		{"a/b", Shard{}, true},
		{"3", Shard{}, true},
		{"-1/2", Shard{}, true},
	} {
		got, err := Parse(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("Parse(%q) = %v, %v", c.in, got, err)
		}
	}
}

// Every name is in exactly one shard, whatever the other names are, and a
// name's shard is the same in every process (a hash, not an order).
func TestSplitIsAPartitionByName(t *testing.T) {
	var names []string
	for i := 0; i < 200; i++ {
		names = append(names, fmt.Sprintf("repo-%d", i))
	}
	for n := 1; n <= 5; n++ {
		sizes := make([]int, n)
		for _, name := range names {
			in := 0
			for i := 1; i <= n; i++ {
				if (Shard{i, n}).Has(name) {
					in++
					sizes[i-1]++
				}
			}
			if in != 1 {
				t.Fatalf("%s is in %d of %d shards", name, in, n)
			}
		}
		for i, sz := range sizes {
			if n > 1 && (sz < 200/n/2 || sz > 200/n*2) {
				t.Errorf("shard %d/%d holds %d of 200 names", i+1, n, sz)
			}
		}
	}
	// Pinned: the split must not change between releases, or two jobs of
	// one CI run built by different osbench versions would disagree.
	if !(Shard{1, 3}).Has("pathsep") || (Shard{2, 3}).Has("pathsep") {
		for i := 1; i <= 3; i++ {
			t.Logf("pathsep in %d/3: %v", i, Shard{i, 3}.Has("pathsep"))
		}
		t.Errorf("pathsep moved shard")
	}
}
