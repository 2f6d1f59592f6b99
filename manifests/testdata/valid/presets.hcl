# A curator's own preset, used by two repositories: a CMake project tested
# with ctest, and a script-driven one read by a regex parser.
locals {
  build_dir = "build"
}

preset "cmake" {
  language = "c"

  platform "linux" {
    build {
      command = ["cmake", "--build", local.build_dir]
    }
    test {
      command    = concat(["ctest", "--test-dir", local.build_dir, "--output-junit", "junit.xml"], skip_args)
      parser     = "junit"
      timeout    = "15m"
      skip_style = "ctest"
    }
    coverage {
      format = "lcov"
      path   = "build/coverage.info"
    }
  }
}

repository "libpath" {
  preset = "cmake"
  source {
    git    = "https://example.com/libpath.git"
    commit = "95a014d0e4a8a6c1b0e8f3b6d2f6a1c3e5b7d9f1"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      skip = ["symlink_test", "perm.test"]
    }
  }

  platform "windows" {
    executor = "wine"
    build {
      command = ["cmake", "--build", "build-mingw"]
    }
    test {
      command = "ctest --test-dir build-mingw --output-junit junit.xml"
      shell   = "bash"
      dir     = "."
      parser  = "junit"
      timeout = "40m"
    }
  }
}

repository "scripted" {
  source {
    path = "/srv/repos/scripted"
  }
  language = "c"
  migrate  = ["windows->linux"]
  user     = "root"

  platform "linux" {
    test {
      command = ["./run-tests.sh", "--verbose"]
      dir     = "tests"
      parser  = "regex"
      regex {
        pattern  = "^(?P<status>ok|FAIL) (?P<id>\\S+)"
        statuses = { ok = "pass", FAIL = "fail" }
      }
    }
  }

  platform "windows" {
    executor = "temporal"
    test {
      command = "& .\\run-tests.ps1"
      shell   = "pwsh"
      parser  = "tap"
    }
  }
}
