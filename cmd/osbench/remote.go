package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/osbench/osbench/engine/cache"
	"github.com/osbench/osbench/engine/cache/httpcache"
)

// remoteFlags select a remote cache behind the local one. Each flag has an
// environment variable, so a CI job sets the cache once for all its steps;
// credentials come only from the environment (httpcache.Auth).
type remoteFlags struct {
	url      string
	readOnly bool
	timeout  time.Duration
}

func (r *remoteFlags) register(pf *pflag.FlagSet) {
	ro, _ := strconv.ParseBool(os.Getenv("OSBENCH_REMOTE_READ_ONLY"))
	timeout := 30 * time.Second
	if v := os.Getenv("OSBENCH_REMOTE_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			timeout = d
		}
	}
	pf.StringVar(&r.url, "remote-cache", os.Getenv("OSBENCH_REMOTE_CACHE"), "HTTP remote cache (Bazel protocol) behind the local one, e.g. http://cache:8080/osbench (env OSBENCH_REMOTE_CACHE; credentials from env "+httpcache.EnvToken+" or "+httpcache.EnvBasic+")")
	pf.BoolVar(&r.readOnly, "remote-read-only", ro, "read from the remote cache, never write to it: for untrusted runs (env OSBENCH_REMOTE_READ_ONLY)")
	pf.DurationVar(&r.timeout, "remote-timeout", timeout, "a remote request making no progress this long is a miss, and the remote is not used again in this run (env OSBENCH_REMOTE_TIMEOUT)")
}

func (r *remoteFlags) check() error {
	if v := os.Getenv("OSBENCH_REMOTE_TIMEOUT"); v != "" {
		if _, err := time.ParseDuration(v); err != nil {
			return fmt.Errorf("OSBENCH_REMOTE_TIMEOUT: %v", err)
		}
	}
	if v := os.Getenv("OSBENCH_REMOTE_READ_ONLY"); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Errorf("OSBENCH_REMOTE_READ_ONLY=%q: want true or false", v)
		}
	}
	if r.timeout <= 0 {
		return fmt.Errorf("--remote-timeout must be positive")
	}
	if r.url == "" {
		return nil
	}
	_, err := httpcache.New(r.url, httpcache.Options{})
	return err
}

func (r *remoteFlags) attach(c *cache.Cache, log zerolog.Logger) error {
	if r.url == "" {
		return nil
	}
	auth, err := httpcache.Auth()
	if err != nil {
		return err
	}
	s, err := httpcache.New(r.url, httpcache.Options{Timeout: r.timeout, Authorization: auth})
	if err != nil {
		return err
	}
	c.AttachRemote(s, cache.RemoteOptions{Name: s.String(), ReadOnly: r.readOnly, Warn: func(msg string) {
		log.Warn().Msg(msg)
	}})
	return nil
}
