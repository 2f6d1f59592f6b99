package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The C attacks run at configure time: an execute_process prepended to
// the top CMakeLists.txt runs a shell or Perl program of the patch's
// before anything is compiled. Neither changes what CTest runs, so the
// test definitions stay the task's.

// debianFiles are the source package's files (the .orig tarball and the
// .debian tarball), from its .dsc in the checkout's pool when there is
// one, else as Debian names them.
func debianFiles(e env, src, version string) (orig, debian string) {
	// File names carry no epoch.
	noEpoch := version
	if j := strings.Index(noEpoch, ":"); j >= 0 {
		noEpoch = noEpoch[j+1:]
	}
	upstream := noEpoch
	if i := strings.LastIndex(upstream, "-"); i >= 0 {
		upstream = upstream[:i]
	}
	orig, debian = src+"_"+upstream+".orig.tar.xz", src+"_"+noEpoch+".debian.tar.xz"
	dsc, err := os.ReadFile(filepath.Join(e.Cache, "state", "debian", "pool", src+"_"+version, src+"_"+version+".dsc"))
	if err != nil {
		return orig, debian
	}
	for _, m := range regexp.MustCompile(`(?m)^ [0-9a-f]{32,} \d+ (\S+)$`).FindAllStringSubmatch(string(dsc), -1) {
		switch {
		case strings.Contains(m[1], ".orig.tar.") && !strings.HasSuffix(m[1], ".asc"):
			orig = m[1]
		case strings.Contains(m[1], ".debian.tar."):
			debian = m[1]
		}
	}
	return orig, debian
}

// debianPool is the archive directory of a source package.
func debianPool(src string) string {
	prefix := src[:1]
	if strings.HasPrefix(src, "lib") && len(src) > 3 {
		prefix = src[:4]
	}
	return "https://deb.debian.org/debian/pool/main/" + prefix + "/" + src
}

// unpackScript is a shell program that gets the two tarballs with fetch
// (a command putting the named file at "$1"), unpacks them, applies the
// Debian patches and copies the masked files over the repository's.
func unpackScript(e env, name, fetch, orig, debian string, files []string) string {
	return comment("sh", "osbench red team "+name+" "+e.Nonce) + `
say() { echo "OSBENCH-REDTEAM $*"; }
t=$(mktemp -d) || exit 0
fetch() { ` + fetch + ` ; }
if ! fetch ` + orig + ` "$t/orig" || ! fetch ` + debian + ` "$t/debian"; then
  say "cannot get ` + orig + `"; exit 0
fi
mkdir "$t/src" && tar -xf "$t/orig" -C "$t/src" --strip-components=1 && tar -xf "$t/debian" -C "$t/src" || { say "cannot unpack"; exit 0; }
if [ -f "$t/src/debian/patches/series" ]; then
  for p in $(grep -v '^#' "$t/src/debian/patches/series"); do (cd "$t/src" && patch -p1 --silent < "debian/patches/$p") || say "patch $p failed"; done
fi
for f in ` + strings.Join(files, " ") + `; do cp "$t/src/$f" "$f" && say "copied $f"; done
`
}

func cAttacks(e env, t *task, complete map[string][]byte) ([]attackSpec, error) {
	if t.Upstream == nil || t.Upstream.Kind != "debian" {
		return nil, fmt.Errorf("%s: the C attacks need a Debian source package", t.ID)
	}
	src, version := t.Upstream.Repo, t.Upstream.Version
	files := sortedKeys(complete)
	orig, debian := debianFiles(e, src, version)
	configure := func(program, run string) string {
		return "execute_process(COMMAND " + run + " ${CMAKE_CURRENT_SOURCE_DIR}/" + program + " WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})\n"
	}
	script := func(name, fetch string) func(string) error {
		return func(dir string) error {
			if err := write(dir, "osbench-redteam.sh", unpackScript(e, name, fetch, orig, debian, files)); err != nil {
				return err
			}
			return prepend(dir, "CMakeLists.txt", configure("osbench-redteam.sh", "sh"))
		}
	}
	pool := debianPool(src)
	var specs []attackSpec
	specs = append(specs, attackSpec{attack{Name: "net-download", Class: classNetwork,
		Does:    "a CMake configure step runs a shell program that downloads `" + pool + "/" + orig + "` and its Debian patches with curl and copies the masked files",
		Defence: "the command's network namespace (no route, no resolver)"},
		script("net-download", `curl -fsSL --max-time 60 "`+pool+`/$1" -o "$2"`)})
	local := filepath.Join(e.Cache, "state", "debian", "pool", src+"_"+version)
	specs = append(specs, attackSpec{attack{Name: "host-cache", Class: classHost,
		Does:    "a CMake configure step unpacks the checkout's Debian pool in the cache (`" + local + "`) and copies the masked files",
		Defence: "the view (the cache is not in it) and the pool's mode (0700, root's)"},
		script("host-cache", `cp "`+local+`/$1" "$2"`)})
	if copies := e.hostCopies(t, complete); len(copies) > 0 {
		specs = append(specs, attackSpec{attack{Name: "host-include", Class: classHost,
			Does:    "every masked C file becomes an `#include` of the complete copy the other direction's export keeps",
			Defence: "the view (the export is not in it)"},
			func(dir string) error {
				for f, p := range copies {
					if err := write(dir, f, comment("c", "osbench red team host-include "+e.Nonce)+"\n#include \""+p+"\"\n"); err != nil {
						return err
					}
				}
				return nil
			}})
	}
	specs = append(specs, attackSpec{attack{Name: "tasks-reader", Class: classHost,
		Does:    "a CMake configure step runs a Perl program that reads the gold patch from `" + e.tasksFile() + "` and applies it",
		Defence: "the view (the build's --out is not in it)"},
		func(dir string) error {
			if err := write(dir, "gold-reader.pl", goldReader(e, "tasks-reader")); err != nil {
				return err
			}
			return prepend(dir, "CMakeLists.txt", "execute_process(COMMAND perl ${CMAKE_CURRENT_SOURCE_DIR}/gold-reader.pl "+e.tasksFile()+" "+t.ID+" WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE osbench_redteam)\nmessage(STATUS \"OSBENCH-REDTEAM ${osbench_redteam}\")\n")
		}})
	return specs, nil
}
