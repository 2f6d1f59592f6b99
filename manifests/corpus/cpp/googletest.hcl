# GoogleTest's own tests of its platform layer, under its GTEST_OS_WINDOWS
# macro: src/gtest-filepath.cc (drive letters, '\\' and '/', the current
# directory), src/gtest-port.cc (regular expressions, thread counts,
# capturing stdout), src/gtest-death-test.cc (fork and exec against
# CreateProcess with a handle for the parent) and src/gtest.cc.
# Written by osbench init (debian:googletest=1.12.1-0.2 --runner gtest
# --param cmake_options=-DBUILD_GMOCK=OFF --param cmake_options=-Dgtest_build_tests=ON
# with programs and targets), edited only by these comments, flaky_runs,
# split and migrate (one direction).
repository "googletest" {
  preset = "c-cmake"
  source {
    debian = "googletest=1.12.1-0.2"
    sha256 = "cc90251040c145be18d5090787d9ec79e48217c6cef3ae78eb20f0e31551404c"
  }
  # linux->windows is left out: under split = 3 none of its groups is a task,
  # each for the method's reasons, not osbench's (docs/corpus.md, session 28):
  # group 2's whole-body mask makes UnitTest::Run return 0, group 3's masked
  # GetCurrentDir aborts every program at start-up, and group 1's masked
  # DirectoryExists spins googletest-options-test until its 30m limit, twice.
  # Trying it again costs about eight C++ builds under Wine and an hour of
  # spinning per make corpus; windows->linux alone keeps the task.
  migrate = ["windows->linux"]
  # Each run of the suite is a whole C++ build under Wine (10-20 minutes on
  # a loaded machine); the gold re-run is the second look at flakiness.
  flaky_runs = 1
  # The platform layer under test is also the harness running the tests: a
  # mask of FilePath::GetCurrentDir aborts every test program at start-up
  # (original_working_dir_ is checked), and a whole-direction task never
  # runs. Three groups per direction: windows->linux group 1 (the death
  # tests' fork/exec) is a task; group 2 (GetCurrentDir) aborts at
  # start-up, group 3 (DirectoryExists, mutexes) segfaults in DirectoryTest,
  # so its program writes no report.
  split = 3
  params = {
    cmake_options = ["-DBUILD_GMOCK=OFF", "-Dgtest_build_tests=ON"]
    programs      = ["googletest/googletest-filepath-test", "googletest/googletest-port-test", "googletest/googletest-options-test", "googletest/googletest-death-test-test"]
    runner        = "gtest"
    targets       = ["googletest-filepath-test", "googletest-port-test", "googletest-options-test", "googletest-death-test-test"]
  }

  platform "linux" {
    test {
      # eval_timeout: the first rung of 5m/10m/20m/30m/1h/2h at or above 3× the first run
      eval_timeout = "10m"
    }
  }

  platform "windows" {
    test {
      # timeout raised from 20m to 30m with eval_timeout, which cannot exceed it (eval_timeout: the first rung of 5m/10m/20m/30m/1h/2h at or above 3× the first run)
      timeout      = "30m"
      eval_timeout = "30m"
    }
  }
}
