# The c-autotools preset: how osbench builds, tests and measures a C or C++
# project that builds with autoconf and automake (./configure && make &&
# make check), as most C libraries in Debian's source packages do.
#
# Both platforms build in the tree (where autotools projects expect to
# build), regenerating configure with autoreconf when the tree has only
# configure.ac, with gcc's --coverage instrumentation and no optimisation,
# and --disable-shared: static libraries, so test programs need no libtool
# wrappers and, under Wine, no DLLs. `make check` runs the tests through
# automake's parallel harness; the preset gives it its own test driver
# (LOG_DRIVER), which runs each test as automake's test-driver does (exit
# status 0 passes, 77 skips, 99 is a hard error; XFAIL_TESTS inverts), and
# adds what that driver lacks: a timeout per test, the skip list (a skipped
# test is not run and its .trs says SKIP) and, on Windows, Wine for
# Windows programs. Afterwards every .trs the harness left becomes one TAP
# line, which the tap parser reads: a test's id is its .trs file's path
# relative to source_dir without ".trs" (tests/test-reader), the same on
# both platforms because automake names the .trs of foo.exe foo.trs.
# Then the .gcda files become gcov's JSON, which the gcov importer reads.
#
# Why TAP rather than a parser for .trs files: a .trs is a harness's
# private record, spread over a tree of files, while the test step's
# parser reads one stream; TAP's ok / not ok / # SKIP / # TODO say all a
# .trs can (XFAIL is a failing TODO test, which the tap parser counts as
# skipped) and the tap parser already exists.
#
# Windows is the wine executor: configure --host=x86_64-w64-mingw32 with
# the mingw-w64 cross compilers, programs linked -static, and mingw-w64's
# gcov for the .gcda files.
#
# Limits: a project that sets its own LOG_DRIVER (tap-driver.sh) is run by
# this driver instead, one result per test program; tests with an
# extension in TEST_EXTENSIONS get the driver too (FOO_LOG_DRIVER). The
# serial harness (AUTOMAKE_OPTIONS = serial-tests) writes no .trs files
# and is refused with a message.
#
# Parameters (params = { ... }, or in one platform block):
#   configure_options  extra arguments for ./configure: ["--without-docs"].
#   source_dir         the directory holding configure (or configure.ac),
#                      relative to the repository root: "expat".
#
# The scripts are bash, run as `bash -eo pipefail -c SCRIPT NAME ARGS...`:
# values arrive as arguments, never quoted into the script.
#
# Debian: apt-get install autoconf automake libtool pkg-config make gcc gcc-mingw-w64-x86-64 wine wine64
locals {
  # Configure and build. $1: the source directory; $2: the --host
  # triplet, or "" for a native build; $3: extra linker flags; the rest:
  # configure arguments. CFLAGS and LDFLAGS are the environment configure
  # takes the compiler's flags from.
  autotools_build = <<-EOT
    cd "$1"
    host=$2
    export CFLAGS="--coverage -O0 -g" CXXFLAGS="--coverage -O0 -g" LDFLAGS="--coverage $3"
    shift 3
    if [[ ! -f configure ]]; then
      if [[ ! -f configure.ac && ! -f configure.in ]]; then
        echo "c-autotools preset: $PWD has neither configure nor configure.ac (set the source_dir parameter)" >&2
        exit 2
      fi
      autoreconf -fi >&2
    fi
    ./configure $${host:+--host="$host"} --disable-shared "$@"
    make -j"$(nproc)"
  EOT

  # automake's driver protocol: --test-name, --log-file, --trs-file,
  # --expect-failure, --enable-hard-errors, --color-tests, then -- and the
  # test's command. The timeout, skip regexp, top directory and whether to
  # use Wine come in the environment, set by run_tests.
  test_driver = <<-EOT
    #!/usr/bin/env bash
    name= log= trs= xfail=no hard=yes
    while [[ $# -gt 0 ]]; do
      case $1 in
        --test-name) name=$2; shift 2 ;;
        --log-file) log=$2; shift 2 ;;
        --trs-file) trs=$2; shift 2 ;;
        --expect-failure) xfail=$2; shift 2 ;;
        --enable-hard-errors) hard=$2; shift 2 ;;
        --color-tests | --collect-skipped-logs) shift 2 ;;
        --) shift; break ;;
        *) echo "c-autotools test driver: unknown option $1" >&2; exit 2 ;;
      esac
    done
    rel=$${PWD#"$OSBENCH_TOP"}
    rel=$${rel#/}
    id=$${rel:+$rel/}$${trs%.trs}
    if [[ -n $OSBENCH_SKIP_RE && $id =~ $OSBENCH_SKIP_RE ]]; then
      res=SKIP
      echo "skipped by the manifest's skip list" >"$log"
    else
      # A Windows program (its first bytes are MZ) runs under Wine; scripts
      # and their interpreters run as they are.
      if [[ -n $OSBENCH_WINE && -f $1 && $(head -c2 -- "$1") == MZ ]]; then set -- wine "$@"; fi
      status=0
      timeout "$OSBENCH_TEST_SECONDS" "$@" >"$log" 2>&1 </dev/null || status=$?
      case $status in
        0) res=PASS ;;
        77) res=SKIP ;;
        99) res=ERROR ;;
        124) res=ERROR; echo "c-autotools test driver: timed out after $OSBENCH_TEST_SECONDS s" >>"$log" ;;
        *) res=FAIL ;;
      esac
      if [[ $res == ERROR && $hard == no ]]; then res=FAIL; fi
      if [[ $xfail == yes ]]; then
        case $res in PASS) res=XPASS ;; FAIL) res=XFAIL ;; esac
      fi
    fi
    case $res in PASS | SKIP | XFAIL) recheck=no ;; *) recheck=yes ;; esac
    echo "$res: $name"
    printf ':test-result: %s\n:global-test-result: %s\n:recheck: %s\n:copy-in-global-log: %s\n' "$res" "$res" "$recheck" "$recheck" >"$trs"
  EOT

  # Run the tests, then collect coverage. $1: the gcov program; $2: the
  # timeout (a Go duration); $3: the coverage file (relative to the
  # repository root); $4: the source directory; $5: "wine" or ""; the
  # rest: the skip flags (-E REGEX). Only TAP goes to stdout; make's own
  # output goes to stderr. Tests run one at a time (no -j): every test
  # program writes the same .gcda files of its library.
  run_tests = <<-EOT
    gcov=$1 timeout=$2 coverage_file=$3 wine=$5
    [[ $coverage_file == /* ]] || coverage_file=$PWD/$coverage_file
    cd "$4"
    shift 5
    skip_re=
    if [[ $${1-} == -E ]]; then skip_re=$2; fi
    seconds=0 rest=$timeout
    while [[ $rest =~ ^([0-9]+)([hms])(.*)$ ]]; do
      case $${BASH_REMATCH[2]} in
        h) seconds=$((seconds + $${BASH_REMATCH[1]} * 3600)) ;;
        m) seconds=$((seconds + $${BASH_REMATCH[1]} * 60)) ;;
        s) seconds=$((seconds + $${BASH_REMATCH[1]})) ;;
      esac
      rest=$${BASH_REMATCH[3]}
    done
    if [[ -n $rest || $seconds -eq 0 ]]; then
      echo "c-autotools preset: cannot turn the timeout '$timeout' into whole seconds (write it like 90s, 10m or 1h30m)" >&2
      exit 2
    fi
    driver=$PWD/_osbench_test_driver
    cat >"$driver" <<'DRIVER'
    ${local.test_driver}
    DRIVER
    chmod +x "$driver"
    # Every extension in TEST_EXTENSIONS has its own driver variable
    # (.sh: SH_LOG_DRIVER); TEST_LOG_DRIVER is .test's, the default one.
    drivers=("LOG_DRIVER=$driver" "TEST_LOG_DRIVER=$driver")
    while read -r ext; do
      ext=$${ext#.}
      if [[ $ext =~ ^[A-Za-z0-9_]+$ && $ext != test ]]; then drivers+=("$${ext^^}_LOG_DRIVER=$driver"); fi
    done < <(find . -name Makefile -exec sed -n 's/^TEST_EXTENSIONS *= *//p' {} + | tr ' ' '\n' | sort -u)
    find . -name '*.trs' -delete
    status=0
    OSBENCH_TOP=$PWD OSBENCH_SKIP_RE=$skip_re OSBENCH_TEST_SECONDS=$seconds OSBENCH_WINE=$wine \
      make check "$${drivers[@]}" >&2 || status=$?
    mapfile -d '' trs_files < <(find . -name '*.trs' -print0 | sort -z)
    if [[ $${#trs_files[@]} -eq 0 ]]; then
      echo "c-autotools preset: make check left no .trs files: it failed before any test ran (status $status), or the project has no TESTS or uses automake's serial harness" >&2
      exit $((status == 0 ? 2 : status))
    fi
    n=0
    for f in "$${trs_files[@]}"; do
      id=$${f#./}
      id=$${id%.trs}
      id=$${id//#/\\#}
      mapfile -t results < <(sed -n 's/^:test-result: *\([A-Z]*\).*/\1/p' "$f")
      k=0
      for res in "$${results[@]}"; do
        n=$((n + 1)) k=$((k + 1))
        name=$id
        if [[ $${#results[@]} -gt 1 ]]; then name=$id/$k; fi
        case $res in
          PASS) echo "ok $n - $name" ;;
          SKIP) echo "ok $n - $name # SKIP" ;;
          XFAIL) echo "not ok $n - $name # TODO expected to fail" ;;
          *) echo "not ok $n - $name" ;;
        esac
      done
    done
    echo "1..$n"
    find . -name '*.gcda' -print0 | sort -z | xargs -0 -r "$gcov" --json-format --stdout >"$coverage_file"
    exit "$status"
  EOT
}

preset "c-autotools" {
  language = "c"
  params = {
    configure_options = []
    source_dir        = "."
  }

  platform "linux" {
    executor = "local"

    build {
      command = concat(["bash", "-eo", "pipefail", "-c", local.autotools_build, "c-autotools-build", param.source_dir, "", ""], param.configure_options)
      # The build's own bound (see c-cmake).
      timeout = "30m"
    }

    test {
      command      = concat(["bash", "-eo", "pipefail", "-c", local.run_tests, "c-autotools-test", "gcov", timeout, coverage_file, param.source_dir, ""], skip_args)
      parser       = "tap"
      timeout      = "10m"
      eval_timeout = "5m"
      skip_style   = "ctest"
    }

    coverage {
      format = "gcov"
      path   = "_osbench_coverage.json"
    }
  }

  platform "windows" {
    executor = "wine"
    env = {
      # Wine stores Windows' Unicode file names in the locale's charset.
      LC_CTYPE = "C.UTF-8"
    }

    build {
      command = concat(["bash", "-eo", "pipefail", "-c", local.autotools_build, "c-autotools-build", param.source_dir, "x86_64-w64-mingw32", "-static"], param.configure_options)
      # The build's own bound (see c-cmake).
      timeout = "30m"
    }

    test {
      command = concat(["bash", "-eo", "pipefail", "-c", local.run_tests, "c-autotools-test", "x86_64-w64-mingw32-gcov", timeout, coverage_file, param.source_dir, "wine"], skip_args)
      parser  = "tap"
      # Wine starts each test program in about 2 s.
      timeout      = "20m"
      eval_timeout = "10m"
      skip_style   = "ctest"
    }

    coverage {
      format = "gcov"
      path   = "_osbench_coverage.json"
    }
  }
}
