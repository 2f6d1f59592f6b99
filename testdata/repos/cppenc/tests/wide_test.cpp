// UTF-8 and wide strings: UTF-16 units on Windows, code points elsewhere.
#include <string>

#include "check.hpp"
#include "cppenc/wide.hpp"

namespace {

// "a", EURO SIGN (U+20AC) and GRINNING FACE (U+1F600, outside the BMP).
const std::string mixed_utf8 = "a\xE2\x82\xAC\xF0\x9F\x98\x80";

}  // namespace

void test_widen_ascii()
{
    std::wstring wide;
    CHECK(cppenc::widen("plain.txt", wide));
    CHECK(wide == L"plain.txt");
    CHECK(cppenc::widen("", wide));
    CHECK(wide.empty());
}

void test_widen_non_bmp()
{
    std::wstring wide;
    CHECK(cppenc::widen(mixed_utf8, wide));
    CHECK(wide.size() == ON_WINDOWS(4u, 3u));
    CHECK(cppenc::wide_units(mixed_utf8) == ON_WINDOWS(4u, 3u));
    if (wide.size() < 3)
        return;
    CHECK(wide[0] == L'a');
    CHECK(static_cast<unsigned long>(wide[1]) == 0x20ACul);
#if defined(_WIN32)
    CHECK(static_cast<unsigned long>(wide[2]) == 0xD83Dul);  // high surrogate
    CHECK(static_cast<unsigned long>(wide[3]) == 0xDE00ul);  // low surrogate
#else
    CHECK(static_cast<unsigned long>(wide[2]) == 0x1F600ul);
#endif
}

void test_widen_invalid()
{
    std::wstring wide = L"stale";
    CHECK(!cppenc::widen("\x80", wide));         // a lone continuation byte
    CHECK(wide.empty());
    CHECK(!cppenc::widen("ok\xE2\x82", wide));   // a truncated sequence
    CHECK(!cppenc::widen("\xFF\xFE", wide));      // bytes UTF-8 never uses
    CHECK(cppenc::wide_units("\xC3") == 0u);
}

void test_narrow_roundtrip()
{
    std::wstring wide;
    std::string back;
    CHECK(cppenc::widen(mixed_utf8, wide));
    CHECK(cppenc::narrow(wide, back));
    CHECK(back == mixed_utf8);
    CHECK(cppenc::narrow(L"", back));
    CHECK(back.empty());
}

void test_narrow_invalid()
{
    std::string out = "stale";
    const std::wstring lone_surrogate(1, static_cast<wchar_t>(0xD800));
    CHECK(!cppenc::narrow(lone_surrogate, out));
    CHECK(out.empty());
}
