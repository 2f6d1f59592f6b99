// Line endings, with the expectation of each platform side by side.
#include <sstream>
#include <string>

#include "check.hpp"
#include "cppenc/eol.hpp"

using cppenc::Eol;

void test_eol_native()
{
    CHECK(std::string(cppenc::native_eol()) == ON_WINDOWS("\r\n", "\n"));
}

void test_eol_detect()
{
    CHECK(cppenc::detect_eol("") == Eol::none);
    CHECK(cppenc::detect_eol("no ending") == Eol::none);
    CHECK(cppenc::detect_eol("a\nb\n") == Eol::lf);
    CHECK(cppenc::detect_eol("a\r\nb\r\n") == Eol::crlf);
    CHECK(cppenc::detect_eol("a\r\nb\n") == Eol::mixed);
    CHECK(cppenc::detect_eol("\n") == Eol::lf);
}

void test_eol_write()
{
    std::ostringstream out;
    cppenc::write_lines(out, {"first", "", "third"});
    CHECK(out.str() == ON_WINDOWS("first\r\n\r\nthird\r\n", "first\n\nthird\n"));
    CHECK(cppenc::detect_eol(out.str()) == ON_WINDOWS(Eol::crlf, Eol::lf));
}

void test_eol_read()
{
    std::istringstream mixed("one\r\ntwo\nthree");
    const std::vector<std::string> want = {"one", "two", "three"};
    CHECK(cppenc::read_lines(mixed) == want);

    std::ostringstream out;
    cppenc::write_lines(out, want);
    std::istringstream native(out.str());
    CHECK(cppenc::read_lines(native) == want);
}
