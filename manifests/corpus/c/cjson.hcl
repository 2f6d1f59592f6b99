# Platform code: cJSON.c's _WIN32 and _MSC_VER guards (locale and number
# formatting helpers, exports).
repository "cjson" {
  preset = "c-cmake"
  source {
    debian = "cjson=1.7.15-1+deb12u4"
    sha256 = "764c2de141d680f4fb4cada30c526dacaa30ead061b9b9c34f2b81e2df0f8439"
  }
  migrate = ["windows->linux", "linux->windows"]
  # Its -std=c89 -Werror flags reject mingw-w64's headers; static libraries, as the preset links.
  params = { cmake_options = ["-DENABLE_CUSTOM_COMPILER_FLAGS=OFF", "-DBUILD_SHARED_LIBS=OFF"] }
}
