# Google Benchmark. Platform code under its own BENCHMARK_OS_WINDOWS
# macro: src/sysinfo.cc (CPU count, frequency and caches: GetSystemInfo
# and the registry on Windows, /proc and sysconf elsewhere), src/timers.cc
# (process and thread CPU time: GetProcessTimes/GetThreadTimes against
# clock_gettime), src/colorprint.cc (console attributes against ANSI
# escapes) and src/sleep.cc.
#
# Two sources: Debian's benchmark package carries no GoogleTest, and its
# gtest unit tests look for one at ./googletest (cmake/GoogleTest.cmake's
# GOOGLETEST_PATH default) before they would download it; Debian's
# googletest source package is placed there. It is not task code.
repository "benchmark" {
  preset = "c-cmake"
  source {
    debian = "benchmark=1.7.1-1"
    sha256 = "14113b4e003a69ed226525bdcb283c57082497dd1d581af72d84f50f1c1e59d5"
  }
  extra_source "googletest" {
    debian = "googletest=1.12.1-0.2"
    sha256 = "cc90251040c145be18d5090787d9ec79e48217c6cef3ae78eb20f0e31551404c"
    at     = "googletest"
  }
  migrate = ["windows->linux", "linux->windows"]
  # Each run of the suite is a whole C++ build (20 minutes under load).
  flaky_runs = 1
  # -Werror is for release candidates, not for a coverage build.
  params = { cmake_options = ["-DBENCHMARK_ENABLE_WERROR=OFF"] }
}
