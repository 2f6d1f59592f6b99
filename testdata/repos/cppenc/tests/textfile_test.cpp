// Text files in the temporary directory, named in UTF-8.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "check.hpp"
#include "cppenc/textfile.hpp"

namespace fs = std::filesystem;

namespace {

// scratch returns the UTF-8 path of name in the temp directory, removing
// anything a previous run left there.
std::string scratch(const std::string& name)
{
    const fs::path p = fs::temp_directory_path() / fs::u8path(name);
    std::error_code ignored;
    fs::remove(p, ignored);
    return p.u8string();
}

}  // namespace

void test_save_crlf()
{
    const std::string path = scratch("cppenc-save.txt");
    CHECK(cppenc::save_lines(path, {"x", "y"}));
    std::ifstream in(fs::u8path(path), std::ios::binary);
    std::ostringstream raw;
    raw << in.rdbuf();
    CHECK(raw.str() == ON_WINDOWS("x\r\ny\r\n", "x\ny\n"));
    in.close();
    fs::remove(fs::u8path(path));
}

void test_save_unicode_name()
{
    // "été-✓.txt": the name must reach the file system as these characters,
    // not as the bytes of their UTF-8 read in some code page.
    const std::string name = "cppenc-\xC3\xA9t\xC3\xA9-\xE2\x9C\x93.txt";
    const std::string path = scratch(name);
    CHECK(cppenc::save_lines(path, {"caf\xC3\xA9"}));
    CHECK(fs::exists(fs::u8path(path)));
    std::string bytes;
    CHECK(cppenc::load_bytes(path, bytes));
    CHECK(bytes == ON_WINDOWS("caf\xC3\xA9\r\n", "caf\xC3\xA9\n"));
    fs::remove(fs::u8path(path));
}

void test_load_missing()
{
    std::string bytes = "stale";
    CHECK(!cppenc::load_bytes(scratch("cppenc-missing.txt"), bytes));
    CHECK(bytes == "stale");
}
