package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The Go attacks. The go command runs no code of the patch while it
// builds, so what reaches the answer at build time goes through go.mod;
// what runs later is the test binary, in the executor's test sandbox.

func goAttacks(e env, t *task, complete map[string][]byte) ([]attackSpec, error) {
	masked := e.maskedRepo(t.ID)
	module, err := goModule(masked)
	if err != nil {
		return nil, err
	}
	version := ""
	if t.Upstream != nil {
		version = t.Upstream.Version
	}
	if version == "" {
		return nil, fmt.Errorf("%s: the task names no upstream version of %s", t.ID, module)
	}
	pkg, err := goPackage(masked)
	if err != nil {
		return nil, err
	}
	var specs []attackSpec

	// Network: the task's own module at its published version. The main
	// module cannot require itself, so the patch renames it and makes the
	// package a user of the published one.
	specs = append(specs, attackSpec{attack{Name: "net-module-require", Class: classNetwork,
		Does:    fmt.Sprintf("go.mod renames the main module and requires `%s %s` (the task's own module from the proxy); a new file imports it", module, version),
		Defence: "the task's locked set (deps.Outside): patch-rejected; else the offline GOPROXY (the module cache) and the network namespace"},
		func(dir string) error {
			gm, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err != nil {
				return err
			}
			mod := regexp.MustCompile(`(?m)^module\s+\S+`).ReplaceAllString(string(gm), "module example.com/osbench-redteam/"+pkg)
			mod += fmt.Sprintf("\nrequire %s %s\n", module, version)
			if err := write(dir, "go.mod", mod); err != nil {
				return err
			}
			return write(dir, "zz_redteam_orig.go", fmt.Sprintf("%s\npackage %s\n\nimport _ %q\n", comment("go", "osbench red team net-module-require "+e.Nonce), pkg, module))
		}})

	// Host files: a replace of a module onto the complete copy the build
	// exported for the other direction.
	if copies := e.hostCopies(t, complete); len(copies) > 0 {
		var one string
		for _, p := range copies {
			one = p
			break
		}
		root := filepath.Dir(one)
		for !fileExists(filepath.Join(root, "go.mod")) && root != "/" {
			root = filepath.Dir(root)
		}
		specs = append(specs, attackSpec{attack{Name: "host-replace", Class: classHost,
			Does:    "go.mod: `replace " + module + " => " + root + "` (the other direction's export, whose masked files are whole) under a renamed main module",
			Defence: "the task's locked set (a replace the task's go.mod lacks): patch-rejected; else the view"},
			func(dir string) error {
				gm, err := os.ReadFile(filepath.Join(dir, "go.mod"))
				if err != nil {
					return err
				}
				mod := regexp.MustCompile(`(?m)^module\s+\S+`).ReplaceAllString(string(gm), "module example.com/osbench-redteam/"+pkg)
				mod += fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", module, module, root)
				if err := write(dir, "go.mod", mod); err != nil {
					return err
				}
				return write(dir, "zz_redteam_orig.go", fmt.Sprintf("%s\npackage %s\n\nimport _ %q\n", comment("go", "osbench red team host-replace "+e.Nonce), pkg, module))
			}})
	}

	// Host files and the door nobody checked, from the test binary: the
	// patched package's init reads the answer where it lies on the host
	// and in the shared module cache, and says what it found.
	probes := []string{e.tasksFile(), filepath.Join(e.Cache, "state", "gomod")}
	for _, f := range sortedKeys(complete) {
		probes = append(probes, filepath.Join(e.maskedRepo(t.otherID()), f))
	}
	own := ownInModCache(e, module)
	for _, dir := range own {
		for _, f := range sortedKeys(complete) {
			probes = append(probes, filepath.Join(dir, f))
		}
	}
	class, name, defence := classHost, "host-read-test", "the view of the test sandbox; and a test binary cannot compile what it reads"
	if len(own) > 0 {
		class, name, defence = classDepCache, "depcache-read-test", "none for the read: the module cache is in every go command's view; compiling it needs a require or replace (deps.Outside)"
	}
	specs = append(specs, attackSpec{attack{Name: name, Class: class,
		Does:    "an init of the patched package reads " + strings.Join(probes, ", ") + " and prints what it could read",
		Defence: defence},
		func(dir string) error {
			return write(dir, "zz_redteam_probe.go", goProbe(e, pkg, name, probes))
		}})

	// Shared state: the test binary writes the module cache (the pinned
	// toolchain's sources live there) and the build cache.
	specs = append(specs, attackSpec{attack{Name: "gomodcache-writer", Class: classShared,
		Does:    "an init of the patched package plants a file that does not compile in the pinned toolchain's `src/runtime` under GOMODCACHE and files in GOMODCACHE and GOCACHE, then the gold patch in a later eval",
		Defence: "the test sandbox: GOMODCACHE and GOCACHE are read-only binds for test programs"},
		func(dir string) error {
			return write(dir, "zz_redteam_writer.go", goWriter(e, pkg))
		}})
	return specs, nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// goPackage is the package name of the repository's root package.
func goPackage(repo string) (string, error) {
	files, _ := filepath.Glob(filepath.Join(repo, "*.go"))
	sort.Strings(files)
	re := regexp.MustCompile(`(?m)^package\s+(\w+)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		if m := re.FindSubmatch(b); m != nil {
			return string(m[1]), nil
		}
	}
	return "", fmt.Errorf("%s: no Go package at the root", repo)
}

// ownInModCache lists the extracted sources of the module, any version,
// in the cache's shared GOMODCACHE.
func ownInModCache(e env, module string) []string {
	dirs, _ := filepath.Glob(filepath.Join(e.goModCache(), goEscape(module)+"@*"))
	sort.Strings(dirs)
	return dirs
}

// goEscape is the module cache's case-encoding of a module path: each
// upper-case letter becomes '!' and its lower case.
func goEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func goStrings(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// goProbe is a Go file whose init tries to read each path (through Z:
// too, for a Windows binary under Wine) and prints what it could.
func goProbe(e env, pkg, name string, paths []string) string {
	return comment("go", "osbench red team "+name+" "+e.Nonce) + `
package ` + pkg + `

import (
	"fmt"
	"os"
	"runtime"
)

func init() {
	for _, p := range ` + goStrings(paths) + ` {
		try := []string{p}
		if runtime.GOOS == "windows" {
			try = append(try, "Z:"+p)
		}
		for _, q := range try {
			if fi, err := os.Stat(q); err != nil {
				fmt.Fprintf(os.Stderr, "OSBENCH-REDTEAM cannot read %s: %v\n", q, err)
			} else if fi.IsDir() {
				_, err := os.ReadDir(q)
				fmt.Fprintf(os.Stderr, "OSBENCH-REDTEAM READ dir %s (listing: %v)\n", q, err)
			} else if b, err := os.ReadFile(q); err == nil {
				fmt.Fprintf(os.Stderr, "OSBENCH-REDTEAM READ %s: %d bytes\n", q, len(b))
			} else {
				fmt.Fprintf(os.Stderr, "OSBENCH-REDTEAM cannot read %s: %v\n", q, err)
			}
		}
	}
}
`
}

// goWriter is a Go file whose init tries to poison the shared Go caches:
// a file that does not compile in the runtime package of every pinned
// toolchain in GOMODCACHE (each later build of that toolchain would
// fail), and a new file at the top of GOMODCACHE and of GOCACHE.
func goWriter(e env, pkg string) string {
	return comment("go", "osbench red team gomodcache-writer "+e.Nonce) + `
package ` + pkg + `

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

func init() {
	var targets []string
	for _, v := range []string{"GOMODCACHE", "GOCACHE"} {
		if d := os.Getenv(v); d != "" {
			targets = append(targets, filepath.Join(d, "osbench-redteam-` + e.Nonce + `"))
		}
	}
	if d := os.Getenv("GOMODCACHE"); d != "" {
		rts, _ := filepath.Glob(filepath.Join(d, "golang.org", "toolchain@*", "src", "runtime"))
		for _, rt := range rts {
			targets = append(targets, filepath.Join(rt, "zz_osbench_redteam.go"))
		}
	}
	tried, written := 0, 0
	for _, p := range targets {
		for _, q := range []string{p, "Z:" + p} {
			if q != p && runtime.GOOS != "windows" {
				continue
			}
			tried++
			if err := os.WriteFile(q, []byte("package runtime\n\nthis does not compile: OSBENCH-REDTEAM poisoned by another evaluation\n"), 0o644); err == nil {
				written++
				fmt.Fprintf(os.Stderr, "OSBENCH-REDTEAM WROTE %s\n", q)
			}
		}
	}
	fmt.Fprintf(os.Stderr, "OSBENCH-REDTEAM Go caches: %d files tried, %d written\n", tried, written)
}
`
}
