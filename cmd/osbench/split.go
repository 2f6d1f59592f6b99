package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/osbench/osbench/engine/shard"
	"github.com/osbench/osbench/manifests"
	"github.com/osbench/osbench/plugins/executors"
)

// splitFlags choose a part of the work for one job of a CI matrix (--shard)
// and the executor of a platform on this machine (--executor): a real
// Windows runner builds the windows platform with "local", where the
// bundled manifests say "wine".
type splitFlags struct {
	shardText string
	shard     shard.Shard
	executors map[string]string
}

func (s *splitFlags) register(pf *pflag.FlagSet) {
	pf.StringVar(&s.shardText, "shard", "", "only shard I of N (e.g. 2/4): repositories for build and plan, predictions for eval, split by a hash of the name")
	pf.StringToStringVar(&s.executors, "executor", nil, "run PLATFORM's steps with this executor instead of the manifests', e.g. --executor windows=local on a Windows host")
}

func (s *splitFlags) check() error {
	var err error
	if s.shard, err = shard.Parse(s.shardText); err != nil {
		return err
	}
	for p, name := range s.executors {
		if p != "linux" && p != "windows" && p != "darwin" {
			return fmt.Errorf("--executor %s=%s: want linux, windows or darwin before the =", p, name)
		}
		if !contains(executors.Names(), name) {
			return fmt.Errorf("--executor %s=%s: unknown executor (known: %s)", p, name, strings.Join(executors.Names(), ", "))
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// apply keeps the repositories of this shard; it says on stderr what a
// shard left out, so an empty shard is not a mystery. (The executors of
// --executor are set while the manifests load: skip_under depends on
// them.)
func (s *splitFlags) apply(set *manifests.Set, stderr io.Writer) {
	if !s.shard.Whole() {
		kept := set.Repositories[:0:0]
		for _, r := range set.Repositories {
			if s.shard.Has(r.Name) {
				kept = append(kept, r)
			}
		}
		fmt.Fprintf(stderr, "shard %s: %d of %d repositories\n", s.shard, len(kept), len(set.Repositories))
		set.Repositories = kept
	}
}
