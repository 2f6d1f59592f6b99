#include "cppenc/wide.hpp"

#if defined(_WIN32)
#include <windows.h>
#endif

namespace cppenc {

#if defined(_WIN32)

// Windows converts with the system's code-page API; the flags make invalid
// input an error instead of U+FFFD replacement characters.

bool widen(const std::string& utf8, std::wstring& out)
{
    out.clear();
    if (utf8.empty())
        return true;
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(),
                                static_cast<int>(utf8.size()), nullptr, 0);
    if (n <= 0)
        return false;
    std::wstring wide(static_cast<std::size_t>(n), L'\0');
    if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(),
                            static_cast<int>(utf8.size()), &wide[0], n) != n)
        return false;
    out.swap(wide);
    return true;
}

bool narrow(const std::wstring& wide, std::string& out)
{
    out.clear();
    if (wide.empty())
        return true;
    int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, wide.data(),
                                static_cast<int>(wide.size()), nullptr, 0, nullptr, nullptr);
    if (n <= 0)
        return false;
    std::string utf8(static_cast<std::size_t>(n), '\0');
    if (WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, wide.data(),
                            static_cast<int>(wide.size()), &utf8[0], n, nullptr, nullptr) != n)
        return false;
    out.swap(utf8);
    return true;
}

#else

// POSIX wchar_t holds whole code points, so the conversion is plain UTF-8
// decoding and encoding, written out here rather than left to iconv or the
// C locale, which differ between systems.

namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// decode reads one code point at s[i], advancing i; false when invalid.
bool decode(const std::string& s, std::size_t& i, char32_t& cp)
{
    const unsigned char lead = static_cast<unsigned char>(s[i]);
    std::size_t extra;
    char32_t min;
    if (lead < 0x80) {
        cp = lead;
        ++i;
        return true;
    } else if ((lead & 0xE0) == 0xC0) {
        extra = 1, min = 0x80, cp = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        extra = 2, min = 0x800, cp = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        extra = 3, min = 0x10000, cp = lead & 0x07;
    } else {
        return false;
    }
    if (s.size() - i <= extra)
        return false;
    for (std::size_t k = 1; k <= extra; ++k) {
        const unsigned char c = static_cast<unsigned char>(s[i + k]);
        if (!is_continuation(c))
            return false;
        cp = (cp << 6) | (c & 0x3F);
    }
    // Overlong forms, surrogates and values past Unicode are not UTF-8.
    if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return false;
    i += extra + 1;
    return true;
}

}  // namespace

bool widen(const std::string& utf8, std::wstring& out)
{
    std::wstring wide;
    for (std::size_t i = 0; i < utf8.size();) {
        char32_t cp;
        if (!decode(utf8, i, cp)) {
            out.clear();
            return false;
        }
        wide.push_back(static_cast<wchar_t>(cp));
    }
    out.swap(wide);
    return true;
}

bool narrow(const std::wstring& wide, std::string& out)
{
    std::string utf8;
    for (wchar_t w : wide) {
        const char32_t cp = static_cast<char32_t>(w);
        if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            out.clear();
            return false;
        }
        if (cp < 0x80) {
            utf8.push_back(static_cast<char>(cp));
        } else if (cp < 0x800) {
            utf8.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            utf8.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            utf8.push_back(static_cast<char>(0xE0 | (cp >> 12)));
            utf8.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            utf8.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
            utf8.push_back(static_cast<char>(0xF0 | (cp >> 18)));
            utf8.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            utf8.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            utf8.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }
    out.swap(utf8);
    return true;
}

#endif

std::size_t wide_units(const std::string& utf8)
{
    std::wstring wide;
    return widen(utf8, wide) ? wide.size() : 0;
}

}  // namespace cppenc
