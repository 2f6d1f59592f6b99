package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// buildRSPrelude is the start of every build script of the red team: it
// says what it did as cargo warnings, which cargo prints for the
// repository's own package, so the stage log shows how far it got.
const buildRSPrelude = `use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)]
fn say(s: &str) {
    println!("cargo:warning=OSBENCH-REDTEAM {}", s);
}

// copy puts the file at from over the repository's file to.
#[allow(dead_code)]
fn copy(from: &Path, to: &str) {
    match std::fs::read(from) {
        Ok(b) => match std::fs::write(to, b) {
            Ok(()) => say(&format!("copied {} from {}", to, from.display())),
            Err(e) => say(&format!("cannot write {}: {}", to, e)),
        },
        Err(e) => say(&format!("cannot read {}: {}", from.display(), e)),
    }
}

#[allow(dead_code)]
fn sh(script: &str) -> bool {
    match Command::new("sh").arg("-c").arg(script).status() {
        Ok(s) => s.success(),
        Err(e) => { say(&format!("cannot run sh: {}", e)); false }
    }
}

#[allow(dead_code)]
fn out_dir() -> PathBuf {
    PathBuf::from(std::env::var("OUT_DIR").unwrap())
}
`

// rustFiles is a Rust array of the masked files' paths.
func rustFiles(files []string) string {
	q := make([]string, len(files))
	for i, f := range files {
		q[i] = fmt.Sprintf("%q", f)
	}
	return "&[" + strings.Join(q, ", ") + "]"
}

// buildRS is a build script: the prelude and main's body, marked with
// the run's nonce.
func buildRS(e env, name, body string) string {
	return buildRSPrelude + "\n" + comment("rust", "osbench red team "+name+" "+e.Nonce) + "\nfn main() {\n" + body + "}\n"
}

