# Platform code: src/cmocka.c catches a crashing test with signal handlers on
# POSIX and an unhandled-exception filter (SEH) on Windows; timing and setjmp.
repository "cmocka" {
  preset = "c-cmake"
  source {
    debian = "cmocka=1.1.5-2.1"
    sha256 = "9f94190b571e059dd6a359c7effd40b982c6c2796959ea201cf41e7cac0b6730"
  }
  migrate = ["windows->linux", "linux->windows"]
  # Its own tests are off by default; the preset links statically.
  params = { cmake_options = ["-DUNIT_TESTING=ON", "-DWITH_STATIC_LIB=ON"] }
}
