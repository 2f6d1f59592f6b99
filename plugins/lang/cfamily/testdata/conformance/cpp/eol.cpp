#include <string>

// native_eol is the platform's line end.
std::string native_eol()
{
#if defined(_WIN32)
    return "\r\n"; // osbench:target
#else
    return "\n";
#endif
}