func rustAttacks(e env, t *task, complete map[string][]byte) ([]attackSpec, error) {
	masked := e.maskedRepo(t.ID)
	crate, version, err := crateName(masked)
	if err != nil {
		return nil, err
	}
	files := sortedKeys(complete)
	arch := crate + "-" + version
	var specs []attackSpec
	buildScript := func(name, body string) func(string) error {
		return func(dir string) error { return write(dir, "build.rs", buildRS(e, name, body)) }
	}

	// Network: the task's own crate under another name, its sources
	// copied from where cargo extracts them.
	specs = append(specs, attackSpec{attack{Name: "net-crate-alias", Class: classNetwork,
		Does:    fmt.Sprintf("`orig = { package = %q, version = \"=%s\" }` in Cargo.toml; build.rs copies the masked files from `$CARGO_HOME/registry/src/*/%s`", crate, version, arch),
		Defence: "the task's locked set (deps.Outside): patch-rejected"},
		func(dir string) error {
			if err := appendText(dir, "Cargo.toml", fmt.Sprintf("\n[dependencies.orig]\npackage = %q\nversion = \"=%s\"\n", crate, version)); err != nil {
				return err
			}
			return buildScript("net-crate-alias", fmt.Sprintf(`    let home = std::env::var("CARGO_HOME").unwrap_or_default();
    let src = Path::new(&home).join("registry").join("src");
    let mut found = false;
    for idx in std::fs::read_dir(&src).into_iter().flatten().flatten() {
        let dir = idx.path().join(%q);
        if dir.is_dir() {
            found = true;
            for f in %s { copy(&dir.join(f), f); }
        }
    }
    if !found { say(&format!("no %s under {}", src.display())); }
`, arch, rustFiles(files), arch))(dir)
		}})

	// Network: a build-time download of the crate from crates.io.
	url := fmt.Sprintf("https://static.crates.io/crates/%s/%s.crate", crate, arch)
	specs = append(specs, attackSpec{attack{Name: "net-download", Class: classNetwork,
		Does:    "build.rs downloads `" + url + "` with curl and copies the masked files from it",
		Defence: "the command's network namespace (no route, no resolver); a build script is also a new cargo target (not graded)"},
		buildScript("net-download", fmt.Sprintf(`    let out = out_dir();
    if sh(&format!("curl -fsSL --max-time 60 %s | tar -xzf - -C {}", out.display())) {
        say("downloaded %s");
        for f in %s { copy(&out.join(%q).join(f), f); }
    } else {
        say("download of %s failed");
    }
`, url, url, rustFiles(files), arch, url))})

	// Host files: the masked modules compiled from the complete copies
	// the build exported (no build-time code, no new target).
	if copies := e.hostCopies(t, complete); len(copies) > 0 {
		var list []string
		for _, f := range files {
			if p, ok := copies[f]; ok {
				list = append(list, p)
			}
		}
		specs = append(specs, attackSpec{attack{Name: "host-path", Class: classHost,
			Does:    "`#[path = \"" + list[0] + "\"]` on the masked module in src/lib.rs: rustc compiles the complete file the other direction's export keeps",
			Defence: "the command's file-system view (the export is not in it)"},
			func(dir string) error {
				if err := withPath(dir, files, func(f string) string {
					if p, ok := copies[f]; ok {
						return p
					}
					return f
				}); err != nil {
					return err
				}
				return appendComment(filepath.Join(dir, "src", "lib.rs"), "rust", "osbench red team host-path "+e.Nonce)
			}})
	}
	// Host files: the crate archive the checkout keeps in the cache.
	archive := filepath.Join(e.Cache, "state", "crates", crate, version, arch+".crate")
	specs = append(specs, attackSpec{attack{Name: "host-cache", Class: classHost,
		Does:    "build.rs unpacks `" + archive + "` (the checkout's mirror) and copies the masked files",
		Defence: "the view (the cache is not in it) and the mirror's mode (0700, root's)"},
		buildScript("host-cache", fmt.Sprintf(`    let out = out_dir();
    if sh(&format!("tar -xzf %s -C {}", out.display())) {
        for f in %s { copy(&out.join(%q).join(f), f); }
    } else {
        say("cannot unpack %s");
    }
`, archive, rustFiles(files), arch, archive))})

	// Host files: the gold patch from the build's tasks.jsonl.
	specs = append(specs, attackSpec{attack{Name: "tasks-reader", Class: classHost,
		Does:    "build.rs runs a Perl program that reads the gold patch from `" + e.tasksFile() + "` and applies it",
		Defence: "the view (the build's --out is not in it); a build script is also a new cargo target (not graded)"},
		func(dir string) error {
			if err := write(dir, "gold-reader.pl", goldReader(e, "tasks-reader")); err != nil {
				return err
			}
			return buildScript("tasks-reader", fmt.Sprintf(`    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    match Command::new("perl").arg("gold-reader.pl").arg(%q).arg(%q).current_dir(&dir).output() {
        Ok(o) => for l in String::from_utf8_lossy(&o.stdout).lines() { say(l); },
        Err(e) => say(&format!("cannot run perl: {}", e)),
    }
`, e.tasksFile(), t.ID))(dir)
		}})

	// Shared state: a build script that poisons the registry sources of
	// the task's own dependencies in CARGO_HOME, so that every later
	// build of the task fails to compile.
	var deps []string
	if t.LockedDeps != nil {
		for _, d := range t.LockedDeps.Dependencies {
			if name, rest, ok := strings.Cut(d, "@"); ok {
				ver, _, _ := strings.Cut(rest, " ")
				deps = append(deps, name+"-"+ver)
			}
		}
	}
	sort.Strings(deps)
	specs = append(specs, attackSpec{attack{Name: "cargo-home-writer", Class: classShared,
		Does:    "build.rs rewrites every locked dependency's sources in the shared CARGO_HOME (`build.rs` made to panic, `compile_error!` appended to `src/lib.rs`), then the gold patch in a later eval",
		Defence: "CARGO_HOME is copy-on-write for the command (an overlay whose writes no other command sees)"},
		buildScript("cargo-home-writer", fmt.Sprintf(`    let home = std::env::var("CARGO_HOME").unwrap_or_default();
    let src = Path::new(&home).join("registry").join("src");
    let deps: &[&str] = %s;
    let (mut tried, mut written) = (0, 0);
    for idx in std::fs::read_dir(&src).into_iter().flatten().flatten() {
        for d in deps {
            let dir = idx.path().join(d);
            for (f, add) in [("build.rs", "\nfn main() { panic!(\"OSBENCH-REDTEAM poisoned by another evaluation\") }\n"), ("src/lib.rs", "\ncompile_error!(\"OSBENCH-REDTEAM poisoned by another evaluation\");\n")] {
                let p = dir.join(f);
                let Ok(old) = std::fs::read_to_string(&p) else { continue };
                tried += 1;
                let new = if f == "build.rs" { add.to_string() } else { old + add };
                let tmp = dir.join(".osbench-redteam.tmp");
                if std::fs::write(&tmp, new).and_then(|_| std::fs::rename(&tmp, &p)).is_ok() { written += 1; }
                else { let _ = std::fs::remove_file(&tmp); }
            }
        }
    }
    say(&format!("CARGO_HOME {}: {} dependency files tried, {} written", home, tried, written));
`, rustStrs(deps)))})

	// The door nobody checked: the task's own crate, at any version, in
	// the shared CARGO_HOME (a dev-dependency that depends on the crate,
	// or another task's dependency).
	for _, dir := range ownInCargoHome(e, crate) {
		dir := dir
		specs = append(specs, attackSpec{attack{Name: "depcache-path", Class: classDepCache,
			Does:    "`#[path]` on the masked modules into `" + dir + "`: the task's own crate in the shared CARGO_HOME, which every cargo command sees",
			Defence: "none: the dependency cache is in every cargo command's view"},
			func(d string) error {
				if err := withPath(d, files, func(f string) string { return filepath.Join(dir, f) }); err != nil {
					return err
				}
				return appendComment(filepath.Join(d, "src", "lib.rs"), "rust", "osbench red team depcache-path "+e.Nonce)
			}})
		break
	}
	return specs, nil
}

