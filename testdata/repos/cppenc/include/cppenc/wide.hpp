// Conversions between UTF-8 and the platform's wide strings: UTF-16 in a
// 16-bit wchar_t on Windows, UTF-32 in a 32-bit wchar_t on POSIX systems.
#ifndef CPPENC_WIDE_HPP
#define CPPENC_WIDE_HPP

#include <cstddef>
#include <string>

namespace cppenc {

// Converts UTF-8 to a wide string. Returns false, leaving out empty, when
// utf8 is not valid UTF-8.
bool widen(const std::string& utf8, std::wstring& out);

// Converts a wide string to UTF-8. Returns false, leaving out empty, when
// wide holds something no UTF-8 can say (an unpaired surrogate, a value
// above U+10FFFF).
bool narrow(const std::wstring& wide, std::string& out);

// The number of wchar_t units utf8 takes once widened, or 0 when it is not
// valid UTF-8. Characters outside the BMP take two units on Windows.
std::size_t wide_units(const std::string& utf8);

}  // namespace cppenc

#endif
