#include "cppenc/textfile.hpp"

#include <cstdio>
#include <memory>

#include "cppenc/eol.hpp"
#include "cppenc/wide.hpp"

namespace cppenc {

namespace {

struct file_closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

// open_utf8 opens the file named by a UTF-8 path. The narrow C library
// functions of Windows read names in the ANSI code page, so there the name
// is widened and the wide function used; POSIX names are bytes already.
file_ptr open_utf8(const std::string& path, bool write)
{
#if defined(_WIN32)
    std::wstring wide;
    if (!widen(path, wide))
        return nullptr;
    return file_ptr(_wfopen(wide.c_str(), write ? L"wb" : L"rb"));
#else
    return file_ptr(std::fopen(path.c_str(), write ? "wb" : "rb"));
#endif
}

}  // namespace

bool save_lines(const std::string& path, const std::vector<std::string>& lines)
{
    file_ptr f = open_utf8(path, true);
    if (!f)
        return false;
    // Binary mode and explicit endings: the C library's text mode would
    // translate "\n" on Windows only, and then twice for "\r\n".
    const std::string eol = native_eol();
    for (const std::string& line : lines) {
        if (std::fwrite(line.data(), 1, line.size(), f.get()) != line.size() ||
            std::fwrite(eol.data(), 1, eol.size(), f.get()) != eol.size())
            return false;
    }
    return std::fflush(f.get()) == 0;
}

bool load_bytes(const std::string& path, std::string& out)
{
    file_ptr f = open_utf8(path, false);
    if (!f)
        return false;
    std::string bytes;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0)
        bytes.append(buf, n);
    if (std::ferror(f.get()))
        return false;
    out.swap(bytes);
    return true;
}

}  // namespace cppenc