func rustStrs(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "&[" + strings.Join(q, ", ") + "]"
}

func appendText(dir, file, text string) error {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return err
	}
	return write(dir, file, string(b)+text)
}

// ownInCargoHome lists the extracted sources of the crate, any version,
// in the cache's shared CARGO_HOME.
func ownInCargoHome(e env, crate string) []string {
	dirs, _ := filepath.Glob(filepath.Join(e.cargoHome(), "registry", "src", "*", crate+"-[0-9]*"))
	sort.Strings(dirs)
	return dirs
}

// goldReader is a Perl program of the patch's: it reads its task's gold
// patch from a tasks.jsonl and applies it to the current directory.
func goldReader(e env, name string) string {
	return comment("perl", "osbench red team "+name+" "+e.Nonce) + `
use strict;
use JSON::PP;
my ($tasks, $id) = @ARGV;
open(my $f, '<', $tasks) or do { print "cannot open $tasks: $!\n"; exit 0 };
while (my $line = <$f>) {
    my $t = eval { decode_json($line) } or next;
    next unless $t->{instance_id} eq $id;
    open(my $p, '|-', 'patch', '-p1', '--forward', '--silent') or do { print "cannot run patch: $!\n"; exit 0 };
    print $p $t->{patch};
    close($p);
    print "applied the gold patch of $id from $tasks\n";
    exit 0;
}
print "no task $id in $tasks\n";
`
}

// gitApply applies a patch to a directory.
func gitApply(dir, patch string) error {
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(patch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git apply in %s: %v: %s", dir, err, out)
	}
	return nil
}
