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
locals {
  # CTest tests whose programs the targets below leave unbuilt: skipped on
  # both platforms, or ctest would report each as a program not found.
  unbuilt = [
    "args_product_test", "benchmark_setup_teardown", "complexity_benchmark",
    "cxx03", "diagnostics_test", "display_aggregates_only_test",
    "donotoptimize_test", "filter_*", "fixture_test", "link_main_test",
    "map_test", "memory_manager_test", "multiple_ranges_test",
    "options_benchmarks", "perf_counters_test", "register_benchmark_test",
    "repetitions_benchmark", "report_aggregates_only_test",
    "skip_with_error_test", "spec_arg", "spec_arg_verbosity",
    "templated_fixture_test", "user_counters_tabular_test",
    "user_counters_thousands_test",
  ]
}

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
  # Each run of the suite is a whole C++ build (10-20 minutes under load).
  flaky_runs = 1
  params = {
    # -Werror is for release candidates, not for a coverage build.
    cmake_options = ["-DBENCHMARK_ENABLE_WERROR=OFF"]
    # The gtest unit tests, the output tests that print what sysinfo.cc
    # and timers.cc measure (the context, CPU times and rates), and two
    # plain benchmark programs: 13 of the 45 test programs. Each is
    # linked statically for Windows, a minute or two of ld under load;
    # all 45 ran past a 30m build.
    targets = [
      "benchmark_gtest", "benchmark_name_gtest",
      "benchmark_random_interleaving_gtest", "commandlineflags_gtest",
      "perf_counters_gtest", "statistics_gtest", "string_util_gtest",
      "time_unit_gtest", "reporter_output_test", "user_counters_test",
      "internal_threading_test", "benchmark_test", "basic_test",
    ]
  }

  platform "linux" {
    test { skip = local.unbuilt }
  }

  platform "windows" {
    # Static mingw links of the 13 programs and GoogleTest under load.
    build { timeout = "60m" }
    test { skip = local.unbuilt }
  }
}
