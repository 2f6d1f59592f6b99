# Platform code: src/hashtable_seed.c seeds the hash function from the
# Windows CryptoAPI or from /dev/urandom, with a time/pid fallback.
repository "jansson" {
  preset = "c-cmake"
  source {
    debian = "jansson=2.14-2"
    sha256 = "6296ddd9c0a022bd1b70074aefb171cfcdf5694a04ffd32b35fd66097621af87"
  }
  migrate = ["windows->linux", "linux->windows"]
  platform "windows" {
    # The 196 JSON conformance cases run no platform code; under Wine each costs 3 s.
    test { skip_under = { wine = ["valid__*", "invalid__*", "invalid-unicode__*", "encoding-flags__*"] } }
  }
}
