package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/plugins/executors"
)

func newCacheCommand(g *globals) *cobra.Command {
	c := &cobra.Command{Use: "cache", Short: "Inspect and trim the cache"}
	c.AddCommand(
		&cobra.Command{
			Use: "stats", Short: "Count actions and blobs",
			RunE: func(cmd *cobra.Command, args []string) error {
				ca, err := g.openCache()
				if err != nil {
					return err
				}
				st, err := ca.Stats()
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "cache %s\nactions %d (%d failed)\nblobs %d (%s)\n", ca.Dir(), st.Actions, st.Failed, st.Blobs, humanBytes(st.BlobBytes+st.ActionBytes))
				return nil
			},
		},
		newCacheGCCommand(g),
		&cobra.Command{
			Use: "push", Short: "Upload every successful local result to the remote cache (--remote-cache)",
			Long: "push seeds a remote cache from a machine that built without one: every successful action record\nwhose blobs are all local is uploaded, blobs first. A build with --remote-cache uploads what it runs by itself.",
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if g.remote.url == "" {
					return usageError{fmt.Errorf("cache push needs --remote-cache URL (or OSBENCH_REMOTE_CACHE)")}
				}
				ca, err := g.openCache()
				if err != nil {
					return err
				}
				ctx, stop := signalContext()
				defer stop()
				n, err := ca.PushAll(ctx)
				fmt.Fprintf(cmd.OutOrStdout(), "%d action records pushed\n", n)
				return err
			},
		},
		&cobra.Command{
			Use: "verify", Short: "Rehash every blob; drop corrupt blobs and the records that need them",
			RunE: func(cmd *cobra.Command, args []string) error {
				ca, err := g.openCache()
				if err != nil {
					return err
				}
				res, err := ca.Verify()
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%d blobs checked, %d corrupt, %d action records dropped\n", res.Blobs, len(res.Corrupt), len(res.Broken))
				if len(res.Corrupt) > 0 || len(res.Broken) > 0 {
					return errSilent
				}
				return nil
			},
		},
	)
	return c
}

func newCacheGCCommand(g *globals) *cobra.Command {
	var maxSize string
	var maxAge, grace, prefixAge time.Duration
	c := &cobra.Command{
		Use: "gc [--max-size SIZE] [--max-age DURATION]", Short: "Trim the cache by last use",
		RunE: func(cmd *cobra.Command, args []string) error {
			size, err := parseBytes(maxSize)
			if err != nil {
				return usageError{fmt.Errorf("--max-size: %v", err)}
			}
			if prefixAge < 0 || maxAge < 0 || grace < 0 {
				return usageError{fmt.Errorf("--max-age, --grace and --wine-prefix-age take a duration of zero or more")}
			}
			ca, err := g.openCache()
			if err != nil {
				return err
			}
			res, err := ca.Trim(cache.TrimOptions{MaxSize: size, MaxAge: maxAge, Grace: grace})
			if err != nil {
				return err
			}
			b, _ := json.Marshal(res)
			g.log.Debug().RawJSON("trim", b).Msg("")
			fmt.Fprintf(cmd.OutOrStdout(), "removed %d actions and %d blobs, freed %s, kept %s\n", res.ActionsRemoved, res.BlobsRemoved, humanBytes(res.BytesFreed), humanBytes(res.BytesKept))
			// Wine prefixes are executor state, not cache entries: trimmed
			// by their own last lease (one is rebuilt in about a minute).
			pruned, err := executors.PruneWinePrefixes(filepath.Join(g.cacheDir, "state", "executors", "wine"), prefixAge, time.Now())
			if pruned.Prefixes > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "removed %d Wine prefixes unused for %v, freed %s\n", pruned.Prefixes, prefixAge, humanBytes(pruned.Bytes))
			}
			return err
		},
	}
	c.Flags().StringVar(&maxSize, "max-size", "", "keep at most this much (e.g. 500M, 10G)")
	c.Flags().DurationVar(&maxAge, "max-age", 0, "drop what was not used for this long (e.g. 720h)")
	c.Flags().DurationVar(&grace, "grace", time.Hour, "never remove a blob stored within this long (a running eval's patches)")
	c.Flags().DurationVar(&prefixAge, "wine-prefix-age", 72*time.Hour, "remove Wine prefixes (about 700 MB each) no command has used for this long")
	return c
}

// parseBytes reads "123", "10K", "500M", "2G" (powers of 1024).
func parseBytes(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	case "T":
		mult = 1 << 40
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a size like 500M", s)
	}
	return n * mult, nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
