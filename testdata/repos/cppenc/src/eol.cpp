#include "cppenc/eol.hpp"

namespace cppenc {

const char* native_eol()
{
#if defined(_WIN32)
    return "\r\n";
#else
    return "\n";
#endif
}

Eol detect_eol(const std::string& text)
{
    bool lf = false;
    bool crlf = false;
    for (std::string::size_type i = 0; i < text.size(); ++i) {
        if (text[i] != '\n')
            continue;
        if (i > 0 && text[i - 1] == '\r')
            crlf = true;
        else
            lf = true;
    }
    if (lf && crlf)
        return Eol::mixed;
    if (crlf)
        return Eol::crlf;
    return lf ? Eol::lf : Eol::none;
}

void write_lines(std::ostream& out, const std::vector<std::string>& lines)
{
    const char* eol = native_eol();
    for (const std::string& line : lines)
        out << line << eol;
}

std::vector<std::string> read_lines(std::istream& in)
{
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

}  // namespace cppenc
