# Platform code: lib/xmlparse.c's entropy (rand_s on Windows, getrandom or
# /dev/urandom elsewhere) and xmlwf's Windows file mapping.
repository "expat" {
  preset = "c-cmake"
  source {
    debian = "expat=2.5.0-1+deb12u2"
    sha256 = "6fc87dbd01f49999ed368cfb37c08d35e41348dda2281d60642f3aa14cb77e32"
  }
  migrate = ["windows->linux", "linux->windows"]
  params  = { source_dir = "expat", cmake_options = ["-DEXPAT_BUILD_DOCS=OFF"] }
}
