# The c-cmake preset: how osbench builds, tests and measures a C or C++
# project that uses CMake and registers its tests with CTest (add_test).
#
# Both platforms build in _osbench_build, a directory inside the scratch
# copy of the repository, with gcc's --coverage instrumentation; run the
# tests with ctest, whose text output the ctest parser reads (test ids are
# the names given to add_test, the same on both platforms); then turn the
# .gcda files the tests wrote into gcov's JSON, which the gcov importer
# reads. Sources are compiled with absolute paths, so gcov names them
# absolutely and osbench makes them repo-relative.
#
# Windows is the wine executor: the mingw-w64 cross compilers, test programs
# launched by ctest through Wine (CMAKE_CROSSCOMPILING_EMULATOR), and
# mingw-w64's gcov for the .gcda files they leave. Programs are linked
# statically, so they need none of MinGW's runtime DLLs, which Wine would
# not find.
#
# Parameters (params = { ... } in a manifest, or in one of its platform
# blocks for that platform only):
#   cmake_options  extra arguments for the configure step, e.g. the option
#                  that turns a project's tests on: ["-DFOO_TESTS=ON"].
#   source_dir     the directory of the top CMakeLists.txt, relative to the
#                  repository root, for projects that keep it in a
#                  subdirectory: "expat".
#   runner         how the tests run:
#                  "ctest" (default): ctest runs what the project registered
#                    with add_test; the ctest parser reads its output.
#                  "gtest": the GoogleTest programs in programs run
#                    directly, each writing --gtest_output=xml; the junit
#                    parser reads the report they make. Skips become
#                    --gtest_filter=-PATTERN (spell them Suite.Name). A
#                    program that dies in a test is run again without it;
#                    that test is an error, the others keep their results.
#                  "each": for a project that registers its whole suite as
#                    one CTest test: each program in programs lists its
#                    tests (program list_args..., the first word of each
#                    line is a test's name), then runs each alone
#                    (program run_args... NAME); exit status 0 passes,
#                    the program's own TAP "# SKIP" or skip_exit_code
#                    skips. Test ids are PROGRAM/NAME, read as TAP; a skip
#                    entry may be NAME or PROGRAM/NAME.
#   programs       test programs, relative to the build directory, for the
#                  gtest and each runners: ["bin/arestest"] (c-ares's).
#   list_args      the each runner's listing arguments: ["--list"].
#   run_args       arguments before the test's name when each runs one.
#   working_dir    where the each runner runs its programs, relative to
#                  the repository root; "" (default): the
#                  WORKING_DIRECTORY CTest registered for the program
#                  (read from ctest --show-only=json-v1), else the build
#                  directory.
#   skip_exit_code an exit status by which the each runner's programs say
#                  a test skipped itself (77 in automake's convention);
#                  0 (default): none. A TAP "# SKIP" line a program
#                  prints for the test is a skip too.
#   targets        the CMake targets to build (cmake --build --target),
#                  e.g. the test programs: ["uv_run_tests_a"]; [] (default):
#                  all. Every run builds, the masks' build checks too.
#   mingw_threads  the thread model of the mingw-w64 compilers that build
#                  for Windows: "posix" (default; C++11 threads work) or
#                  "win32" (g++ 12 has no std::thread or std::mutex).
#
# The scripts are bash, run as `bash -eo pipefail -c SCRIPT NAME ARGS...`:
# the values that differ by platform or by repository (the timeout, the
# skip flags) arrive as arguments, so no value is ever quoted into the
# script. A repository overrides a command with an argv list as usual.
#
# Debian: apt-get install cmake gcc g++ gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine wine64
# (the mingw-w64 packages bring both thread models' compilers:
# x86_64-w64-mingw32-g++-posix and -win32)
locals {
  # Configure and build. $1: extra linker flags; $2: the source directory;
  # $3: the targets to build, one per line (none: all); the rest: cmake
  # arguments.
  # CFLAGS, CXXFLAGS and LDFLAGS are how CMake takes its first flags from
  # the environment, for C-only, C++-only and mixed projects alike. Debug:
  # no optimisation, so each line is counted as written.
  cmake_build = <<-EOT
    export CFLAGS=--coverage CXXFLAGS=--coverage LDFLAGS="--coverage $1"
    source_dir=$2
    mapfile -t targets <<<"$3"
    shift 3
    # Only the targets asked for (the test programs and what they link),
    # not a project's every library flavour and benchmark.
    target_args=()
    if [[ -n $${targets[*]} ]]; then target_args=(--target "$${targets[@]}"); fi
    cmake -S "$source_dir" -B _osbench_build -DCMAKE_BUILD_TYPE=Debug "$@"
    cmake --build _osbench_build --parallel "$(nproc)" "$${target_args[@]}"
  EOT

  # Many projects register a test by its program's path, add_test(NAME x
  # COMMAND ${CMAKE_BINARY_DIR}/x), not by its target's name; ctest then
  # neither finds x (the program is x.exe) nor runs it through the
  # emulator. A Windows host would find x.exe by itself; here a small
  # launcher x beside each x.exe runs it through Wine.
  wine_launchers = <<-EOT
    find _osbench_build -name '*.exe' -print0 | while IFS= read -r -d '' exe; do
      launcher=$${exe%.exe}
      [[ -e $launcher ]] && continue
      printf '#!/bin/sh\nexec wine %q "$@"\n' "$PWD/$exe" >"$launcher"
      chmod +x "$launcher"
    done
  EOT

  # The Windows build: a toolchain file for the mingw-w64 cross compilers,
  # written into the build directory so the repository is not touched, then
  # cmake_build. $1: the thread model of the compilers (posix or win32);
  # $2: the source directory; $3: the targets; the rest: cmake arguments. The compilers are
  # named by their thread model, not through Debian's alternatives, whose
  # default is win32: its g++ 12 has no std::thread, std::mutex or
  # std::condition_variable, which most C++ libraries use. A toolchain
  # file's set() wins over -DCMAKE_CXX_COMPILER, so the choice is a
  # parameter. The posix runtime (libwinpthread) is linked statically with
  # the rest (-static). The find-root settings keep the build from picking
  # up the host's Linux libraries and headers.
  mingw_build = <<-EOT
    threads=$1
    shift
    case $threads in
      posix | win32) ;;
      *)
        echo "c-cmake preset: unknown mingw_threads '$threads' (posix or win32)" >&2
        exit 2
        ;;
    esac
    mkdir -p _osbench_build
    cat >_osbench_build/mingw-w64.cmake <<CMAKE
    set(CMAKE_SYSTEM_NAME Windows)
    set(CMAKE_SYSTEM_PROCESSOR x86_64)
    set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-$threads)
    set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-$threads)
    set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
    set(CMAKE_CROSSCOMPILING_EMULATOR wine)
    set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
    set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
    set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
    set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
    set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
    CMAKE
    source_dir=$1 targets=$2
    shift 2
    set -- -static "$source_dir" "$targets" -DCMAKE_TOOLCHAIN_FILE="$PWD/_osbench_build/mingw-w64.cmake" "$@"
    ${local.cmake_build}
    ${local.wine_launchers}
  EOT

  # A CMake script that reads CTest's json-v1 listing (LISTING) and writes
  # (OUT) one line per test: its program (after the emulator, wine, when
  # there is one) and the WORKING_DIRECTORY registered for it, or nothing,
  # separated by a tab. CMake reads JSON itself (3.19), so the each runner
  # needs no other tool.
  ctest_workdirs = <<-EOT
    file(READ "$${LISTING}" json)
    file(WRITE "$${OUT}" "")
    string(JSON count ERROR_VARIABLE err LENGTH "$${json}" tests)
    if(err OR count EQUAL 0)
      return()
    endif()
    math(EXPR last "$${count} - 1")
    foreach(i RANGE $${last})
      string(JSON argc ERROR_VARIABLE err LENGTH "$${json}" tests $${i} command)
      if(err OR argc EQUAL 0)
        continue()
      endif()
      string(JSON program GET "$${json}" tests $${i} command 0)
      get_filename_component(base "$${program}" NAME)
      if(base STREQUAL "wine" AND argc GREATER 1)
        string(JSON program GET "$${json}" tests $${i} command 1)
      endif()
      set(dir "")
      string(JSON nprops ERROR_VARIABLE err LENGTH "$${json}" tests $${i} properties)
      if(NOT err AND nprops GREATER 0)
        math(EXPR lastprop "$${nprops} - 1")
        foreach(j RANGE $${lastprop})
          string(JSON prop GET "$${json}" tests $${i} properties $${j} name)
          if(prop STREQUAL "WORKING_DIRECTORY")
            string(JSON dir GET "$${json}" tests $${i} properties $${j} value)
          endif()
        endforeach()
      endif()
      file(APPEND "$${OUT}" "$${program}\t$${dir}\n")
    endforeach()
  EOT

  # Run the tests, then collect coverage. $1: the gcov program; $2: the
  # timeout (a Go duration); $3: the coverage file; $4: the runner; $5: the
  # report file; $6, $7, $8: the programs, list_args and run_args
  # parameters, one per line; $9, $10: the working_dir and skip_exit_code
  # parameters; the rest: the skip flags. Only the runner's
  # results go to stdout (ctest's text, or TAP), or to the report file.
  # Tests run one at a time: every test program of a project writes the
  # same .gcda files of its library, and Wine's file locks are no place to
  # race on them. A test program that crashed leaves no counts for what it
  # ran; the others still count.
  run_tests = <<-EOT
    gcov=$1 timeout=$2 coverage_file=$3 runner=$4 report=$5
    mapfile -t programs <<<"$6"
    mapfile -t list_args <<<"$7"
    mapfile -t run_args <<<"$8"
    working_dir=$9 skip_code=$${10}
    shift 10
    # The parameters are lists joined by newlines; an empty list is one
    # empty line.
    [[ -z $${programs[*]} ]] && programs=()
    [[ -z $${list_args[*]} ]] && list_args=()
    [[ -z $${run_args[*]} ]] && run_args=()
    # ctest's --timeout is in seconds, osbench's are Go durations.
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
      echo "c-cmake preset: cannot turn the timeout '$timeout' into whole seconds (write it like 90s, 10m or 1h30m)" >&2
      exit 2
    fi
    if [[ $runner != ctest && $${#programs[@]} -eq 0 ]]; then
      echo "c-cmake preset: runner '$runner' needs the programs parameter: the test programs, relative to the build directory" >&2
      exit 2
    fi
    status=0
    case $runner in
      ctest)
        ctest --test-dir _osbench_build --timeout "$seconds" --no-tests=error --output-on-failure "$@" || status=$?
        ;;
      gtest)
        # Each GoogleTest program writes its JUnit XML (a path relative to
        # its working directory, which Wine maps as well as Linux does); the
        # report is their concatenation, which the junit parser reads.
        # GoogleTest writes the XML when the program ends, so a program that
        # dies in a test (a segfault, an abort) writes none, and one crash
        # would lose every result of its run. So the test it died in — the
        # last "[ RUN      ] Suite.Name" of its output with no end line
        # ("[       OK ]", "[  FAILED  ]", "[  SKIPPED ]") after it — is
        # reported as an error, and the program runs again with that test
        # filtered out too, up to max_crashes times. A program that died
        # outside any test, or ran out of time, reports nothing more.
        : >"$report"
        mkdir -p _osbench_build/_osbench_gtest
        # The skip flags: one --gtest_filter=-PATTERNS (see skip_style).
        filter= other=()
        for arg in "$@"; do
          if [[ $arg == --gtest_filter=* ]]; then filter=$${arg#--gtest_filter=}; else other+=("$arg"); fi
        done
        max_crashes=10
        n=0
        for program in "$${programs[@]}"; do
          crashed=()
          while :; do
            n=$((n + 1))
            xml=_osbench_gtest/$n.xml
            out=_osbench_build/_osbench_gtest/$n.out
            run_filter=$filter
            if [[ $${#crashed[@]} -gt 0 ]]; then
              excluded=$(IFS=:; echo "$${crashed[*]}")
              # A filter is POSITIVE[-NEGATIVE]; test names hold no '-'.
              if [[ $run_filter == *-* ]]; then run_filter=$run_filter:$excluded; else run_filter=$${run_filter:-*}-$excluded; fi
            fi
            args=("$${other[@]}")
            if [[ -n $run_filter ]]; then args+=(--gtest_filter="$run_filter"); fi
            code=0
            (cd _osbench_build && timeout "$seconds" "./$program" --gtest_output="xml:$xml" "$${args[@]}") 2>&1 | tee "$out" >&2 || code=$?
            if [[ $code -ne 0 ]]; then status=$code; fi
            if [[ -f _osbench_build/$xml ]]; then
              cat "_osbench_build/$xml" >>"$report"
              break
            fi
            running=$(tr -d '\r' <"$out" | awk '
              /^\[ RUN      \] / { sub(/^\[[^]]*\] /, ""); sub(/[,[:space:]].*$/, ""); running = $0; next }
              /^\[ *(OK|FAILED|SKIPPED) *\] / { sub(/^\[[^]]*\] /, ""); sub(/[,[:space:]].*$/, ""); if ($0 == running) running = "" }
              END { print running }')
            if [[ $code -eq 124 || -z $running || $running != *.* || " $${crashed[*]} " == *" $running "* ]]; then
              echo "c-cmake preset: $program ended (exit $code) without its XML report, not in a test it could leave out; the rest of its results are lost" >&2
              break
            fi
            suite=$${running%%.*}
            printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="%s">\n    <testcase name="%s" classname="%s" status="run" result="completed">\n      <error message="the test program died (exit %s) in this test; the others ran again without it"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n' \
              "$suite" "$${running#*.}" "$suite" "$code" >>"$report"
            crashed+=("$running")
            if [[ $${#crashed[@]} -ge $max_crashes ]]; then
              echo "c-cmake preset: $program died in $max_crashes tests ($${crashed[*]}); the rest of its results are lost" >&2
              break
            fi
            echo "c-cmake preset: $program died (exit $code) in $running; running it again without that test" >&2
          done
        done
        ;;
      each)
        # A runner that registers its whole suite as one CTest test: list
        # the tests (program list_args...), run each alone (program
        # run_args... NAME) and report it as a TAP line named PROGRAM/NAME:
        # a skip when the program said so — a TAP "# SKIP" line of its own
        # (libuv: "ok 1 - tty # SKIP Cannot open /dev/tty") or the
        # skip_exit_code status — else a pass on exit status 0. What the
        # program prints can only make a test a skip, never a pass. The
        # skip flags are ctest's (-E REGEX), applied here to the test's
        # name and to its id PROGRAM/NAME, the spelling osbench prints.
        skip_re=
        if [[ $${1-} == -E ]]; then skip_re=$2; fi
        # Where each program runs: the working_dir parameter, else the
        # WORKING_DIRECTORY CTest has for it (libuv's fixtures are found
        # from its source directory), else the build directory.
        declare -A registered=()
        if [[ -z $working_dir ]] && ctest --test-dir _osbench_build --show-only=json-v1 >_osbench_build/_osbench_ctest.json; then
          cat >_osbench_build/_osbench_workdirs.cmake <<'CMAKE'
    ${local.ctest_workdirs}
    CMAKE
          : >_osbench_build/_osbench_workdirs.txt
          if ! cmake -DLISTING=_osbench_build/_osbench_ctest.json -DOUT=_osbench_build/_osbench_workdirs.txt -P _osbench_build/_osbench_workdirs.cmake >&2; then
            echo "c-cmake preset: cannot read the working directories CTest registered; the programs run in the build directory" >&2
          fi
          while IFS=$'\t' read -r program dir; do
            if [[ -n $dir ]]; then
              registered[$(realpath -m "$${program%.exe}")]=$dir
            fi
          done <_osbench_build/_osbench_workdirs.txt
        fi
        out=_osbench_build/_osbench_each.out
        n=0
        for program in "$${programs[@]}"; do
          name=$${program##*/}
          exe=$(realpath -m "_osbench_build/$program")
          dir=$PWD/_osbench_build
          if [[ -n $working_dir ]]; then
            dir=$PWD/$working_dir
          elif [[ -n $${registered[$exe]-} ]]; then
            dir=$${registered[$exe]}
          fi
          echo "c-cmake preset: $program runs in $dir" >&2
          listed=$(cd "$dir" && timeout "$seconds" "$exe" "$${list_args[@]}") || {
            echo "c-cmake preset: listing the tests of $program failed" >&2
            status=1
            continue
          }
          while IFS= read -r test; do
            # A listed line is the test's name, perhaps followed by more
            # ("ping_pong (helpers: tcp4_echo_server)" from libuv).
            test=$${test%$'\r'}
            test=$${test#"$${test%%[![:space:]]*}"}
            test=$${test%%[[:space:]]*}
            [[ -z $test ]] && continue
            n=$((n + 1))
            if [[ -n $skip_re && ($test =~ $skip_re || $name/$test =~ $skip_re) ]]; then
              echo "ok $n - $name/$test # SKIP"
              continue
            fi
            code=0
            (cd "$dir" && timeout "$seconds" "$exe" "$${run_args[@]}" "$test") >"$out" 2>&1 </dev/null || code=$?
            cat "$out" >&2
            if grep -Eqi '^[[:space:]]*ok([[:space:]]+[0-9]+)?([[:space:]].*)?#[[:space:]]*skip' "$out" || [[ $skip_code -ne 0 && $code -eq $skip_code ]]; then
              echo "ok $n - $name/$test # SKIP"
            elif [[ $code -eq 0 ]]; then
              echo "ok $n - $name/$test"
            else
              echo "not ok $n - $name/$test"
              status=1
            fi
          done <<<"$listed"
        done
        echo "1..$n"
        ;;
      *)
        echo "c-cmake preset: unknown runner '$runner' (ctest, gtest or each)" >&2
        exit 2
        ;;
    esac
    find _osbench_build -name '*.gcda' -print0 | sort -z | xargs -0 -r "$gcov" --json-format --stdout >"$coverage_file"
    exit "$status"
  EOT
}

locals {
  # What reads each runner's results.
  parsers = { ctest = "ctest", gtest = "junit", each = "tap" }
}

preset "c-cmake" {
  language = "c"
  params = {
    cmake_options  = []
    source_dir     = "."
    runner         = "ctest"
    programs       = []
    list_args      = []
    run_args       = []
    mingw_threads  = "posix"
    working_dir    = ""
    skip_exit_code = 0
    targets        = []
  }

  platform "linux" {
    executor = "local"

    build {
      command = concat(["bash", "-eo", "pipefail", "-c", local.cmake_build, "c-cmake-build", "", param.source_dir, join("\n", param.targets)], param.cmake_options)
      # The build's own bound: a compile is not a hung test, and under load
      # it can outlast the eval_timeout of a masked or patched tree's run.
      timeout = "30m"
    }

    test {
      command = concat(
        ["bash", "-eo", "pipefail", "-c", local.run_tests, "c-cmake-test", "gcov", timeout, coverage_file, param.runner, report_file],
        [join("\n", param.programs), join("\n", param.list_args), join("\n", param.run_args), param.working_dir, format("%d", param.skip_exit_code)],
        skip_args,
      )
      parser  = local.parsers[param.runner]
      report  = param.runner == "gtest" ? "_osbench_report.xml" : null
      timeout = "10m"
      # Masked and patched trees get less (see the go preset); like timeout,
      # it bounds each test.
      eval_timeout = "5m"
      skip_style   = param.runner == "gtest" ? "gtest" : "ctest"
    }

    coverage {
      format = "gcov"
      path   = "_osbench_coverage.json"
    }
  }

  platform "windows" {
    executor = "wine"
    env = {
      # Windows file names are Unicode; Wine stores them as host bytes in
      # the locale's charset, and without a locale (ASCII) a name outside
      # ASCII cannot be created at all.
      LC_CTYPE = "C.UTF-8"
    }

    build {
      command = concat(["bash", "-eo", "pipefail", "-c", local.mingw_build, "c-cmake-build", param.mingw_threads, param.source_dir, join("\n", param.targets)], param.cmake_options)
      timeout = "30m"
    }

    test {
      command = concat(
        ["bash", "-eo", "pipefail", "-c", local.run_tests, "c-cmake-test", "x86_64-w64-mingw32-gcov-${param.mingw_threads}", timeout, coverage_file, param.runner, report_file],
        [join("\n", param.programs), join("\n", param.list_args), join("\n", param.run_args), param.working_dir, format("%d", param.skip_exit_code)],
        skip_args,
      )
      parser = local.parsers[param.runner]
      report = param.runner == "gtest" ? "_osbench_report.xml" : null
      # Wine starts each test program in about 2 s.
      timeout      = "20m"
      eval_timeout = "10m"
      skip_style   = param.runner == "gtest" ? "gtest" : "ctest"
    }

    coverage {
      format = "gcov"
      path   = "_osbench_coverage.json"
    }
  }
}
