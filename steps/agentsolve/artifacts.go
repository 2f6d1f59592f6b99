package agentsolve

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// EnvArtifacts is a directory outside the workspace where the agent may
// leave its own record (a trajectory, a cost line): each regular file in
// it becomes a side artifact "agent-NAME" of the step, capped like every
// log. It is not in the patch.
const EnvArtifacts = "OSBENCH_ARTIFACTS"

// artifactsDir makes the directory, writable by whichever uid the executor
// runs the agent as: the step's work dir is already private to the step.
func artifactsDir(workDir string) (string, error) {
	dir := filepath.Join(workDir, "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o777)
}

// keepArtifacts stores the regular files the agent left in dir, each
// through side (the step's redacting side writer). Links and
// directories are skipped (a link could name a host file osbench can read
// and the agent cannot).
func keepArtifacts(side func(string) (io.WriteCloser, error), dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("agent artifacts: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if err := keepArtifact(side, filepath.Join(dir, e.Name()), "agent-"+e.Name()); err != nil {
			return err
		}
	}
	return nil
}

func keepArtifact(side func(string) (io.WriteCloser, error), path, name string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return fmt.Errorf("agent artifact: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	w, err := side(name)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, f)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("agent artifact %s: %w", name, err)
	}
	return nil
}
