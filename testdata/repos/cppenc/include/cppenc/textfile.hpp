// Text files named in UTF-8 and written with native line endings.
#ifndef CPPENC_TEXTFILE_HPP
#define CPPENC_TEXTFILE_HPP

#include <string>
#include <vector>

namespace cppenc {

// Writes lines to the file named path (UTF-8), each followed by the native
// line ending. Returns false when the file cannot be written.
bool save_lines(const std::string& path, const std::vector<std::string>& lines);

// Reads the file named path (UTF-8) whole, bytes unchanged, into out.
// Returns false when it cannot be read.
bool load_bytes(const std::string& path, std::string& out);

}  // namespace cppenc

#endif
