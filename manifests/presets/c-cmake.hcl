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
# statically, so they need none of MinGW's runtime DLLs, which Wine cannot
# find.
#
# Debian: apt-get install cmake gcc g++ gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine wine64
locals {
  # The configure and build both platforms share; a platform sets CC, CXX
  # and the cmake_args array first. CFLAGS, CXXFLAGS and LDFLAGS are how
  # CMake takes initial flags from the environment, which works for C-only,
  # C++-only and mixed projects alike. Debug: no optimisation, so each line
  # is counted as written.
  cmake_build = <<-EOT
    export CFLAGS=--coverage CXXFLAGS=--coverage LDFLAGS="--coverage $extra_ldflags"
    cmake -S . -B _osbench_build -DCMAKE_BUILD_TYPE=Debug "$${cmake_args[@]}"
    cmake --build _osbench_build --parallel "$(nproc)"
  EOT

  # The test run both platforms share; a platform sets gcov, timeout, skip
  # (the -E flag and its regex, or nothing) and coverage_file first. Only
  # ctest writes to stdout, where the ctest parser reads it. Tests run one
  # at a time: every test program of a project writes the same .gcda files
  # of its library, and Wine's file locks are no place to race on them.
  ctest_gcov = <<-EOT
    # ctest's --timeout is in seconds, osbench's are Go durations.
    to_seconds() {
      local rest=$1 total=0
      while [[ $rest =~ ^([0-9]+)([hms])(.*)$ ]]; do
        case $${BASH_REMATCH[2]} in
          h) total=$((total + $${BASH_REMATCH[1]} * 3600)) ;;
          m) total=$((total + $${BASH_REMATCH[1]} * 60)) ;;
          s) total=$((total + $${BASH_REMATCH[1]})) ;;
        esac
        rest=$${BASH_REMATCH[3]}
      done
      if [[ -n $rest || $total -eq 0 ]]; then
        echo "c-cmake preset: cannot turn the timeout '$1' into whole seconds (write it like 90s, 10m or 1h30m)" >&2
        return 1
      fi
      echo "$total"
    }
    seconds=$(to_seconds "$timeout")
    status=0
    ctest --test-dir _osbench_build --timeout "$seconds" --no-tests=error --output-on-failure "$${skip[@]}" || status=$?
    # A test program that crashed leaves no .gcda for what it ran; the
    # others still count.
    find _osbench_build -name '*.gcda' -print0 | sort -z | xargs -0 -r "$gcov" --json-format --stdout >"$coverage_file"
    exit "$status"
  EOT
}

preset "c-cmake" {
  language = "c"

  platform "linux" {
    executor = "local"

    build {
      shell   = "bash"
      command = <<-EOT
        cmake_args=() extra_ldflags=
        ${local.cmake_build}
      EOT
    }

    test {
      shell = "bash"
      # skip_args is ["-E", "^(a|b)$"] or []: each word is single-quoted
      # for bash, a ' inside as '\''.
      command = <<-EOT
        gcov=gcov timeout='${timeout}' coverage_file='${coverage_file}'
        skip=(${join(" ", [for a in skip_args : format("'%s'", replace(a, "'", "'\\''"))])})
        ${local.ctest_gcov}
      EOT
      parser     = "ctest"
      timeout    = "10m"
      skip_style = "ctest"
    }

    coverage {
      format = "gcov"
      path   = "_osbench_coverage.json"
    }
  }

  platform "windows" {
    executor = "wine"

    build {
      shell = "bash"
      # The toolchain file is written into the build directory, so the
      # repository is not touched. The find-root settings keep the build
      # from picking up the host's Linux libraries and headers.
      command = <<-EOT
        mkdir -p _osbench_build
        cat >_osbench_build/mingw-w64.cmake <<'CMAKE'
        set(CMAKE_SYSTEM_NAME Windows)
        set(CMAKE_SYSTEM_PROCESSOR x86_64)
        set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
        set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++)
        set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
        set(CMAKE_CROSSCOMPILING_EMULATOR wine)
        set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
        set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
        set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
        set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
        set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
        CMAKE
        cmake_args=(-DCMAKE_TOOLCHAIN_FILE="$PWD/_osbench_build/mingw-w64.cmake") extra_ldflags=-static
        ${local.cmake_build}
      EOT
    }

    test {
      shell   = "bash"
      command = <<-EOT
        gcov=x86_64-w64-mingw32-gcov timeout='${timeout}' coverage_file='${coverage_file}'
        skip=(${join(" ", [for a in skip_args : format("'%s'", replace(a, "'", "'\\''"))])})
        ${local.ctest_gcov}
      EOT
      parser     = "ctest"
      # Wine starts each test program in about 2 s.
      timeout    = "20m"
      skip_style = "ctest"
    }

    coverage {
      format = "gcov"
      path   = "_osbench_coverage.json"
    }
  }
}
