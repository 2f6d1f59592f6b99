// Line endings: Windows text ends lines with CR LF, POSIX text with LF.
#ifndef CPPENC_EOL_HPP
#define CPPENC_EOL_HPP

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace cppenc {

// The line ending this platform writes: "\r\n" on Windows, "\n" elsewhere.
const char* native_eol();

// The line endings a text uses.
enum class Eol { none, lf, crlf, mixed };

// Says which line endings text uses.
Eol detect_eol(const std::string& text);

// Writes each line followed by the native line ending.
void write_lines(std::ostream& out, const std::vector<std::string>& lines);

// Reads lines ended by LF or CR LF (the last one may lack an ending), so
// text from either platform reads the same.
std::vector<std::string> read_lines(std::istream& in);

}  // namespace cppenc

#endif
