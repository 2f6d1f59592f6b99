# Platform code: random_seed.c (CryptGenRandom, /dev/urandom, getrandom),
# json_util.c's file I/O with O_BINARY, linkhash.c's atomics under MinGW.
repository "json-c" {
  preset = "c-cmake"
  source {
    debian = "json-c=0.16-2"
    sha256 = "e91baf0603ed23df4c54030df4cd5e8371a7436006e2b85efab7ee4f1d9718c1"
  }
  migrate = ["windows->linux", "linux->windows"]
  params  = { cmake_options = ["-DBUILD_SHARED_LIBS=OFF"] }
  # Its test scripts run every program under valgrind when it is installed; that
  # traces Wine itself, and on Linux only makes the suite ten times slower.
  env = { USE_VALGRIND = "0" }
}
