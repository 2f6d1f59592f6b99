# Platform code: randombytes_sysrandom.c (RtlGenRandom on Windows,
# getrandom or /dev/urandom elsewhere), sodium/utils.c's guarded memory
# (VirtualLock/VirtualProtect or mlock/mprotect) and sodium/core.c's lock
# (a critical section or a pthread mutex). Built with autotools.
repository "libsodium" {
  preset = "c-autotools"
  source {
    debian = "libsodium=1.0.18-1+deb12u1"
    sha256 = "2c23c57b5a9385dab5a1916014c9b5f2cdd7dadeb8a35b28c1bfb603ce7095c4"
  }
  migrate = ["windows->linux", "linux->windows"]
}
